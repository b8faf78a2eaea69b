/*
 * The diagrams of the HTML report (html.h): inline SVG, sized in pixels, styled by the
 * page's CSS classes.
 *
 * The LSM of a bucket: one row per level (0 to num-levels - 1, or the highest level that
 * holds a file), each data file a box whose width is proportional to its bytes.  Level-0
 * files are sorted runs of their own and stand apart; the files of a level above 0 form one
 * run, drawn touching inside one outline.  The share of a file's rows a deletion vector
 * marks deleted is hatched over its box.  Widths share one scale per bucket, so the levels
 * of a bucket compare at a glance.
 *
 * The timeline: one bar per snapshot (grouped when there are more than
 * HTML_MAX_COMMIT_BARS), rows added upwards in the colour of the commit kind, rows deleted
 * downwards; the snapshots beyond retention shaded, tags marked above and consumers below.
 *
 * The file sizes: a histogram over powers of two, with the small-file threshold and
 * target-file-size marked.
 */
#include <inttypes.h>
#include <string.h>

#include "cli.h"
#include "html.h"

#define WIDTH      900.0
#define LABEL_W    44.0
#define ROW_H      15.0
#define BOX_H      11.0
#define MIN_BOX_W  1.5
#define L0_GAP     3.0
#define RUN_GAP    1.0
#define MAX_LEVELS 64

/* levels from cool (fresh, level 0) to warm (old, compacted): a palette of its own, apart
 * from the commit kinds of the timeline */
static const char *const LEVEL_FILL[] = {"#3b7dd8", "#3f9fa8", "#4fb07a", "#8db85a",
                                         "#c7b948", "#d99a3e", "#cf6f45", "#b04f5a"};

void html_svg_defs(FILE *out)
{
    /* one pattern for the whole page: the hatching of rows deleted by deletion vectors */
    fputs("<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\">"
          "<defs><pattern id=\"hatch\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\" "
          "patternTransform=\"rotate(45)\"><rect width=\"2\" height=\"4\" fill=\"#c03030\"/>"
          "</pattern></defs></svg>\n",
          out);
}

static const char *level_fill(int32_t level)
{
    return LEVEL_FILL[(level < 0 ? 0 : level) % (int)(sizeof(LEVEL_FILL) / sizeof(LEVEL_FILL[0]))];
}

/* ---- the LSM of one bucket ---------------------------------------------------------------- */

typedef struct level_sum {
    size_t first, count; /* files[first .. first + count) */
    int64_t bytes, rows;
} level_sum;

static void draw_file(FILE *out, const html_facts *f, const paimon_file_info *fi, double x,
                      double y, double w)
{
    char size[32];
    int64_t dv = html_dv_rows(f, fi->file_name);
    html_bytes(size, sizeof(size), fi->file_size);
    fprintf(out,
            "<rect class=\"file\" data-bucket=\"%d\" data-level=\"%d\" x=\"%.1f\" y=\"%.1f\" "
            "width=\"%.1f\" height=\"%.0f\" fill=\"%s\"><title>",
            fi->bucket, fi->level, x, y, w, BOX_H, level_fill(fi->level));
    html_text(out, fi->file_name);
    fprintf(out, " level %d, %" PRId64 " rows, %s", fi->level, fi->row_count, size);
    if (dv > 0)
        fprintf(out, ", %" PRId64 " rows deleted (%.0f%%)", dv,
                fi->row_count > 0 ? 100.0 * (double)dv / (double)fi->row_count : 0.0);
    fputs("</title></rect>", out);
    if (dv > 0 && fi->row_count > 0) {
        double share = (double)dv / (double)fi->row_count;
        fprintf(out,
                "<rect class=\"dv\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.0f\" "
                "fill=\"url(#hatch)\"/>",
                x, y, w * (share > 1 ? 1 : share), BOX_H);
    }
    fputc('\n', out);
}

static void draw_bucket(FILE *out, const html_facts *f, const paimon_bucket_info *b, size_t first,
                        size_t end, bool band_all)
{
    level_sum lv[MAX_LEVELS];
    int32_t nlevels = f->limits.primary_key ? f->limits.num_levels : 1;
    double avail = WIDTH - LABEL_W - 8, scale = 0, height;
    char size[32];

    memset(lv, 0, sizeof(lv));
    if (b->max_level + 1 > nlevels)
        nlevels = b->max_level + 1;
    if (nlevels > MAX_LEVELS)
        nlevels = MAX_LEVELS;
    for (size_t i = first; i < end; i++) {
        const paimon_file_info *fi = paimon_list_file(f->files, i);
        int32_t l = fi->level < 0 ? 0 : fi->level >= MAX_LEVELS ? MAX_LEVELS - 1 : fi->level;
        if (lv[l].count++ == 0)
            lv[l].first = i;
        lv[l].bytes += fi->file_size;
        lv[l].rows += fi->row_count;
    }
    /* one scale for the bucket: the fullest level fits the width */
    for (int32_t l = 0; l < nlevels; l++) {
        bool band = lv[l].count > HTML_BAND_FILES || (band_all && lv[l].count > 1);
        size_t boxes = band ? 1 : lv[l].count;
        double room = avail - (double)(boxes > 0 ? boxes - 1 : 0) * (l == 0 ? L0_GAP : RUN_GAP) -
                      (double)boxes * MIN_BOX_W;
        double s;
        if (lv[l].bytes <= 0)
            continue;
        s = (room > 1 ? room : 1) / (double)lv[l].bytes;
        if (scale == 0 || s < scale)
            scale = s;
    }
    height = ROW_H * nlevels + 6;
    html_bytes(size, sizeof(size), b->file_size);
    fprintf(out,
            "<figure class=\"bucket\" data-bucket=\"%d\" data-runs=\"%" PRId64
            "\" data-files=\"%" PRId64 "\"><figcaption>bucket %d: %" PRId64 " files, %" PRId64
            " rows, %s, <b>%" PRId64 " sorted run%s</b>",
            b->bucket, b->sorted_runs, b->file_count, b->bucket, b->file_count, b->row_count, size,
            b->sorted_runs, b->sorted_runs == 1 ? "" : "s");
    if (b->deleted_rows > 0)
        fprintf(out, ", %" PRId64 " rows deleted by deletion vectors", b->deleted_rows);
    fprintf(out,
            "</figcaption>\n<svg width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            "role=\"img\">\n",
            WIDTH, height, WIDTH, height);
    for (int32_t l = 0; l < nlevels; l++) {
        double y = 3 + ROW_H * l, x = LABEL_W;
        bool band = lv[l].count > HTML_BAND_FILES || (band_all && lv[l].count > 1);
        fprintf(out, "<text class=\"lvl\" x=\"4\" y=\"%.1f\">L%d</text>", y + BOX_H - 1, l);
        fprintf(out, "<line class=\"lane\" x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\"/>\n",
                LABEL_W, y + BOX_H / 2, WIDTH - 4, y + BOX_H / 2);
        if (lv[l].count == 0)
            continue;
        if (band) {
            double w = (double)lv[l].bytes * scale;
            html_bytes(size, sizeof(size), lv[l].bytes);
            fprintf(out,
                    "<rect class=\"band\" data-bucket=\"%d\" data-level=\"%d\" data-files=\"%zu\" "
                    "x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.0f\" fill=\"%s\"><title>%zu "
                    "files at level %d (drawn as one band), %" PRId64 " rows, %s</title></rect>"
                    "<text class=\"bandlabel\" x=\"%.1f\" y=\"%.1f\">%zu files</text>\n",
                    b->bucket, l, lv[l].count, x, y, w < 24 ? 24 : w, BOX_H, level_fill(l),
                    lv[l].count, l, lv[l].rows, size, x + 3, y + BOX_H - 1.5, lv[l].count);
            continue;
        }
        if (l > 0 && f->limits.primary_key) {
            /* the level is one sorted run: its files touch inside one outline */
            double w = (double)lv[l].bytes * scale + (double)lv[l].count * MIN_BOX_W +
                       (double)(lv[l].count - 1) * RUN_GAP;
            fprintf(out,
                    "<rect class=\"run\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.0f\"/>",
                    x - 1.5, y - 1.5, w + 3, BOX_H + 3);
        }
        for (size_t k = 0; k < lv[l].count; k++) {
            /* the files of a level are consecutive in the sorted list */
            const paimon_file_info *fi = paimon_list_file(f->files, lv[l].first + k);
            double w = (double)fi->file_size * scale + MIN_BOX_W;
            draw_file(out, f, fi, x, y, w);
            x += w + (l == 0 || !f->limits.primary_key ? L0_GAP : RUN_GAP);
        }
    }
    fputs("</svg></figure>\n", out);
}

void html_svg_buckets(FILE *out, const html_facts *f)
{
    size_t nf = paimon_list_count(f->files), nb = paimon_list_count(f->buckets), fi = 0;
    bool band_all = nf > HTML_MAX_FILE_BOXES;
    const char *part = NULL;
    int64_t skipped_files = 0;

    for (size_t i = 0; i < nb; i++) {
        const paimon_bucket_info *b = paimon_list_bucket(f->buckets, i);
        size_t first = fi;
        /* buckets and files share one order: partition, bucket, level, name */
        while (fi < nf && paimon_list_file(f->files, fi)->bucket == b->bucket &&
               strcmp(paimon_list_file(f->files, fi)->partition, b->partition) == 0)
            fi++;
        if (i >= HTML_MAX_BUCKETS) {
            skipped_files += b->file_count;
            continue;
        }
        if (part == NULL || strcmp(part, b->partition) != 0) {
            if (part != NULL)
                fputs("</section>\n", out);
            part = b->partition;
            fputs("<section class=\"partition\" data-partition=\"", out);
            html_text(out, part);
            fputs("\"><h3>", out);
            html_text(out, strcmp(part, "{}") == 0 ? "(unpartitioned)" : part);
            fputs("</h3>\n", out);
        }
        draw_bucket(out, f, b, first, fi, band_all);
    }
    if (part != NULL)
        fputs("</section>\n", out);
    if (nb > HTML_MAX_BUCKETS)
        fprintf(out,
                "<p class=\"note\">%zu more buckets (%" PRId64
                " files) are not drawn; the read amplification table lists them all.</p>\n",
                nb - HTML_MAX_BUCKETS, skipped_files);
}

/* ---- the snapshot timeline ---------------------------------------------------------------- */

static const char *kind_fill(const char *kind)
{
    if (kind == NULL)
        return "#bbbbbb";
    if (strcmp(kind, "APPEND") == 0)
        return "#4878d0";
    if (strcmp(kind, "COMPACT") == 0)
        return "#ee854a";
    if (strcmp(kind, "OVERWRITE") == 0)
        return "#956cb4";
    return "#8c8c8c";
}

/* The bar (index) holding snapshot `id`, or -1. */
static long bar_of(const html_facts *f, int64_t id, size_t group)
{
    size_t lo = 0, hi = paimon_list_count(f->commits);
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int64_t m = paimon_list_commit(f->commits, mid)->snapshot_id;
        if (m == id)
            return (long)(mid / group);
        if (m < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

void html_svg_timeline(FILE *out, const html_facts *f)
{
    size_t n = paimon_list_count(f->commits), group, bars;
    double bw, up = 80, down = 50, axis, x0 = LABEL_W, h;
    int64_t maxv = 1;
    char t0[40], t1[40];

    if (n == 0) {
        fputs("<p class=\"note\">No snapshots yet.</p>\n", out);
        return;
    }
    group = (n + HTML_MAX_COMMIT_BARS - 1) / HTML_MAX_COMMIT_BARS;
    bars = (n + group - 1) / group;
    bw = (WIDTH - x0 - 8) / (double)bars;
    if (bw > 24)
        bw = 24;
    for (size_t b = 0; b < bars; b++) {
        int64_t add = 0, del = 0;
        for (size_t i = b * group; i < n && i < (b + 1) * group; i++) {
            add += paimon_list_commit(f->commits, i)->rows_added;
            del += paimon_list_commit(f->commits, i)->rows_deleted;
        }
        if (add > maxv)
            maxv = add;
        if (del > maxv)
            maxv = del;
    }
    axis = 20 + up;
    h = axis + down + 34;
    fprintf(out,
            "<svg class=\"timeline\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            "role=\"img\">\n",
            WIDTH, h, WIDTH, h);
    /* the snapshots beyond retention, shaded */
    if (f->limits.expire_before > 0) {
        long last = bar_of(f, f->limits.expire_before - 1, group);
        if (last >= 0)
            fprintf(out,
                    "<rect class=\"expirable\" x=\"%.1f\" y=\"14\" width=\"%.1f\" "
                    "height=\"%.0f\"><title>snapshots before %" PRId64
                    " are beyond retention (paimon expire removes them)</title></rect>\n",
                    x0, bw * (double)(last + 1), up + down + 12, f->limits.expire_before);
    }
    fprintf(out, "<line class=\"axis\" x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\"/>\n", x0,
            axis, WIDTH - 4, axis);
    fprintf(out,
            "<text class=\"lvl\" x=\"2\" y=\"%.0f\">added</text><text class=\"lvl\" x=\"2\" "
            "y=\"%.0f\">deleted</text>\n",
            axis - 4, axis + 12);
    for (size_t b = 0; b < bars; b++) {
        size_t i0 = b * group, i1 = (b + 1) * group < n ? (b + 1) * group : n;
        const paimon_commit_info *c = paimon_list_commit(f->commits, i0);
        int64_t add = 0, del = 0, fa = 0, fd = 0, cl = 0;
        double x = x0 + bw * (double)b, ha, hd, w = bw > 2 ? bw - 1 : bw;
        char when[40];
        for (size_t i = i0; i < i1; i++) {
            const paimon_commit_info *ci = paimon_list_commit(f->commits, i);
            add += ci->rows_added;
            del += ci->rows_deleted;
            fa += ci->files_added;
            fd += ci->files_deleted;
            cl += ci->changelog_rows;
        }
        ha = up * (double)add / (double)maxv;
        hd = down * (double)del / (double)maxv;
        if (group == 1) {
            /* commitKind is the snapshot file's text, kept as written when it is no kind
             * paimon knows: escaped like every other name from the table */
            fprintf(out, "<rect class=\"commit\" data-snapshot=\"%" PRId64 "\" data-kind=\"",
                    c->snapshot_id);
            html_text(out, c->unreadable != NULL ? "UNREADABLE" : c->commit_kind);
            fprintf(out,
                    "\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>",
                    x, axis - (ha < 2 ? 2 : ha), w, ha < 2 ? 2 : ha,
                    kind_fill(c->unreadable != NULL ? NULL : c->commit_kind));
            if (c->unreadable != NULL) {
                fprintf(out, "snapshot %" PRId64 " unreadable: ", c->snapshot_id);
                html_text(out, c->unreadable);
            } else {
                cli_format_millis(when, sizeof(when), c->time_millis);
                fprintf(out, "snapshot %" PRId64 " ", c->snapshot_id);
                html_text(out, c->commit_kind);
                fprintf(out,
                        " at %s UTC: +%" PRId64 " rows, -%" PRId64 " rows; files +%" PRId64
                        " -%" PRId64 "; changelog %" PRId64 " rows",
                        when, add, del, fa, fd, cl);
            }
            fputs("</title></rect>", out);
        } else {
            fprintf(out,
                    "<rect class=\"commit-band\" data-first=\"%" PRId64 "\" data-last=\"%" PRId64
                    "\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                    "<title>snapshots %" PRId64 "..%" PRId64 " (grouped): +%" PRId64
                    " rows, -%" PRId64 " rows; files +%" PRId64 " -%" PRId64 "</title></rect>",
                    c->snapshot_id, paimon_list_commit(f->commits, i1 - 1)->snapshot_id, x,
                    axis - (ha < 2 ? 2 : ha), w, ha < 2 ? 2 : ha, kind_fill(c->commit_kind),
                    c->snapshot_id, paimon_list_commit(f->commits, i1 - 1)->snapshot_id, add, del,
                    fa, fd);
        }
        if (hd > 0)
            fprintf(
                out,
                "<rect class=\"deleted\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>", x,
                axis + 1, w, hd);
        fputc('\n', out);
    }
    for (size_t i = 0; i < paimon_list_count(f->tags); i++) {
        const paimon_tag_info *tag = paimon_list_tag(f->tags, i);
        long b = bar_of(f, tag->snapshot_id, group);
        double x;
        if (b < 0)
            continue;
        x = x0 + bw * ((double)b + 0.5);
        fprintf(out, "<path class=\"tag\" d=\"M%.1f 12 l-5 -9 h10 z\"><title>tag ", x);
        html_text(out, tag->name);
        fprintf(out, " on snapshot %" PRId64 "</title></path>\n", tag->snapshot_id);
    }
    for (size_t i = 0; i < f->consumer_count; i++) {
        const paimon_consumer_info *c = &f->consumers[i];
        long b = bar_of(f, c->next_snapshot, group);
        double x;
        if (b < 0)
            b = c->next_snapshot > paimon_list_commit(f->commits, n - 1)->snapshot_id
                    ? (long)bars - 1
                    : 0;
        x = x0 + bw * ((double)b + 0.5);
        fprintf(out, "<path class=\"consumer\" d=\"M%.1f %.0f l-5 9 h10 z\"><title>consumer ", x,
                axis + down + 4);
        html_text(out, c->id);
        fprintf(out, " reads snapshot %" PRId64 " next</title></path>\n", c->next_snapshot);
    }
    cli_format_millis(t0, sizeof(t0), paimon_list_commit(f->commits, 0)->time_millis);
    cli_format_millis(t1, sizeof(t1), paimon_list_commit(f->commits, n - 1)->time_millis);
    fprintf(out,
            "<text class=\"lvl\" x=\"%.0f\" y=\"%.0f\">snapshot %" PRId64 " &#183; %s</text>"
            "<text class=\"lvl\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">snapshot %" PRId64
            " &#183; %s</text>\n</svg>\n",
            x0, h - 4, paimon_list_commit(f->commits, 0)->snapshot_id, t0, WIDTH - 4, h - 4,
            paimon_list_commit(f->commits, n - 1)->snapshot_id, t1);
}

/* ---- the file sizes ----------------------------------------------------------------------- */

static int log2_floor(int64_t v)
{
    int k = 0;
    while (v > 1 && k < 62) {
        v >>= 1;
        k++;
    }
    return k;
}

/* log2(v), linear within each power of two: where `v` stands on the histogram's axis */
static double log2_pos(int64_t v)
{
    int k = log2_floor(v);
    double p = (double)((int64_t)1 << k);
    return k + ((double)v - p) / p;
}

void html_svg_sizes(FILE *out, const html_facts *f)
{
    size_t n = paimon_list_count(f->files), counts[64], maxc = 1;
    int lo = 62, hi = 0, small_k = log2_floor(f->limits.small_file_size),
        target_k = log2_floor(f->limits.target_file_size);
    double bw, x0 = LABEL_W, base = 130;
    char a[32], b[32];

    if (n == 0) {
        fputs("<p class=\"note\">No live data files.</p>\n", out);
        return;
    }
    memset(counts, 0, sizeof(counts));
    for (size_t i = 0; i < n; i++) {
        int k = log2_floor(paimon_list_file(f->files, i)->file_size);
        counts[k]++;
        if (k < lo)
            lo = k;
        if (k > hi)
            hi = k;
    }
    if (target_k > hi)
        hi = target_k;
    if (small_k < lo)
        lo = small_k;
    for (int k = lo; k <= hi; k++)
        if (counts[k] > maxc)
            maxc = counts[k];
    bw = (WIDTH - x0 - 8) / (double)(hi - lo + 1);
    fprintf(out,
            "<svg class=\"sizes\" width=\"%.0f\" height=\"170\" viewBox=\"0 0 %.0f 170\" "
            "role=\"img\">\n",
            WIDTH, WIDTH);
    for (int k = lo; k <= hi; k++) {
        double hgt = 110.0 * (double)counts[k] / (double)maxc, x = x0 + bw * (k - lo);
        html_bytes(a, sizeof(a), (int64_t)1 << k);
        html_bytes(b, sizeof(b), (int64_t)1 << (k + 1));
        fprintf(out,
                "<rect class=\"sizebin\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                "fill=\"%s\"><title>%zu files of %s to %s</title></rect>",
                x, base - hgt, bw - 2, hgt, k <= small_k ? "#d5bb67" : "#6acc64", counts[k], a, b);
        if ((k - lo) % 2 == 0)
            fprintf(out, "<text class=\"lvl\" x=\"%.1f\" y=\"%.0f\">%s</text>", x, base + 14, a);
        fputc('\n', out);
    }
    html_bytes(a, sizeof(a), f->limits.small_file_size);
    html_bytes(b, sizeof(b), f->limits.target_file_size);
    {
        double xs = x0 + bw * (log2_pos(f->limits.small_file_size) - lo);
        double xt = x0 + bw * (log2_pos(f->limits.target_file_size) - lo);
        fprintf(out,
                "<line class=\"limit\" x1=\"%.1f\" y1=\"10\" x2=\"%.1f\" y2=\"%.0f\"/>"
                "<text class=\"lvl\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"end\">small &lt; %s"
                "</text>\n",
                xs, xs, base, xs - 2, base + 28, a);
        fprintf(out,
                "<line class=\"target\" x1=\"%.1f\" y1=\"10\" x2=\"%.1f\" y2=\"%.0f\"/>"
                "<text class=\"lvl\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"end\">target-file-size %s"
                "</text>\n",
                xt, xt, base, xt - 3, 20.0, b);
    }
    fputs("</svg>\n", out);
}
