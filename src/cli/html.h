/*
 * `paimon inspect TABLE --html FILE|-` (issue 18): one self-contained HTML page of a table,
 * inline SVG and CSS only (no script, nothing fetched), so it reads offline and as an
 * e-mail attachment.  html_report.c gathers the facts through the public API
 * (include/paimon/inspect.h) and writes the page; html_svg.c draws the diagrams.
 *
 * What a test can count: every data file drawn on its own is an SVG
 * `<rect class="file" data-bucket=B data-level=L>` whose `<title>` reads
 * "NAME level L, R rows, SIZE"; files aggregated into a band (a level of a bucket holding
 * more than HTML_BAND_FILES files, or every level with several files once the table holds
 * more than HTML_MAX_FILE_BOXES files) are one `<rect class="band" data-files=N>`.  Each
 * bucket diagram is a `<figure class="bucket" data-bucket=B data-runs=R data-files=N>`;
 * each snapshot of the timeline a `<rect class="commit" data-snapshot=ID data-kind=KIND>`.
 */
#ifndef PM_CLI_HTML_H
#define PM_CLI_HTML_H

#include <stdio.h>

#include "paimon.h"

#define HTML_BAND_FILES      40    /* a bucket's level with more files is drawn as one band */
#define HTML_MAX_FILE_BOXES  20000 /* above this many files, every level is a band */
#define HTML_MAX_BUCKETS     2000  /* bucket diagrams drawn; the rest are summed up */
#define HTML_MAX_COMMIT_BARS 600   /* snapshots beyond this are grouped into bars */

/* The facts of one report, gathered once (html_report.c). */
typedef struct html_facts {
    paimon_table *table;
    paimon_health_limits limits;
    paimon_list *commits, *schemas, *options, *files, *buckets, *dvs, *tags, *health;
    paimon_consumer_info *consumers;
    size_t consumer_count;
    struct html_dv *dv_index; /* sorted by data file name */
    size_t dv_count;
} html_facts;

/* Writes `s` with & < > " ' escaped. */
void html_text(FILE *out, const char *s);
/* "1.5 KiB", "12 MiB", "830 B" */
void html_bytes(char *buf, size_t len, int64_t bytes);
/* The rows a deletion vector marks deleted in data file `name`; 0 when none. */
int64_t html_dv_rows(const html_facts *f, const char *name);

/* html_svg.c: the LSM of every bucket, the snapshot timeline, the file-size histogram. */
void html_svg_defs(FILE *out);
void html_svg_buckets(FILE *out, const html_facts *f);
void html_svg_timeline(FILE *out, const html_facts *f);
void html_svg_sizes(FILE *out, const html_facts *f);

/* The whole page to `path` ("-": stdout).  0, or the library's error code in `err`
 * (an output that cannot be written: PAIMON_EIO naming it). */
int html_report_write(paimon_table *t, const char *path, paimon_error *err);

#endif /* PM_CLI_HTML_H */
