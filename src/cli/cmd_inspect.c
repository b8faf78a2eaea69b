/*
 * paimon inspect TABLE [summary|snapshots|schemas|manifests|files|options|tags|consumers|health]
 *                      [--snapshot N] [--format table|jsonl] [--html FILE|-]
 *
 * Readable tables of a table's metadata, or JSON lines (DESIGN.md): `snapshots` prints each
 * snapshot's JSON fields under Java's names, `files` the keys of the oracle's --files mode.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "html.h"

static const char USAGE[] =
    "usage: paimon inspect TABLE [VIEW] [--snapshot N] [--format table|jsonl]\n"
    "       paimon inspect TABLE --html FILE|-\n"
    "\n"
    "VIEW is one of:\n"
    "  summary    (default) the latest schema, snapshot and file counts\n"
    "  snapshots  every snapshot: id, commit kind, time, record counts, schema\n"
    "  schemas    every schema: columns, partition and primary keys, options\n"
    "  manifests  the manifests of a snapshot's base, delta and changelog lists\n"
    "  files      the live data files of a snapshot\n"
    "  options    the options of a snapshot's schema\n"
    "  tags       every tag: its snapshot, commit time, rows, creation time, retention\n"
    "  consumers  every consumer and the snapshot it reads next\n"
    "  health     what to act on (too many sorted runs, small files, snapshots beyond\n"
    "             retention, a consumer pinning them), each with the command that fixes it\n"
    "\n"
    "--snapshot N  the snapshot for manifests, files and options (default: latest)\n"
    "--format F    table (default, aligned for a terminal) or jsonl (one JSON object a line)\n"
    "--html FILE   write the report of the table as one self-contained HTML page (FILE, or -\n"
    "              for stdout): the LSM of every bucket, the snapshot timeline, file sizes,\n"
    "              schemas, options and health\n";

static const cli_option OPTIONS[] = {
    {"snapshot", true, false},
    {"format", true, false},
    {"html", true, false},
    {NULL, false, false},
};

/* Sizes and ids: "-" when absent (-1). */
static void i64(char *buf, size_t len, int64_t v)
{
    if (v < 0)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%" PRId64, v);
}

/* Record counts: "-" when absent (PAIMON_ABSENT_COUNT); may be negative. */
static void count(char *buf, size_t len, int64_t v)
{
    if (v == PAIMON_ABSENT_COUNT)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%" PRId64, v);
}

static void json_i64_or_null(FILE *out, int64_t v, bool present)
{
    if (present)
        fprintf(out, "%" PRId64, v);
    else
        fputs("null", out);
}

/* ---- views ----------------------------------------------------------------------------- */

static int view_snapshots(paimon_table *t, bool jsonl, paimon_error *err)
{
    paimon_list *l = NULL;
    cli_table *tab;
    size_t bad = 0;
    int rc = paimon_table_snapshots(t, &l, err);
    if (rc != 0)
        return rc;
    if (jsonl) {
        for (size_t i = 0; i < paimon_list_count(l); i++) {
            const paimon_snapshot_info *s = paimon_list_snapshot(l, i);
            if (s->unreadable == NULL) {
                printf("%s\n", s->json);
                continue;
            }
            printf("{\"id\":%" PRId64 ",\"unreadable\":", s->id);
            cli_json_string(stdout, s->unreadable);
            fputs("}\n", stdout);
        }
        goto unreadable;
    }
    tab = cli_table_new(8);
    cli_table_add(tab, (const char *[]){"id", "kind", "committed (UTC)", "schema", "total rows",
                                        "delta rows", "changelog rows", "commit user"});
    for (size_t i = 0; i < paimon_list_count(l); i++) {
        const paimon_snapshot_info *s = paimon_list_snapshot(l, i);
        char id[24], when[40], schema[24], total[24], delta[24], cl[24];
        i64(id, sizeof(id), s->id);
        if (s->unreadable != NULL) {
            cli_table_add(tab, (const char *[]){id, "UNREADABLE", "-", "-", "-", "-", "-", "-"});
            continue;
        }
        cli_format_millis(when, sizeof(when), s->time_millis);
        i64(schema, sizeof(schema), s->schema_id);
        count(total, sizeof(total), s->total_record_count);
        count(delta, sizeof(delta), s->delta_record_count);
        count(cl, sizeof(cl), s->changelog_record_count);
        cli_table_add(tab, (const char *[]){id, s->commit_kind, when, schema, total, delta, cl,
                                            s->commit_user});
    }
    cli_table_print(tab, stdout);
    cli_table_free(tab);
unreadable:
    /* every other snapshot is listed; each damaged one is named on stderr, and the exit
     * status says that something could not be read */
    for (size_t i = 0; i < paimon_list_count(l); i++)
        if (paimon_list_snapshot(l, i)->unreadable != NULL) {
            if (bad++ > 0)
                cli_error("%s", err->message);
            snprintf(err->message, sizeof(err->message), "%s",
                     paimon_list_snapshot(l, i)->unreadable);
        }
    paimon_list_free(l);
    if (bad > 0) {
        err->code = PAIMON_ECORRUPT;
        return PAIMON_ECORRUPT;
    }
    return 0;
}

static int view_schemas(paimon_table *t, bool jsonl, paimon_error *err)
{
    paimon_list *l = NULL;
    cli_table *tab;
    int rc = paimon_table_schemas(t, &l, err);
    if (rc != 0)
        return rc;
    if (jsonl) {
        for (size_t i = 0; i < paimon_list_count(l); i++)
            printf("%s\n", paimon_list_schema(l, i)->json);
        paimon_list_free(l);
        return 0;
    }
    tab = cli_table_new(6);
    cli_table_add(tab, (const char *[]){"id", "created (UTC)", "partition keys", "primary keys",
                                        "options", "columns"});
    for (size_t i = 0; i < paimon_list_count(l); i++) {
        const paimon_schema_info *s = paimon_list_schema(l, i);
        char id[24], when[40], opts[24];
        i64(id, sizeof(id), s->id);
        if (s->time_millis > 0)
            cli_format_millis(when, sizeof(when), s->time_millis);
        else
            snprintf(when, sizeof(when), "-");
        snprintf(opts, sizeof(opts), "%zu", s->option_count);
        cli_table_add(
            tab, (const char *[]){id, when, s->partition_keys, s->primary_keys, opts, s->columns});
    }
    cli_table_print(tab, stdout);
    cli_table_free(tab);
    paimon_list_free(l);
    return 0;
}

static int view_options(paimon_table *t, int64_t snapshot, bool jsonl, paimon_error *err)
{
    paimon_list *l = NULL;
    cli_table *tab;
    int rc = paimon_table_options(t, snapshot, &l, err);
    if (rc != 0)
        return rc;
    tab = cli_table_new(2);
    cli_table_add(tab, (const char *[]){"key", "value"});
    for (size_t i = 0; i < paimon_list_count(l); i++) {
        const paimon_option_info *o = paimon_list_option(l, i);
        if (jsonl) {
            fputs("{\"key\":", stdout);
            cli_json_string(stdout, o->key);
            fputs(",\"value\":", stdout);
            cli_json_string(stdout, o->value);
            fputs("}\n", stdout);
        } else {
            cli_table_add(tab, (const char *[]){o->key, o->value});
        }
    }
    if (!jsonl)
        cli_table_print(tab, stdout);
    cli_table_free(tab);
    paimon_list_free(l);
    return 0;
}

static void range(char *buf, size_t len, int32_t lo, int32_t hi)
{
    if (lo == PAIMON_ABSENT_INT || hi == PAIMON_ABSENT_INT)
        snprintf(buf, len, "-");
    else if (lo == hi)
        snprintf(buf, len, "%d", lo);
    else
        snprintf(buf, len, "%d..%d", lo, hi);
}

static int view_manifests(paimon_table *t, int64_t snapshot, bool jsonl, paimon_error *err)
{
    paimon_list *l = NULL;
    cli_table *tab;
    int rc = paimon_table_manifests(t, snapshot, &l, err);
    if (rc != 0)
        return rc;
    tab = cli_table_new(9);
    cli_table_add(tab, (const char *[]){"list", "file", "size", "added", "deleted", "schema",
                                        "buckets", "levels", "partitions"});
    for (size_t i = 0; i < paimon_list_count(l); i++) {
        const paimon_manifest_info *m = paimon_list_manifest(l, i);
        if (jsonl) {
            printf("{\"list\":\"%s\",\"file_name\":", m->list_kind);
            cli_json_string(stdout, m->file_name);
            printf(",\"file_size\":%" PRId64 ",\"num_added_files\":%" PRId64
                   ",\"num_deleted_files\":%" PRId64 ",\"schema_id\":%" PRId64,
                   m->file_size, m->num_added_files, m->num_deleted_files, m->schema_id);
            fputs(",\"min_bucket\":", stdout);
            json_i64_or_null(stdout, m->min_bucket, m->min_bucket != PAIMON_ABSENT_INT);
            fputs(",\"max_bucket\":", stdout);
            json_i64_or_null(stdout, m->max_bucket, m->max_bucket != PAIMON_ABSENT_INT);
            fputs(",\"min_level\":", stdout);
            json_i64_or_null(stdout, m->min_level, m->min_level != PAIMON_ABSENT_INT);
            fputs(",\"max_level\":", stdout);
            json_i64_or_null(stdout, m->max_level, m->max_level != PAIMON_ABSENT_INT);
            printf(",\"partition_min\":%s,\"partition_max\":%s}\n",
                   m->partition_min != NULL ? m->partition_min : "null",
                   m->partition_max != NULL ? m->partition_max : "null");
        } else {
            char size[24], added[24], deleted[24], schema[24], buckets[32], levels[32], parts[512];
            i64(size, sizeof(size), m->file_size);
            i64(added, sizeof(added), m->num_added_files);
            i64(deleted, sizeof(deleted), m->num_deleted_files);
            i64(schema, sizeof(schema), m->schema_id);
            range(buckets, sizeof(buckets), m->min_bucket, m->max_bucket);
            range(levels, sizeof(levels), m->min_level, m->max_level);
            if (m->partition_min == NULL)
                snprintf(parts, sizeof(parts), "-");
            else if (strcmp(m->partition_min, m->partition_max) == 0)
                snprintf(parts, sizeof(parts), "%s", m->partition_min);
            else
                snprintf(parts, sizeof(parts), "%s..%s", m->partition_min, m->partition_max);
            cli_table_add(tab, (const char *[]){m->list_kind, m->file_name, size, added, deleted,
                                                schema, buckets, levels, parts});
        }
    }
    if (!jsonl)
        cli_table_print(tab, stdout);
    cli_table_free(tab);
    paimon_list_free(l);
    return 0;
}

static int view_files(paimon_table *t, int64_t snapshot, bool jsonl, paimon_error *err)
{
    paimon_list *l = NULL;
    cli_table *tab;
    int rc = paimon_table_files(t, snapshot, &l, err);
    if (rc != 0)
        return rc;
    tab = cli_table_new(9);
    cli_table_add(tab, (const char *[]){"partition", "bucket", "level", "file", "rows", "size",
                                        "sequence", "schema", "deletes"});
    for (size_t i = 0; i < paimon_list_count(l); i++) {
        const paimon_file_info *f = paimon_list_file(l, i);
        if (jsonl) {
            printf("{\"partition\":%s,\"bucket\":%d,\"level\":%d,\"file_name\":", f->partition,
                   f->bucket, f->level);
            cli_json_string(stdout, f->file_name);
            printf(",\"row_count\":%" PRId64 ",\"file_size\":%" PRId64
                   ",\"min_sequence_number\":%" PRId64 ",\"max_sequence_number\":%" PRId64
                   ",\"schema_id\":%" PRId64 ",\"delete_row_count\":",
                   f->row_count, f->file_size, f->min_sequence_number, f->max_sequence_number,
                   f->schema_id);
            json_i64_or_null(stdout, f->delete_row_count,
                             f->delete_row_count != PAIMON_ABSENT_COUNT);
            fputs("}\n", stdout);
        } else {
            char bucket[16], level[16], rows[24], size[24], seq[48], schema[24], deletes[24];
            snprintf(bucket, sizeof(bucket), "%d", f->bucket);
            snprintf(level, sizeof(level), "%d", f->level);
            i64(rows, sizeof(rows), f->row_count);
            i64(size, sizeof(size), f->file_size);
            snprintf(seq, sizeof(seq), "%" PRId64 "..%" PRId64, f->min_sequence_number,
                     f->max_sequence_number);
            i64(schema, sizeof(schema), f->schema_id);
            count(deletes, sizeof(deletes), f->delete_row_count);
            cli_table_add(
                tab, (const char *[]){strcmp(f->partition, "{}") == 0 ? "-" : f->partition, bucket,
                                      level, f->file_name, rows, size, seq, schema, deletes});
        }
    }
    if (!jsonl)
        cli_table_print(tab, stdout);
    cli_table_free(tab);
    paimon_list_free(l);
    return 0;
}

static void json_str_or_null(FILE *out, const char *s)
{
    if (s != NULL)
        cli_json_string(out, s);
    else
        fputs("null", out);
}

static int view_health(paimon_table *t, bool jsonl, paimon_error *err)
{
    paimon_list *l = NULL;
    cli_table *tab;
    int rc = paimon_table_health(t, &l, err);
    if (rc != 0)
        return rc;
    if (jsonl) {
        for (size_t i = 0; i < paimon_list_count(l); i++) {
            const paimon_health_item *h = paimon_list_health(l, i);
            printf("{\"check\":\"%s\",\"severity\":\"%s\",\"partition\":%s,\"bucket\":", h->check,
                   h->severity, h->partition != NULL ? h->partition : "null");
            json_i64_or_null(stdout, h->bucket, h->bucket != PAIMON_ABSENT_INT);
            fputs(",\"subject\":", stdout);
            json_str_or_null(stdout, h->subject);
            printf(",\"value\":%" PRId64 ",\"limit\":%" PRId64 ",\"message\":", h->value, h->limit);
            cli_json_string(stdout, h->message);
            fputs(",\"fix\":", stdout);
            cli_json_string(stdout, h->fix);
            fputs("}\n", stdout);
        }
        paimon_list_free(l);
        return 0;
    }
    if (paimon_list_count(l) == 0) {
        printf("healthy: nothing to act on in %s\n", paimon_table_path(t));
        paimon_list_free(l);
        return 0;
    }
    tab = cli_table_new(4);
    cli_table_add(tab, (const char *[]){"severity", "check", "finding", "fix"});
    for (size_t i = 0; i < paimon_list_count(l); i++) {
        const paimon_health_item *h = paimon_list_health(l, i);
        cli_table_add(tab, (const char *[]){h->severity, h->check, h->message, h->fix});
    }
    cli_table_print(tab, stdout);
    cli_table_free(tab);
    paimon_list_free(l);
    return 0;
}

static int view_summary(paimon_table *t, bool jsonl, paimon_error *err)
{
    paimon_list *schemas = NULL, *snaps = NULL, *files = NULL;
    const paimon_schema_info *s;
    int rc;
    if ((rc = paimon_table_schemas(t, &schemas, err)) != 0 ||
        (rc = paimon_table_snapshots(t, &snaps, err)) != 0)
        goto done;
    if (paimon_list_count(snaps) > 0 &&
        (rc = paimon_table_files(t, PAIMON_LATEST_SNAPSHOT, &files, err)) != 0)
        goto done;
    s = paimon_list_schema(schemas, paimon_list_count(schemas) - 1);
    if (jsonl) {
        fputs("{\"table\":", stdout);
        cli_json_string(stdout, paimon_table_path(t));
        printf(",\"schema\":%s,\"snapshots\":%zu,\"latest_snapshot\":", s->json,
               paimon_list_count(snaps));
        if (paimon_list_count(snaps) > 0 &&
            paimon_list_snapshot(snaps, paimon_list_count(snaps) - 1)->json != NULL)
            printf("%s", paimon_list_snapshot(snaps, paimon_list_count(snaps) - 1)->json);
        else
            fputs("null", stdout);
        printf(",\"live_files\":%zu}\n", paimon_list_count(files));
        goto done;
    }
    printf("table       %s\n", paimon_table_path(t));
    printf("schema      %" PRId64 " (%zu columns): %s\n", s->id, s->field_count, s->columns);
    printf("partitions  %s\n", s->partition_keys[0] ? s->partition_keys : "-");
    printf("primary key %s\n", s->primary_keys[0] ? s->primary_keys : "-");
    printf("options     %zu (paimon inspect %s options)\n", s->option_count, paimon_table_path(t));
    if (paimon_list_count(snaps) == 0) {
        printf("snapshots   none yet\n");
    } else {
        const paimon_snapshot_info *latest =
            paimon_list_snapshot(snaps, paimon_list_count(snaps) - 1);
        int64_t rows = 0, bytes = 0;
        char when[40];
        for (size_t i = 0; i < paimon_list_count(files); i++) {
            rows += paimon_list_file(files, i)->row_count;
            bytes += paimon_list_file(files, i)->file_size;
        }
        cli_format_millis(when, sizeof(when), latest->time_millis);
        size_t bad = 0;
        for (size_t i = 0; i < paimon_list_count(snaps); i++)
            bad += paimon_list_snapshot(snaps, i)->unreadable != NULL;
        printf("snapshots   %zu (%" PRId64 "..%" PRId64 "); latest %s at %s UTC\n",
               paimon_list_count(snaps), paimon_list_snapshot(snaps, 0)->id, latest->id,
               latest->commit_kind, when);
        if (bad > 0)
            printf("            %zu unreadable (paimon inspect %s snapshots)\n", bad,
                   paimon_table_path(t));
        printf("live files  %zu, %" PRId64 " rows, %" PRId64 " bytes\n", paimon_list_count(files),
               rows, bytes);
    }
done:
    paimon_list_free(schemas);
    paimon_list_free(snaps);
    paimon_list_free(files);
    return rc;
}

int cli_cmd_inspect(int argc, char **argv)
{
    static const char *const views[] = {"summary", "snapshots", "schemas",   "manifests", "files",
                                        "options", "tags",      "consumers", "health"};
    cli_args a;
    paimon_table *t = NULL;
    paimon_error err = {0, {0}};
    const char *view = "summary", *format;
    long long snapshot = PAIMON_LATEST_SNAPSHOT;
    bool jsonl = false, known = false;
    int rc = cli_parse_table_command("inspect", USAGE, argc, argv, OPTIONS, 2, &a);

    if (rc != CLI_EXIT_OK)
        return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    if (a.positional_count == 2)
        view = a.positional[1];
    for (size_t i = 0; i < sizeof(views) / sizeof(views[0]); i++)
        known |= strcmp(view, views[i]) == 0;
    if (!known)
        return cli_usage_error("inspect", "unknown view '%s'", view);
    format = cli_get(&a, "format");
    if (format != NULL) {
        if (strcmp(format, "jsonl") == 0)
            jsonl = true;
        else if (strcmp(format, "table") != 0)
            return cli_usage_error("inspect", "--format must be table or jsonl, not '%s'", format);
    }
    if (cli_get(&a, "snapshot") != NULL) {
        if (cli_parse_i64("inspect", "snapshot", cli_get(&a, "snapshot"), &snapshot) != 0)
            return CLI_EXIT_USAGE;
        if (snapshot < 1)
            return cli_usage_error("inspect", "--snapshot must be a positive id");
    }

    if (cli_get(&a, "html") != NULL && a.positional_count == 2)
        return cli_usage_error("inspect", "--html draws the whole table: give no view");
    if (cli_get(&a, "html") != NULL && cli_get(&a, "snapshot") != NULL)
        return cli_usage_error("inspect", "--html reports the latest snapshot: drop --snapshot");
    if (cli_get(&a, "html") != NULL && cli_get(&a, "html")[0] == '\0')
        return cli_usage_error("inspect", "--html wants a file name or -");

    if ((rc = paimon_table_open(&t, a.positional[0], &err)) != 0)
        return cli_fail(&err, false);
    if (cli_get(&a, "html") != NULL)
        rc = html_report_write(t, cli_get(&a, "html"), &err);
    else if (strcmp(view, "snapshots") == 0)
        rc = view_snapshots(t, jsonl, &err);
    else if (strcmp(view, "schemas") == 0)
        rc = view_schemas(t, jsonl, &err);
    else if (strcmp(view, "options") == 0)
        rc = view_options(t, snapshot, jsonl, &err);
    else if (strcmp(view, "manifests") == 0)
        rc = view_manifests(t, snapshot, jsonl, &err);
    else if (strcmp(view, "files") == 0)
        rc = view_files(t, snapshot, jsonl, &err);
    else if (strcmp(view, "tags") == 0)
        rc = cli_print_tags(t, jsonl, &err);
    else if (strcmp(view, "consumers") == 0)
        rc = cli_consumers_print(t, jsonl, &err);
    else if (strcmp(view, "health") == 0)
        rc = view_health(t, jsonl, &err);
    else
        rc = view_summary(t, jsonl, &err);
    paimon_table_free(t);
    return cli_flush_output("inspect", rc != 0 ? cli_fail(&err, false) : CLI_EXIT_OK);
}
