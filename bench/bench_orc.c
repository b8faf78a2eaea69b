/*
 * ORC scan and write throughput beside paimon-c's Parquet, one thread, same process, runs
 * interleaved (docs/PERFORMANCE.md, "ORC"; bench/orc.sh makes the input and runs it).
 *
 *   bench_orc IN.parquet DIR [RUNS]
 *
 * Reads the rows of IN (not timed) into memory as batches of 4,096 rows, the batches a
 * table writer hands over.  Then RUNS times, alternating the formats:
 *   write  the rows to DIR/paimon.parquet (Parquet writer, Java Paimon's defaults) and to
 *          DIR/paimon.orc (ORC writer, Java Paimon's defaults: ZSTD level 1, RLE v2,
 *          dictionary when it pays, 64 MiB stripes, row indexes every 10,000 rows);
 *   scan   every column of every row of each file into batches: Parquet through its
 *          reader, ORC through the data-file interface a table read uses (format_orc.c),
 *          with the written row type.
 * Prints one line per run and the medians, rows/s and the ratios ORC / Parquet of rows/s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "format/data_file.h"
#include "format/orc/orc_format.h"
#include "format/parquet/reader.h"
#include "format/parquet/writer.h"
#include "io/fs.h"
#include "util/alloc.h"

#define MAX_RUNS 32

static int die(const paimon_error *err)
{
    fprintf(stderr, "bench_orc: %s\n", err->message);
    return 1;
}

static int scan_parquet(pm_fs *fs, const char *path, int64_t *rows, paimon_error *err)
{
    pm_input *in;
    pm_pq_reader *r;
    pm_batch *b;
    int rc;
    *rows = 0;
    if ((rc = fs->open(fs, path, &in, err)) != 0 ||
        (rc = pm_pq_reader_open(&r, in, path, err)) != 0)
        return rc;
    while ((rc = pm_pq_reader_next(r, &b, err)) == 0) {
        *rows += b->row_count;
        pm_batch_free(b);
    }
    pm_pq_reader_free(r);
    return rc == PAIMON_ITEROVER ? 0 : rc;
}

/* Through the data-file interface with the written row type as the read type, as a table
 * read does (a bare ORC timestamp would otherwise read as TIMESTAMP(9)). */
static int scan_orc(pm_fs *fs, const char *path, const pm_type *type, int64_t *rows,
                    paimon_error *err)
{
    pm_data_file *f;
    pm_batch *b;
    pm_read_options o;
    int rc;
    *rows = 0;
    memset(&o, 0, sizeof(o));
    o.read_type = type;
    if ((rc = pm_data_file_open(&f, fs, path, err)) != 0)
        return rc;
    if ((rc = f->format->start(f->impl, &o, err)) == 0) {
        while ((rc = f->format->next(f->impl, &b, err)) == 0) {
            *rows += b->row_count;
            pm_batch_free(b);
        }
    }
    pm_data_file_free(f);
    return rc == PAIMON_ITEROVER ? 0 : rc;
}

static int write_parquet(pm_fs *fs, const char *path, const pm_type *type, pm_batch **batches,
                         size_t count, uint64_t *bytes, paimon_error *err)
{
    pm_output *out;
    pm_pq_writer *w;
    int rc;
    remove(path);
    if ((rc = fs->create(fs, path, &out, err)) != 0 ||
        (rc = pm_pq_writer_open(&w, out, type, NULL, err)) != 0)
        return rc;
    for (size_t k = 0; k < count; k++)
        if ((rc = pm_pq_writer_write(w, batches[k], err)) != 0)
            return rc;
    return pm_pq_writer_close(w, bytes, err);
}

static int write_orc(pm_fs *fs, const char *path, const pm_type *type, pm_batch **batches,
                     size_t count, uint64_t *bytes, paimon_error *err)
{
    pm_output *out;
    pm_orc_file_writer *w;
    int rc;
    remove(path);
    if ((rc = fs->create(fs, path, &out, err)) != 0 ||
        (rc = pm_orc_file_writer_open(&w, out, type, NULL, err)) != 0)
        return rc;
    for (size_t k = 0; k < count; k++)
        if ((rc = pm_orc_file_writer_write(w, batches[k], err)) != 0) {
            pm_orc_file_writer_abort(w);
            return rc;
        }
    return pm_orc_file_writer_close(w, bytes, err);
}

static void report(const char *what, double *pq, double *orc, int runs, int64_t rows)
{
    double mp = bench_median(pq, (size_t)runs), mo = bench_median(orc, (size_t)runs);
    printf("%-6s median s: parquet %.3f orc %.3f | rows/s: parquet %.0f orc %.0f | "
           "ratio orc/parquet %.2f\n",
           what, mp, mo, (double)rows / mp, (double)rows / mo, mp / mo);
}

int main(int argc, char **argv)
{
    paimon_error err = {0};
    pm_fs *fs = pm_fs_local_new(false);
    double wp[MAX_RUNS], wo[MAX_RUNS], sp[MAX_RUNS], so[MAX_RUNS];
    char pq_path[4096], orc_path[4096];
    pm_batch **batches = NULL;
    size_t count = 0, cap = 0;
    pm_input *in;
    pm_pq_reader *r;
    pm_pq_read_options ro = {0};
    pm_batch *b;
    const pm_type *type;
    int64_t rows = 0;
    int runs, rc;

    if (argc < 3) {
        fprintf(stderr, "usage: bench_orc IN.parquet DIR [RUNS]\n");
        return 2;
    }
    runs = argc > 3 ? atoi(argv[3]) : 5;
    if (runs < 1 || runs > MAX_RUNS)
        runs = 5;
    snprintf(pq_path, sizeof(pq_path), "%s/paimon.parquet", argv[2]);
    snprintf(orc_path, sizeof(orc_path), "%s/paimon.orc", argv[2]);

    if (fs->open(fs, argv[1], &in, &err) != 0 || pm_pq_reader_open(&r, in, argv[1], &err) != 0)
        return die(&err);
    ro.batch_rows = 4096;
    if (pm_pq_reader_start(r, &ro, &err) != 0)
        return die(&err);
    while ((rc = pm_pq_reader_next(r, &b, &err)) == 0) {
        if (count == cap) {
            cap = cap ? cap * 2 : 1024;
            batches = realloc(batches, cap * sizeof(*batches));
            if (batches == NULL)
                return 1;
        }
        batches[count++] = b;
        rows += b->row_count;
    }
    if (rc != PAIMON_ITEROVER)
        return die(&err);
    type = pm_pq_reader_type(r);

    for (int i = 0; i < runs; i++) {
        uint64_t bp = 0, bo = 0;
        int64_t np = 0, no = 0;
        double t0 = bench_now();
        if (write_parquet(fs, pq_path, type, batches, count, &bp, &err) != 0)
            return die(&err);
        wp[i] = bench_now() - t0;
        t0 = bench_now();
        if (write_orc(fs, orc_path, type, batches, count, &bo, &err) != 0)
            return die(&err);
        wo[i] = bench_now() - t0;
        t0 = bench_now();
        if (scan_parquet(fs, pq_path, &np, &err) != 0)
            return die(&err);
        sp[i] = bench_now() - t0;
        t0 = bench_now();
        if (scan_orc(fs, orc_path, type, &no, &err) != 0)
            return die(&err);
        so[i] = bench_now() - t0;
        if (np != rows || no != rows) {
            fprintf(stderr, "bench_orc: scanned %lld / %lld rows of %lld\n", (long long)np,
                    (long long)no, (long long)rows);
            return 1;
        }
        printf("run %d: write parquet %.3f s (%llu bytes) orc %.3f s (%llu bytes); "
               "scan parquet %.3f s orc %.3f s\n",
               i + 1, wp[i], (unsigned long long)bp, wo[i], (unsigned long long)bo, sp[i], so[i]);
        fflush(stdout);
    }
    printf("rows %lld runs %d\n", (long long)rows, runs);
    report("write", wp, wo, runs, rows);
    report("scan", sp, so, runs, rows);
    printf("peak_rss_kb %ld\n", bench_peak_rss_kb());
    for (size_t k = 0; k < count; k++)
        pm_batch_free(batches[k]);
    free(batches);
    pm_pq_reader_free(r);
    pm_fs_free(fs);
    return 0;
}
