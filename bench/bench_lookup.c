/*
 * Lookup over levels (lsm/lookup_levels.h, issue 7): random point lookups in one bucket of
 * a primary-key table, as compaction makes them for deletion vectors and the lookup
 * changelog producer.
 *
 *   bench_lookup [ROWS] [FILES] [LOOKUPS] [REPEATS] [MODE] [DIR]
 *
 * The table (`k BIGINT` key, `v1 INT, v2 BIGINT, v3 DOUBLE, v4 STRING`, one bucket, Parquet
 * ZSTD) is written through the public writer API: FILES commits of ROWS / FILES rows, one
 * data file each, file f holding the even keys of its own range.  The files are placed by
 * hand on levels 1..3 (file f on level 1 + f % 3; each level's files do not overlap).
 * LOOKUPS keys are drawn uniformly from [0, 2 * ROWS): half are present, half absent (an
 * absent key visits every level whose file range holds it; the bloom filters answer most).
 *
 *   cold   a fresh pm_lookup_levels: the lookups include building every local file (each
 *          data file read whole once)
 *   warm   the same LOOKUPS again on the same levels, every local file present
 *
 * MODE is value-position (default: record, sequence, kind and row position, what deletion
 * vectors with a changelog need), position or exists.  The peer, in the same run, reads the
 * whole table once through the public scan API (a split cursor's Arrow stream): the data a cold
 * start must decode at the least.  Medians of REPEATS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_util.h"
#include "lsm/lookup_levels.h"
#include "table/file_reader.h"
#include "paimon.h"
#include "table/scan.h"
#include "table/table.h"
#include "util/alloc.h"

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

static void write_table(const char *path, int64_t rows, int files)
{
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pks[1] = {"k"};
    const char *keys[3] = {"bucket", "write-only", "target-file-size"};
    const char *vals[3] = {"1", "true", "4 gb"};
    paimon_table *t;
    paimon_error err;
    int64_t per = rows / files;
    co.columns = "k BIGINT NOT NULL, v1 INT, v2 BIGINT, v3 DOUBLE, v4 STRING";
    co.primary_keys = pks;
    co.primary_key_count = 1;
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = 3;
    if (paimon_table_create(path, &co, &err) != 0)
        bench_die("create", &err);
    if (paimon_table_open(&t, path, &err) != 0)
        bench_die("open", &err);
    for (int f = 0; f < files; f++) {
        paimon_writer *w;
        paimon_commit_messages *m;
        paimon_commit_options cm = PAIMON_COMMIT_OPTIONS_INIT;
        if (paimon_writer_open(&w, t, NULL, &err) != 0)
            bench_die("writer", &err);
        for (int64_t i = f * per; i < (f + 1) * per; i++) {
            paimon_value row[5];
            char text[32];
            uint64_t h = mix((uint64_t)i);
            int n = snprintf(text, sizeof(text), "value-%llu", (unsigned long long)(h % 1000000));
            row[0].type = PAIMON_VALUE_INT;
            row[0].v.i = 2 * i;
            row[1].type = PAIMON_VALUE_INT;
            row[1].v.i = (int32_t)h;
            row[2].type = PAIMON_VALUE_INT;
            row[2].v.i = (int64_t)(h >> 8);
            row[3].type = PAIMON_VALUE_DOUBLE;
            row[3].v.d = (double)(h % 100000) / 7.0;
            row[4].type = PAIMON_VALUE_TEXT;
            row[4].v.s.ptr = text;
            row[4].v.s.len = (size_t)n;
            if (paimon_writer_write_row(w, row, 5, PAIMON_ROW_INSERT, &err) != 0)
                bench_die("write", &err);
        }
        if (paimon_commit_messages_new(&m, &err) != 0 ||
            paimon_writer_prepare_commit(w, m, &err) != 0 ||
            paimon_table_commit(t, m, &cm, NULL, &err) != 0)
            bench_die("commit", &err);
        paimon_commit_messages_free(m);
        paimon_writer_free(w);
    }
    paimon_table_free(t);
}

static double read_all(const char *path, int64_t *rows)
{
    paimon_table *t = NULL;
    paimon_scan *s = NULL;
    paimon_error err;
    double t0 = bench_now();
    *rows = 0;
    if (paimon_table_open(&t, path, &err) != 0 || paimon_table_scan(&s, t, NULL, &err) != 0)
        bench_die("scan", &err);
    for (size_t i = 0; i < paimon_scan_split_count(s); i++) {
        struct ArrowArrayStream st;
        struct ArrowArray a;
        if (bench_split_stream(s, i, &st, &err) != 0)
            bench_die("read", &err);
        while (st.get_next(&st, &a) == 0 && a.release != NULL) {
            *rows += a.length;
            a.release(&a);
        }
        st.release(&st);
    }
    paimon_scan_free(s);
    paimon_table_free(t);
    return bench_now() - t0;
}

/* LOOKUPS random keys; returns seconds; counts hits. */
static double run_lookups(pm_lookup_levels *l, int64_t rows, int64_t lookups, uint64_t seed,
                          int64_t *hits)
{
    paimon_error err;
    double t0 = bench_now();
    *hits = 0;
    for (int64_t i = 0; i < lookups; i++) {
        pm_datum key = pm_datum_int((int64_t)(mix(seed + (uint64_t)i) % (uint64_t)(2 * rows)));
        pm_lookup_result res;
        if (pm_lookup_levels_get(l, &key, 1, &res, &err) != 0)
            bench_die("lookup", &err);
        *hits += res.found;
    }
    return bench_now() - t0;
}

int main(int argc, char **argv)
{
    int64_t rows = argc > 1 ? atoll(argv[1]) : 2000000;
    int files = argc > 2 ? atoi(argv[2]) : 10;
    int64_t lookups = argc > 3 ? atoll(argv[3]) : 200000;
    int repeats = argc > 4 ? atoi(argv[4]) : 3;
    const char *mode_name = argc > 5 ? argv[5] : "value-position";
    const char *dir = argc > 6 ? argv[6] : "/tmp/paimon-bench-lookup";
    pm_lookup_mode mode = strcmp(mode_name, "position") == 0 ? PM_LOOKUP_POSITION
                          : strcmp(mode_name, "exists") == 0 ? PM_LOOKUP_EXISTS
                                                             : PM_LOOKUP_VALUE_POSITION;
    char path[1024], local[1100], cmd[1200];
    double *cold = pm_calloc((size_t)repeats, sizeof(double));
    double *warm = pm_calloc((size_t)repeats, sizeof(double));
    double *scan = pm_calloc((size_t)repeats, sizeof(double));
    paimon_table *t;
    pm_scan_plan *plan;
    pm_scan_options so;
    paimon_error err;
    const pm_data_file_meta **metas;
    pm_data_file_meta *copies;
    const pm_split *sp;
    pm_lookup_config c;
    pm_lookup_stats st;
    char *bucket_dir;
    int64_t hits = 0, scanned = 0, local_bytes = 0;
    long rss = 0;

    snprintf(path, sizeof(path), "%s/t", dir);
    snprintf(local, sizeof(local), "%s/local", dir);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", dir, local);
    if (system(cmd) != 0)
        return 1;
    {
        double t0 = bench_now();
        write_table(path, rows, files);
        fprintf(stderr, "wrote %lld rows in %d files in %.1f s\n", (long long)rows, files,
                bench_now() - t0);
    }
    if (paimon_table_open(&t, path, &err) != 0)
        bench_die("open", &err);
    memset(&so, 0, sizeof(so));
    so.snapshot.by = PM_SNAPSHOT_LATEST;
    so.keep_level0 = true;
    if (pm_scan_plan_build(t, &so, &plan, &err) != 0)
        bench_die("plan", &err);
    sp = &plan->splits[0];
    if (plan->split_count != 1 || sp->file_count != (size_t)files) {
        fprintf(stderr, "expected %d files in one split\n", files);
        return 1;
    }
    bucket_dir = pm_strndup(sp->paths[0], (size_t)(strrchr(sp->paths[0], '/') - sp->paths[0]));
    copies = pm_calloc((size_t)files, sizeof(*copies));
    metas = pm_calloc((size_t)files, sizeof(*metas));
    for (int f = 0; f < files; f++) {
        copies[f] = sp->files[f]->file;
        copies[f].level = 1 + (int32_t)(copies[f].min_sequence_number / (rows / files)) % 3;
        metas[f] = &copies[f];
    }
    memset(&c, 0, sizeof(c));
    c.fs = t->fs;
    c.bucket_dir = bucket_dir;
    c.schema = t->schema;
    c.open_file = pm_file_reader_open_source;
    c.local_dir = local;
    c.local_prefix = "0-";
    c.mode = mode;
    c.num_levels = 4;
    if (pm_lookup_options_read(&c.options, &t->schema->options, &err) != 0)
        bench_die("options", &err);

    for (int r = 0; r < repeats; r++) {
        pm_lookup_levels *l;
        int64_t h1, h2;
        if (pm_lookup_levels_new(&l, &c, metas, (size_t)files, &err) != 0)
            bench_die("levels", &err);
        cold[r] = run_lookups(l, rows, lookups, 1000u * (uint64_t)r, &h1);
        warm[r] =
            run_lookups(l, rows, lookups, 1000u * (uint64_t)r + 7919u * (uint64_t)lookups, &h2);
        pm_lookup_levels_stats(l, &st);
        local_bytes = st.local_bytes;
        hits = h1 + h2;
        pm_lookup_levels_free(l);
        scan[r] = read_all(path, &scanned);
    }
    rss = bench_peak_rss_kb();
    {
        double mc = bench_median(cold, (size_t)repeats), mw = bench_median(warm, (size_t)repeats);
        double ms = bench_median(scan, (size_t)repeats);
        printf("rows %lld, files %d, lookups %lld per phase, mode %s, hits %.1f%%\n",
               (long long)rows, files, (long long)lookups, mode_name,
               100.0 * (double)hits / (double)(2 * lookups));
        printf("cold (builds %lld local files, %.1f MB): %.3f s, %.0f lookups/s\n",
               (long long)st.builds, (double)local_bytes / 1e6, mc, (double)lookups / mc);
        printf("warm: %.3f s, %.0f lookups/s\n", mw, (double)lookups / mw);
        printf("peer: full scan of %lld rows: %.3f s (%.2f M rows/s); cold lookups / scan time "
               "%.2fx\n",
               (long long)scanned, ms, (double)scanned / ms / 1e6, mc / ms);
        printf("peak RSS %ld MB\n", rss / 1024);
    }
    pm_free(copies);
    pm_free(metas);
    pm_free(bucket_dir);
    pm_free(cold);
    pm_free(warm);
    pm_free(scan);
    pm_scan_plan_free(plan);
    paimon_table_free(t);
    return 0;
}
