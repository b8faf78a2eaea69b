/*
 * Parquet scan and write throughput, one thread (docs/PERFORMANCE.md; bench/parquet.sh runs
 * it beside DuckDB).
 *
 *   bench_parquet scan FILE [RUNS]       decode every column of FILE into batches
 *   bench_parquet write IN OUT [RUNS]    encode the rows of IN (read into memory first,
 *                                        not timed) into OUT with Java Paimon's defaults
 *                                        (ZSTD level 1, dictionary, 128 MiB row groups)
 *
 * Prints one line per run and a last line "median SECONDS rows ROWS MB/s X peak_rss_kb K".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "format/parquet/reader.h"
#include "format/parquet/writer.h"
#include "io/fs.h"
#include "util/alloc.h"

static int die(const paimon_error *err)
{
    fprintf(stderr, "bench_parquet: %s\n", err->message);
    return 1;
}

static int scan(pm_fs *fs, const char *path, int64_t *rows, paimon_error *err)
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

int main(int argc, char **argv)
{
    paimon_error err = {0};
    pm_fs *fs = pm_fs_local_new(false);
    double times[64];
    int runs;
    int64_t rows = 0;
    uint64_t bytes = 0;

    if (argc < 3 || (strcmp(argv[1], "scan") != 0 && strcmp(argv[1], "write") != 0) ||
        (strcmp(argv[1], "write") == 0 && argc < 4)) {
        fprintf(stderr, "usage: bench_parquet scan FILE [RUNS] | write IN OUT [RUNS]\n");
        return 2;
    }
    if (strcmp(argv[1], "scan") == 0) {
        runs = argc > 3 ? atoi(argv[3]) : 5;
        if (runs < 1 || runs > 64)
            runs = 5;
        if (pm_fs_size(fs, argv[2], &bytes, &err) != 0)
            return die(&err);
        for (int i = 0; i < runs; i++) {
            double t0 = bench_now();
            if (scan(fs, argv[2], &rows, &err) != 0)
                return die(&err);
            times[i] = bench_now() - t0;
            printf("scan run %d: %.3f s\n", i + 1, times[i]);
        }
    } else {
        /* the rows, in memory, as the batches a table writer would hand over */
        pm_batch **batches = NULL;
        size_t count = 0, cap = 0;
        pm_input *in;
        pm_pq_reader *r;
        pm_pq_read_options ro = {0};
        pm_batch *b;
        int rc;
        const pm_type *type;
        runs = argc > 4 ? atoi(argv[4]) : 5;
        if (runs < 1 || runs > 64)
            runs = 5;
        if (fs->open(fs, argv[2], &in, &err) != 0 || pm_pq_reader_open(&r, in, argv[2], &err) != 0)
            return die(&err);
        ro.batch_rows = 4096;
        if (pm_pq_reader_start(r, &ro, &err) != 0)
            return die(&err);
        while ((rc = pm_pq_reader_next(r, &b, &err)) == 0) {
            if (count == cap) {
                cap = cap ? cap * 2 : 1024;
                batches = realloc(batches, cap * sizeof(*batches));
            }
            batches[count++] = b;
            rows += b->row_count;
        }
        if (rc != PAIMON_ITEROVER)
            return die(&err);
        type = pm_pq_reader_type(r);
        for (int i = 0; i < runs; i++) {
            pm_output *out;
            pm_pq_writer *w;
            double t0;
            remove(argv[3]);
            t0 = bench_now();
            if (fs->create(fs, argv[3], &out, &err) != 0 ||
                pm_pq_writer_open(&w, out, type, NULL, &err) != 0)
                return die(&err);
            for (size_t k = 0; k < count; k++)
                if (pm_pq_writer_write(w, batches[k], &err) != 0)
                    return die(&err);
            if (pm_pq_writer_close(w, &bytes, &err) != 0)
                return die(&err);
            times[i] = bench_now() - t0;
            printf("write run %d: %.3f s (%llu bytes)\n", i + 1, times[i],
                   (unsigned long long)bytes);
        }
        for (size_t k = 0; k < count; k++)
            pm_batch_free(batches[k]);
        free(batches);
        pm_pq_reader_free(r);
    }
    {
        double med = bench_median(times, (size_t)runs);
        printf("median %.3f rows %lld MB/s %.1f peak_rss_kb %ld\n", med, (long long)rows,
               (double)bytes / 1e6 / med, bench_peak_rss_kb());
    }
    pm_fs_free(fs);
    return 0;
}
