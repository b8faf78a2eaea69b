/*
 * Merge-on-read throughput (issue 5's figure, listed in issue 6): a primary-key table
 * (BIGINT key, 5 value columns, deduplicate, one bucket) with RUNS level-0 Parquet files
 * (sorted runs) of ROWS rows each whose keys overlap, read through the public scan API on one
 * thread; beside it the plain scan of an append table holding the same rows.  Files are
 * written with the Parquet writer in Java Paimon's primary-key layout and committed through
 * the commit layer (the write path proper comes with issue 6).
 *
 *   bench_merge_read [ROWS_PER_RUN] [RUNS] [REPEATS] [DENSITY] [DIR]
 *
 * Keys: each run holds about ROWS_PER_RUN keys drawn with probability DENSITY% from a key
 * space of ROWS_PER_RUN * 100 / DENSITY keys, so runs overlap in key range and share keys:
 * DENSITY 20 (the default) writes each key about 1.5 times (2/3 of the input survives the
 * merge); DENSITY 0 interleaves the runs' keys without sharing any (every row survives).
 *
 * Prints the medians of REPEATS reads, in wall time and in CPU time of this process (the
 * machines are shared: CPU time is what the code costs), for the merge and for the plain
 * scan of an append table with the same rows.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "data/binary_row.h"
#include "format/parquet/writer.h"
#include "io/fs.h"
#include "paimon.h"
#include "table/commit.h"
#include "table/file_reader.h"
#include "util/alloc.h"

#define KEY_ID_START 1073741823 /* Integer.MAX_VALUE / 2: _KEY_<f> has id start + f's id */

static int density = 20; /* percent; 0: disjoint interleaved keys */

static const char *COLUMNS =
    "k BIGINT NOT NULL, v1 INT, v2 BIGINT, v3 DOUBLE, v4 STRING, v5 DECIMAL(18, 2)";

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

/* The row type of a file: the primary-key layout, or the plain value row. */
static pm_type *file_type(bool pk)
{
    paimon_error err;
    pm_type *values = NULL, *t;
    if (pm_columns_parse(COLUMNS, &values, &err) != 0)
        abort();
    for (size_t i = 0; i < values->field_count; i++)
        values->fields[i].id = (int32_t)i;
    if (!pk)
        return values;
    t = pm_type_new(PM_TYPE_ROW);
    t->nullable = false;
    {
        pm_type *k = pm_type_new(PM_TYPE_BIGINT), *seq = pm_type_new(PM_TYPE_BIGINT),
                *kind = pm_type_new(PM_TYPE_TINYINT);
        k->nullable = seq->nullable = kind->nullable = false;
        if (pm_type_row_add(t, KEY_ID_START + 0, "_KEY_k", k) != 0 ||
            pm_type_row_add(t, PM_SEQUENCE_NUMBER_ID, "_SEQUENCE_NUMBER", seq) != 0 ||
            pm_type_row_add(t, PM_VALUE_KIND_ID, "_VALUE_KIND", kind) != 0)
            abort();
    }
    for (size_t i = 0; i < values->field_count; i++)
        if (pm_type_row_add(t, values->fields[i].id, values->fields[i].name,
                            pm_type_clone(values->fields[i].type)) != 0)
            abort();
    pm_type_free(values);
    return t;
}

/* One file of `n` rows: keys of run `run` of `runs` (sorted), sequence numbers from `seq0`. */
static void write_file(pm_fs *fs, const char *path, bool pk, int run, int runs, int64_t n,
                       int64_t seq0, int64_t *min_key, int64_t *max_key, uint64_t *size)
{
    pm_type *t = file_type(pk);
    pm_pq_writer *w = NULL;
    pm_pq_writer_options o = PM_PQ_WRITER_OPTIONS_INIT;
    pm_output *out = NULL;
    paimon_error err;
    pm_batch *b = NULL;
    int64_t key = -1, written = 0;
    size_t base = pk ? 3 : 0;
    if (fs->create(fs, path, &out, &err) != 0 || pm_pq_writer_open(&w, out, t, &o, &err) != 0 ||
        pm_batch_new(&b, t, &err) != 0) {
        fprintf(stderr, "%s: %s\n", path, err.message);
        exit(1);
    }
    *min_key = -1;
    while (written < n) {
        pm_batch_reset(b);
        for (int r = 0; r < 8192 && written < n; r++, written++) {
            char text[32];
            pm_datum d;
            /* The next key of this run, in order. */
            if (density == 0)
                key = written * runs + run;
            else
                do
                    key++;
                while (mix((uint64_t)key * 31 + (uint64_t)run) % 100 >= (uint64_t)density);
            if (*min_key < 0)
                *min_key = key;
            *max_key = key;
            if (pk) {
                pm_column_append_i64(b->columns[0], key);
                pm_column_append_i64(b->columns[1], seq0 + written);
                pm_column_append_i64(b->columns[2], 0);
            }
            pm_column_append_i64(b->columns[base + 0], key);
            pm_column_append_i64(b->columns[base + 1], (int32_t)mix((uint64_t)key + 7));
            pm_column_append_i64(b->columns[base + 2], (int64_t)mix((uint64_t)key + 9) >> 20);
            pm_column_append_f64(b->columns[base + 3], (double)(key % 100000) / 7.0);
            snprintf(text, sizeof(text), "name-%" PRId64, key % 50000);
            d = pm_datum_bytes(text, strlen(text));
            pm_column_append_datum(b->columns[base + 4], &d);
            d.is_null = false;
            d.v.dec = (pm_int128)(key % 1000000) * 100 + run;
            pm_column_append_datum(b->columns[base + 5], &d);
        }
        if (pm_batch_set_rows(b, b->columns[0]->length, &err) != 0 ||
            pm_pq_writer_write(w, b, &err) != 0) {
            fprintf(stderr, "%s: %s\n", path, err.message);
            exit(1);
        }
    }
    if (pm_pq_writer_close(w, size, &err) != 0) {
        fprintf(stderr, "%s: %s\n", path, err.message);
        exit(1);
    }
    pm_batch_free(b);
    pm_type_free(t);
}

static void key_row(pm_buf *out, int64_t key)
{
    pm_type *t = pm_type_new(PM_TYPE_BIGINT);
    const pm_type *types[1] = {t};
    pm_datum d = pm_datum_int(key);
    pm_buf_reset(out);
    if (pm_binrow_serialize(out, types, &d, 1) != 0)
        abort();
    pm_type_free(t);
}

static void build_table(pm_fs *fs, const char *path, bool pk, int64_t rows, int runs)
{
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pks[] = {"k"};
    const char *keys[] = {"bucket", "file.format"}, *values[] = {pk ? "1" : "-1", "parquet"};
    paimon_error err;
    pm_commit_messages m;
    pm_commit_opts o;
    int64_t id;
    static const uint8_t empty_row[12] = {0};
    pm_buf part;
    pm_datum none = pm_datum_null();
    pm_buf_init(&part, 0);
    if (pm_binrow_serialize(&part, NULL, &none, 0) != 0)
        abort();
    co.columns = COLUMNS;
    co.primary_keys = pk ? pks : NULL;
    co.primary_key_count = pk ? 1 : 0;
    co.option_keys = keys;
    co.option_values = values;
    co.option_count = 2;
    if (paimon_table_create(path, &co, &err) != 0) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    pm_commit_messages_init(&m);
    for (int r = 0; r < runs; r++) {
        char name[128], file[640];
        int64_t lo = 0, hi = 0;
        uint64_t size;
        pm_manifest_entry e;
        pm_buf min, max;
        snprintf(name, sizeof(name), "data-%08d-bench-0000-0000-000000000000-0.parquet", r);
        snprintf(file, sizeof(file), "%s/bucket-0", path);
        fs->mkdirs(fs, file, &err);
        snprintf(file, sizeof(file), "%s/bucket-0/%s", path, name);
        write_file(fs, file, pk, r, runs, rows, (int64_t)r * rows, &lo, &hi, &size);
        pm_buf_init(&min, 0);
        pm_buf_init(&max, 0);
        key_row(&min, lo);
        key_row(&max, hi);
        memset(&e, 0, sizeof(e));
        e.partition.ptr = part.data; /* no partition columns */
        e.partition.len = part.len;
        e.bucket = 0;
        e.total_buckets = pk ? 1 : -1;
        e.file.file_name = name;
        e.file.file_size = (int64_t)size;
        e.file.row_count = rows;
        e.file.min_key.ptr = pk ? min.data : empty_row;
        e.file.min_key.len = pk ? min.len : 12;
        e.file.max_key.ptr = pk ? max.data : empty_row;
        e.file.max_key.len = pk ? max.len : 12;
        e.file.key_stats.min_values = e.file.min_key;
        e.file.key_stats.max_values = e.file.max_key;
        e.file.value_stats.min_values.ptr = empty_row;
        e.file.value_stats.min_values.len = 12;
        e.file.value_stats.max_values = e.file.value_stats.min_values;
        e.file.min_sequence_number = (int64_t)r * rows;
        e.file.max_sequence_number = (int64_t)(r + 1) * rows - 1;
        e.file.level = 0;
        e.file.has_creation_time = true;
        e.file.creation_time = 1700000000000;
        e.file.has_delete_row_count = true;
        e.file.has_file_source = true;
        if (pm_commit_messages_add_data(&m, &e) != 0)
            abort();
        pm_buf_free(&min);
        pm_buf_free(&max);
    }
    memset(&o, 0, sizeof(o));
    o.commit_user = "bench";
    o.kind = PM_COMMIT_APPEND;
    if (pm_commit(fs, path, &m, &o, &id, &err) != 0) {
        fprintf(stderr, "commit: %s\n", err.message);
        exit(1);
    }
    pm_commit_messages_release(&m);
    pm_buf_free(&part);
}

/* Reads every split on this thread; returns wall seconds (CPU seconds in *cpu), the rows in
 * *rows. */
static double read_all(const char *path, int64_t *rows, double *cpu)
{
    paimon_table *t = NULL;
    paimon_scan *s = NULL;
    paimon_error err;
    double t0 = bench_now(), c0 = bench_cpu_now();
    *rows = 0;
    if (paimon_table_open(&t, path, &err) != 0 || paimon_table_scan(&s, t, NULL, &err) != 0) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    for (size_t i = 0; i < paimon_scan_split_count(s); i++) {
        struct ArrowArrayStream st;
        struct ArrowArray a;
        if (bench_split_stream(s, i, &st, &err) != 0) {
            fprintf(stderr, "%s\n", err.message);
            exit(1);
        }
        while (st.get_next(&st, &a) == 0 && a.release != NULL) {
            *rows += a.length;
            a.release(&a);
        }
        st.release(&st);
    }
    paimon_scan_free(s);
    paimon_table_free(t);
    *cpu = bench_cpu_now() - c0;
    return bench_now() - t0;
}

int main(int argc, char **argv)
{
    int64_t rows = argc > 1 ? atoll(argv[1]) : 2000000;
    int runs = argc > 2 ? atoi(argv[2]) : 5, repeats = argc > 3 ? atoi(argv[3]) : 5;
    const char *dir = argc > 5 ? argv[5] : "/tmp/paimon-bench-merge";
    char pk_path[512], append_path[512], cmd[600];
    double merge_t[32], scan_t[32], merge_c[32], scan_c[32];
    int64_t merged = 0, scanned = 0;
    pm_fs *fs = pm_fs_local_new(false);
    double t0;
    bench_heap_init("bench_merge_read");
    if (repeats < 1 || repeats > 32)
        repeats = 5;
    density = argc > 4 ? atoi(argv[4]) : 20;
    if (density < 0 || density > 100)
        density = 20;
    snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    if (system(cmd) != 0 || fs == NULL)
        return 1;
    snprintf(pk_path, sizeof(pk_path), "%s/pk", dir);
    snprintf(append_path, sizeof(append_path), "%s/append", dir);
    t0 = bench_now();
    build_table(fs, pk_path, true, rows, runs);
    build_table(fs, append_path, false, rows, runs);
    printf("tables: %d runs x %" PRId64 " rows, written in %.1f s\n", runs, rows, bench_now() - t0);
    for (int r = 0; r < repeats; r++) {
        merge_t[r] = read_all(pk_path, &merged, &merge_c[r]);
        scan_t[r] = read_all(append_path, &scanned, &scan_c[r]);
    }
    {
        double m = bench_median(merge_t, (size_t)repeats),
               a = bench_median(scan_t, (size_t)repeats);
        double mc = bench_median(merge_c, (size_t)repeats),
               ac = bench_median(scan_c, (size_t)repeats);
        printf("keys: density %d%% (%s)\n", density,
               density == 0 ? "runs interleaved, no key shared" : "runs share keys");
        printf("merge-on-read: %" PRId64 " input rows -> %" PRId64 " output rows\n", rows * runs,
               merged);
        printf("  wall median %.3f s: %.2f M output rows/s; CPU median %.3f s: %.2f M output "
               "rows/s (%.2f M input rows/s)\n",
               m, merged / m / 1e6, mc, merged / mc / 1e6, rows * runs / mc / 1e6);
        printf("append scan:   %" PRId64 " rows\n", scanned);
        printf("  wall median %.3f s: %.2f M rows/s; CPU median %.3f s: %.2f M rows/s\n", a,
               scanned / a / 1e6, ac, scanned / ac / 1e6);
        printf("peak RSS %ld MB\n", bench_peak_rss_kb() / 1024);
    }
    pm_fs_free(fs);
    return 0;
}
