/*
 * `paimon inspect TABLE --html FILE|-`: the page (html.h).  The facts are gathered once
 * through the public API, then written section by section: health, the LSM of every
 * bucket, read amplification, the snapshot timeline with retention, tags and consumers, the
 * file sizes against target-file-size, the schema history and the options that differ from
 * Java's defaults.  The page carries its CSS and SVG inline and no script.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "html.h"

typedef struct html_dv {
    const char *file;
    int64_t rows;
} html_dv;

static const char CSS[] =
    "body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px;color:#222;"
    "background:#fff;max-width:960px}"
    "h1{font-size:20px;margin:0 0 4px;word-break:break-all}h2{font-size:17px;margin:28px 0 8px;"
    "border-bottom:1px solid #ddd;padding-bottom:3px}h3{font-size:14px;margin:14px 0 4px}"
    ".sum{color:#555;margin:0}nav a{margin-right:12px}"
    "table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #ddd;padding:2px 8px;"
    "text-align:left;vertical-align:top}td.n{text-align:right;font-variant-numeric:tabular-nums}"
    "th{background:#f4f4f4}code{background:#f4f4f4;padding:1px 4px;border-radius:3px}"
    "ul.health{padding-left:0;list-style:none}ul.health li{margin:4px 0;padding:6px 10px;"
    "border-left:5px solid #d5bb67;background:#fbf8ee}ul.health li.critical{border-color:#c03030;"
    "background:#fbeeee}.ok{color:#2a7a2a}"
    "figure{margin:6px 0 10px}figcaption{font-size:12px;color:#444}"
    "svg text{font:10px sans-serif;fill:#444}.lane{stroke:#eee}.run{fill:none;stroke:#333;"
    "stroke-width:1;stroke-dasharray:3 2}rect.file{stroke:#fff;stroke-width:.5}"
    "rect.band{opacity:.75}.bandlabel{fill:#000}.axis{stroke:#999}.deleted{fill:#d65f5f}"
    ".expirable{fill:#eee}.tag{fill:#2a7a2a}.consumer{fill:#c03030}.limit{stroke:#b8860b;"
    "stroke-dasharray:4 3}.target{stroke:#2a7a2a;stroke-dasharray:4 3}"
    ".key span{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px}.note{color:#666}";

void html_text(FILE *out, const char *s)
{
    if (s == NULL)
        return;
    for (; *s != '\0'; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default: fputc(*s, out);
        }
    }
}

void html_bytes(char *buf, size_t len, int64_t bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 5) {
        v /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(buf, len, "%" PRId64 " B", bytes);
    else
        snprintf(buf, len, v < 10 ? "%.1f %s" : "%.0f %s", v, units[u]);
}

static int cmp_dv(const void *a, const void *b)
{
    return strcmp(((const html_dv *)a)->file, ((const html_dv *)b)->file);
}

int64_t html_dv_rows(const html_facts *f, const char *name)
{
    html_dv probe = {name, 0};
    const html_dv *hit =
        f->dv_count > 0 ? bsearch(&probe, f->dv_index, f->dv_count, sizeof(html_dv), cmp_dv) : NULL;
    return hit != NULL && hit->rows > 0 ? hit->rows : 0;
}

/* ---- gathering ---------------------------------------------------------------------------- */

static void facts_free(html_facts *f)
{
    paimon_list_free(f->commits);
    paimon_list_free(f->schemas);
    paimon_list_free(f->options);
    paimon_list_free(f->files);
    paimon_list_free(f->buckets);
    paimon_list_free(f->dvs);
    paimon_list_free(f->tags);
    paimon_list_free(f->health);
    paimon_consumers_free(f->consumers, f->consumer_count);
    free(f->dv_index);
}

static int facts_gather(html_facts *f, paimon_table *t, paimon_error *err)
{
    int rc;
    memset(f, 0, sizeof(*f));
    f->table = t;
    if ((rc = paimon_table_health_limits(t, &f->limits, err)) != 0 ||
        (rc = paimon_table_commits(t, &f->commits, err)) != 0 ||
        (rc = paimon_table_schemas(t, &f->schemas, err)) != 0 ||
        (rc = paimon_table_options(t, PAIMON_LATEST_SNAPSHOT, &f->options, err)) != 0 ||
        (rc = paimon_table_tags(t, &f->tags, err)) != 0 ||
        (rc = paimon_table_consumers(t, &f->consumers, &f->consumer_count, err)) != 0 ||
        (rc = paimon_table_health(t, &f->health, err)) != 0)
        return rc;
    if (paimon_list_count(f->commits) > 0) {
        if ((rc = paimon_table_files(t, PAIMON_LATEST_SNAPSHOT, &f->files, err)) != 0 ||
            (rc = paimon_table_buckets(t, PAIMON_LATEST_SNAPSHOT, &f->buckets, err)) != 0 ||
            (rc = paimon_table_deletion_vectors(t, PAIMON_LATEST_SNAPSHOT, &f->dvs, err)) != 0)
            return rc;
    }
    f->dv_count = paimon_list_count(f->dvs);
    if (f->dv_count > 0) {
        f->dv_index = cli_calloc(f->dv_count, sizeof(html_dv));
        for (size_t i = 0; i < f->dv_count; i++) {
            f->dv_index[i].file = paimon_list_dv(f->dvs, i)->data_file;
            f->dv_index[i].rows = paimon_list_dv(f->dvs, i)->cardinality;
        }
        qsort(f->dv_index, f->dv_count, sizeof(html_dv), cmp_dv);
    }
    return 0;
}

/* ---- sections ----------------------------------------------------------------------------- */

static void section_header(FILE *out, const html_facts *f)
{
    const paimon_schema_info *s = paimon_list_schema(f->schemas, paimon_list_count(f->schemas) - 1);
    size_t ns = paimon_list_count(f->commits);
    int64_t rows = 0, bytes = 0;
    char size[32];
    for (size_t i = 0; i < paimon_list_count(f->files); i++) {
        rows += paimon_list_file(f->files, i)->row_count;
        bytes += paimon_list_file(f->files, i)->file_size;
    }
    html_bytes(size, sizeof(size), bytes);
    fputs("<header><h1>", out);
    html_text(out, paimon_table_path(f->table));
    fprintf(out, "</h1><p class=\"sum\">schema %" PRId64 " &#183; %zu columns &#183; ", s->id,
            s->field_count);
    if (s->primary_keys[0] != '\0') {
        fputs("primary key ", out);
        html_text(out, s->primary_keys);
    } else {
        fputs("no primary key", out);
    }
    if (s->partition_keys[0] != '\0') {
        fputs(" &#183; partitioned by ", out);
        html_text(out, s->partition_keys);
    }
    if (ns > 0)
        fprintf(out,
                " &#183; snapshots %" PRId64 "..%" PRId64 " &#183; %zu live files, %" PRId64
                " rows, %s",
                paimon_list_commit(f->commits, 0)->snapshot_id,
                paimon_list_commit(f->commits, ns - 1)->snapshot_id, paimon_list_count(f->files),
                rows, size);
    else
        fputs(" &#183; no snapshot yet", out);
    fprintf(out,
            "</p></header>\n<nav><a href=\"#health\">health</a><a href=\"#lsm\">LSM</a>"
            "<a href=\"#amplification\">read amplification</a><a href=\"#timeline\">snapshots</a>"
            "<a href=\"#sizes\">file sizes</a><a href=\"#schemas\">schemas</a>"
            "<a href=\"#options\">options</a></nav>\n");
}

static void section_health(FILE *out, const html_facts *f)
{
    fputs("<section id=\"health\"><h2>Health</h2>\n", out);
    if (paimon_list_count(f->health) == 0) {
        fputs("<p class=\"ok\">Nothing to act on.</p></section>\n", out);
        return;
    }
    fputs("<ul class=\"health\">\n", out);
    for (size_t i = 0; i < paimon_list_count(f->health); i++) {
        const paimon_health_item *h = paimon_list_health(f->health, i);
        fprintf(out, "<li class=\"%s\" data-check=\"%s\"><b>%s</b> (%s): ", h->severity, h->check,
                h->check, h->severity);
        html_text(out, h->message);
        fputs("<br>fix: <code>", out);
        html_text(out, h->fix);
        fputs("</code></li>\n", out);
    }
    fputs("</ul></section>\n", out);
}

static void section_lsm(FILE *out, const html_facts *f)
{
    fputs("<section id=\"lsm\"><h2>LSM per partition and bucket</h2>\n<p class=\"key\">", out);
    fprintf(out,
            "Each box is a data file, its width proportional to its bytes (hover for name, level, "
            "rows and size). %s Hatched: rows deleted by deletion vectors.",
            f->limits.primary_key
                ? "Level-0 files are sorted runs of their own; the files of each higher level "
                  "form one run (dashed outline)."
                : "A table without primary key keeps its files at level 0; reads concatenate "
                  "them.");
    fputs("</p>\n", out);
    if (paimon_list_count(f->buckets) == 0)
        fputs("<p class=\"note\">No live data files.</p>\n", out);
    else
        html_svg_buckets(out, f);
    fputs("</section>\n", out);
}

static int by_runs(const void *a, const void *b)
{
    const paimon_bucket_info *x = *(const paimon_bucket_info *const *)a,
                             *y = *(const paimon_bucket_info *const *)b;
    if (x->sorted_runs != y->sorted_runs)
        return x->sorted_runs < y->sorted_runs ? 1 : -1;
    return 0;
}

static void section_amplification(FILE *out, const html_facts *f)
{
    size_t n = paimon_list_count(f->buckets), shown = n < 200 ? n : 200;
    const paimon_bucket_info **order = n > 0 ? cli_calloc(n, sizeof(*order)) : NULL;
    fprintf(out,
            "<section id=\"amplification\"><h2>Read amplification</h2>\n<p>The sorted runs a "
            "batch read of each bucket merges today (compaction starts above %" PRId64
            ", num-sorted-run.compaction-trigger; Java writers stall above %" PRId64
            ", num-sorted-run.stop-trigger).%s</p>\n",
            f->limits.compaction_trigger, f->limits.stop_trigger,
            n > shown ? " The 200 buckets with the most runs:" : "");
    for (size_t i = 0; i < n; i++)
        order[i] = paimon_list_bucket(f->buckets, i);
    if (n > 0)
        qsort(order, n, sizeof(*order), by_runs);
    fputs("<table><tr><th>partition</th><th>bucket</th><th>sorted runs</th><th>level-0 files"
          "</th><th>files</th><th>small files</th><th>rows</th><th>size</th><th>deleted rows"
          "</th></tr>\n",
          out);
    for (size_t i = 0; i < shown; i++) {
        const paimon_bucket_info *b = order[i];
        char size[32];
        html_bytes(size, sizeof(size), b->file_size);
        fputs("<tr><td>", out);
        html_text(out, strcmp(b->partition, "{}") == 0 ? "-" : b->partition);
        fprintf(out,
                "</td><td class=\"n\">%d</td><td class=\"n\">%" PRId64
                "</td><td class=\"n\">%" PRId64 "</td><td class=\"n\">%" PRId64
                "</td><td class=\"n\">%" PRId64 "</td><td class=\"n\">%" PRId64
                "</td><td class=\"n\">%s</td><td class=\"n\">%" PRId64 "</td></tr>\n",
                b->bucket, b->sorted_runs, b->level0_files, b->file_count, b->small_files,
                b->row_count, size, b->deleted_rows);
    }
    fputs("</table></section>\n", out);
    free(order);
}

static void section_timeline(FILE *out, const html_facts *f)
{
    const paimon_health_limits *l = &f->limits;
    fputs("<section id=\"timeline\"><h2>Snapshots</h2>\n<p class=\"key\">"
          "<span style=\"background:#4878d0\"></span>APPEND<span style=\"background:#ee854a\">"
          "</span>COMPACT<span style=\"background:#956cb4\"></span>OVERWRITE"
          "<span style=\"background:#d65f5f\"></span>rows deleted"
          "<span style=\"background:#eee\"></span>beyond retention"
          "<span style=\"background:#2a7a2a\"></span>tag<span style=\"background:#c03030\">"
          "</span>consumer</p>\n",
          out);
    fprintf(out,
            "<p>Retention: at least %" PRId64
            " snapshots (snapshot.num-retained.min), at most %" PRId64
            " (snapshot.num-retained.max), younger than %" PRId64
            " s (snapshot.time-retained).%s</p>\n",
            l->retain_min, l->retain_max, l->time_retained_ms / 1000,
            l->expire_before > 0 ? " The shaded snapshots are beyond it." : "");
    html_svg_timeline(out, f);
    if (paimon_list_count(f->tags) > 0) {
        fputs("<h3>Tags</h3><table><tr><th>tag</th><th>snapshot</th><th>retained</th></tr>\n", out);
        for (size_t i = 0; i < paimon_list_count(f->tags); i++) {
            const paimon_tag_info *t = paimon_list_tag(f->tags, i);
            fputs("<tr><td>", out);
            html_text(out, t->name);
            fprintf(out, "</td><td class=\"n\">%" PRId64 "</td><td>", t->snapshot_id);
            html_text(out, t->time_retained != NULL ? t->time_retained : "until deleted");
            fputs("</td></tr>\n", out);
        }
        fputs("</table>\n", out);
    }
    if (f->consumer_count > 0) {
        fputs("<h3>Consumers</h3><table><tr><th>consumer</th><th>reads next</th></tr>\n", out);
        for (size_t i = 0; i < f->consumer_count; i++) {
            fputs("<tr><td>", out);
            html_text(out, f->consumers[i].id);
            fprintf(out, "</td><td class=\"n\">%" PRId64 "</td></tr>\n",
                    f->consumers[i].next_snapshot);
        }
        fputs("</table>\n", out);
    }
    fputs("</section>\n", out);
}

static void section_sizes(FILE *out, const html_facts *f)
{
    char small[32], target[32];
    size_t n = paimon_list_count(f->buckets);
    html_bytes(small, sizeof(small), f->limits.small_file_size);
    html_bytes(target, sizeof(target), f->limits.target_file_size);
    fprintf(out,
            "<section id=\"sizes\"><h2>File sizes</h2>\n<p>Live data files by size (powers of "
            "two). target-file-size is %s; files under %s (7/10 of it) are small: compaction "
            "picks them up.</p>\n",
            target, small);
    html_svg_sizes(out, f);
    if (n > 0) {
        fputs("<h3>Small files per partition</h3><table><tr><th>partition</th><th>buckets</th>"
              "<th>files</th><th>small files</th></tr>\n",
              out);
        for (size_t i = 0; i < n;) {
            const paimon_bucket_info *b = paimon_list_bucket(f->buckets, i);
            int64_t files = 0, small_files = 0, nb = 0;
            size_t j = i;
            for (; j < n && strcmp(paimon_list_bucket(f->buckets, j)->partition, b->partition) == 0;
                 j++) {
                files += paimon_list_bucket(f->buckets, j)->file_count;
                small_files += paimon_list_bucket(f->buckets, j)->small_files;
                nb++;
            }
            fputs("<tr><td>", out);
            html_text(out, strcmp(b->partition, "{}") == 0 ? "-" : b->partition);
            fprintf(out,
                    "</td><td class=\"n\">%" PRId64 "</td><td class=\"n\">%" PRId64
                    "</td><td class=\"n\">%" PRId64 "</td></tr>\n",
                    nb, files, small_files);
            i = j;
        }
        fputs("</table>\n", out);
    }
    fputs("</section>\n", out);
}

static void section_schemas(FILE *out, const html_facts *f)
{
    fputs("<section id=\"schemas\"><h2>Schema history</h2>\n<table><tr><th>id</th><th>created "
          "(UTC)</th><th>columns</th><th>primary key</th><th>partition keys</th><th>options</th>"
          "</tr>\n",
          out);
    for (size_t i = 0; i < paimon_list_count(f->schemas); i++) {
        const paimon_schema_info *s = paimon_list_schema(f->schemas, i);
        char when[40] = "-";
        if (s->time_millis > 0)
            cli_format_millis(when, sizeof(when), s->time_millis);
        fprintf(out, "<tr><td class=\"n\">%" PRId64 "</td><td>%s</td><td>", s->id, when);
        html_text(out, s->columns);
        fputs("</td><td>", out);
        html_text(out, s->primary_keys);
        fputs("</td><td>", out);
        html_text(out, s->partition_keys);
        fprintf(out, "</td><td class=\"n\">%zu</td></tr>\n", s->option_count);
    }
    fputs("</table></section>\n", out);
}

/* Option texts equal as Java reads them: case and spaces aside ("128MB" is "128 mb", TRUE
 * is true). */
static bool same_option_text(const char *a, const char *b)
{
    for (;;) {
        while (*a == ' ')
            a++;
        while (*b == ' ')
            b++;
        if (*a == '\0' || *b == '\0')
            return *a == *b;
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
        a++;
        b++;
    }
}

static void section_options(FILE *out, const html_facts *f)
{
    size_t shown = 0;
    fputs("<section id=\"options\"><h2>Options that differ from Java's defaults</h2>\n"
          "<table><tr><th>option</th><th>value</th><th>Java 1.4.2 default</th></tr>\n",
          out);
    for (size_t i = 0; i < paimon_list_count(f->options); i++) {
        const paimon_option_info *o = paimon_list_option(f->options, i);
        bool known = false;
        const char *dflt = paimon_option_java_default(o->key, &known);
        if (dflt != NULL && same_option_text(dflt, o->value))
            continue;
        shown++;
        fputs("<tr><td>", out);
        html_text(out, o->key);
        fputs("</td><td>", out);
        html_text(out, o->value);
        fputs("</td><td>", out);
        html_text(out, dflt != NULL ? dflt : known ? "(none)" : "(not a core option)");
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
    if (shown == 0)
        fputs("<p class=\"note\">Every option is at Java's default.</p>\n", out);
    fputs("</section>\n", out);
}

/* ---- the page ----------------------------------------------------------------------------- */

int html_report_write(paimon_table *t, const char *path, paimon_error *err)
{
    html_facts f;
    FILE *out = NULL;
    char when[40];
    int rc = facts_gather(&f, t, err);

    if (rc != 0)
        goto done;
    out = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (out == NULL) {
        err->code = rc = PAIMON_EIO;
        snprintf(err->message, sizeof(err->message), "inspect: %s: %s", path, strerror(errno));
        goto done;
    }
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta name=\"viewport\" content=\"width=device-width\"><title>paimon: ",
          out);
    html_text(out, paimon_table_path(t));
    fprintf(out, "</title><style>%s</style></head><body>\n", CSS);
    html_svg_defs(out);
    section_header(out, &f);
    section_health(out, &f);
    section_lsm(out, &f);
    section_amplification(out, &f);
    section_timeline(out, &f);
    section_sizes(out, &f);
    section_schemas(out, &f);
    section_options(out, &f);
    cli_format_millis(when, sizeof(when), f.limits.now_millis);
    fprintf(out, "<footer class=\"note\"><p>paimon-c %s, %s UTC</p></footer>\n</body></html>\n",
            paimon_version(), when);
    if (out != stdout) {
        bool bad = ferror(out) != 0;
        if (fclose(out) != 0 || bad) {
            err->code = rc = PAIMON_EIO;
            snprintf(err->message, sizeof(err->message), "inspect: %s: cannot write the report",
                     path);
            remove(path);
        }
    }
done:
    facts_free(&f);
    return rc;
}
