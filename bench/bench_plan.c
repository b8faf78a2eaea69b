/*
 * Planning a large table (issue 5's figure): an append table partitioned by `p INT` with
 * FILES live data files spread over PARTS partitions (default 100,000 over 1,000), committed
 * COMMITS times through the real commit layer (manifest merging as Java does it), each file
 * with full value statistics.  Then paimon_table_scan() is timed:
 *   - full: every live file planned into splits;
 *   - one partition: `p = 7`, pruned by the manifest list's partition statistics and the
 *     entries' partitions.
 * Files are metadata only (planning never opens data files).
 *
 *   bench_plan [FILES] [PARTS] [RUNS] [DIR]     prints medians of RUNS timings
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "data/binary_row.h"
#include "io/fs.h"
#include "paimon.h"
#include "table/commit.h"
#include "util/alloc.h"

/* Value statistics of one file: (id, v, p) minimum and maximum rows. */
static void stats_row(pm_buf *out, int64_t id, const char *v, int p)
{
    pm_type *types[3] = {pm_type_new(PM_TYPE_BIGINT), pm_type_new(PM_TYPE_VARCHAR),
                         pm_type_new(PM_TYPE_INT)};
    pm_datum d[3] = {pm_datum_int(id), pm_datum_bytes(v, strlen(v)), pm_datum_int(p)};
    types[1]->length = PM_MAX_LENGTH;
    pm_buf_reset(out);
    if (pm_binrow_serialize(out, (const pm_type *const *)types, d, 3) != 0)
        abort();
    for (int i = 0; i < 3; i++)
        pm_type_free(types[i]);
}

static void add_file(pm_commit_messages *m, int p, int64_t serial)
{
    static const uint8_t empty_row[12] = {0};
    pm_manifest_entry e;
    pm_buf part, min, max;
    int64_t nulls[3] = {0, 0, 0};
    pm_type *int_type = pm_type_new(PM_TYPE_INT);
    const pm_type *types[1] = {int_type};
    pm_datum v = pm_datum_int(p);
    char name[96];
    pm_buf_init(&part, 0);
    pm_buf_init(&min, 0);
    pm_buf_init(&max, 0);
    if (pm_binrow_serialize(&part, types, &v, 1) != 0)
        abort();
    stats_row(&min, serial * 1000, "aaaa", p);
    stats_row(&max, serial * 1000 + 999, "zzzz", p);
    snprintf(name, sizeof(name), "data-bench-%012" PRId64 "-0.parquet", serial);
    memset(&e, 0, sizeof(e));
    e.kind = 0;
    e.partition.ptr = part.data;
    e.partition.len = part.len;
    e.bucket = 0;
    e.total_buckets = -1;
    e.file.file_name = name;
    e.file.file_size = 1 << 20;
    e.file.row_count = 1000;
    e.file.min_key.ptr = empty_row;
    e.file.min_key.len = 12;
    e.file.max_key = e.file.min_key;
    e.file.key_stats.min_values = e.file.min_key;
    e.file.key_stats.max_values = e.file.min_key;
    e.file.key_stats.null_counts.present = true;
    e.file.value_stats.min_values.ptr = min.data;
    e.file.value_stats.min_values.len = min.len;
    e.file.value_stats.max_values.ptr = max.data;
    e.file.value_stats.max_values.len = max.len;
    e.file.value_stats.null_counts.present = true;
    e.file.value_stats.null_counts.items = nulls;
    e.file.value_stats.null_counts.count = 3;
    e.file.min_sequence_number = serial;
    e.file.max_sequence_number = serial;
    e.file.has_creation_time = true;
    e.file.creation_time = 1700000000000;
    e.file.has_delete_row_count = true;
    e.file.has_file_source = true;
    if (pm_commit_messages_add_data(m, &e) != 0)
        abort();
    pm_buf_free(&part);
    pm_buf_free(&min);
    pm_buf_free(&max);
    pm_type_free(int_type);
}

static void build_table(const char *path, int64_t files, int parts)
{
    paimon_create_options o = PAIMON_CREATE_OPTIONS_INIT;
    const char *pk[] = {"p"};
    const char *keys[] = {"bucket"}, *values[] = {"-1"};
    paimon_error err;
    pm_fs *fs = NULL;
    int64_t per_commit = parts, serial = 0;
    double t0 = bench_now();
    o.columns = "id BIGINT, v STRING, p INT";
    o.partition_keys = pk;
    o.partition_key_count = 1;
    o.option_keys = keys;
    o.option_values = values;
    o.option_count = 1;
    if (paimon_table_create(path, &o, &err) != 0 || (fs = pm_fs_local_new(false)) == NULL) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    while (serial < files) {
        pm_commit_messages m;
        pm_commit_opts co;
        int64_t id;
        pm_commit_messages_init(&m);
        for (int64_t i = 0; i < per_commit && serial < files; i++, serial++)
            add_file(&m, (int)(serial % parts), serial);
        memset(&co, 0, sizeof(co));
        co.commit_user = "bench";
        co.identifier = serial;
        co.kind = PM_COMMIT_APPEND;
        if (pm_commit(fs, path, &m, &co, &id, &err) != 0) {
            fprintf(stderr, "commit: %s\n", err.message);
            exit(1);
        }
        pm_commit_messages_release(&m);
    }
    pm_fs_free(fs);
    printf("table: %" PRId64 " files over %d partitions, %" PRId64 " commits, built in %.1f s\n",
           files, parts, (files + per_commit - 1) / per_commit, bench_now() - t0);
}

/* Plans once; returns wall seconds (CPU seconds of the process in *cpu) and the planned
 * file count. */
static double plan(const char *path, const char *filter, size_t *file_count, double *cpu)
{
    paimon_table *t = NULL;
    paimon_scan *s = NULL;
    paimon_scan_options o = PAIMON_SCAN_OPTIONS_INIT;
    paimon_error err;
    double t0, dt;
    *file_count = 0;
    o.filter = filter;
    *cpu = bench_cpu_now();
    t0 = bench_now();
    if (paimon_table_open(&t, path, &err) != 0 || paimon_table_scan(&s, t, &o, &err) != 0) {
        fprintf(stderr, "plan: %s\n", err.message);
        exit(1);
    }
    dt = bench_now() - t0;
    *cpu = bench_cpu_now() - *cpu;
    for (size_t i = 0; i < paimon_scan_split_count(s); i++) {
        paimon_split_info info;
        if (paimon_scan_split(s, i, &info, &err) == 0)
            *file_count += info.file_count;
    }
    paimon_scan_free(s);
    paimon_table_free(t);
    return dt;
}

int main(int argc, char **argv)
{
    int64_t files = argc > 1 ? atoll(argv[1]) : 100000;
    int parts = argc > 2 ? atoi(argv[2]) : 1000, runs = argc > 3 ? atoi(argv[3]) : 5;
    const char *dir = argc > 4 ? argv[4] : "/tmp/paimon-bench-plan";
    char path[512], cmd[600];
    double full[32], one[32], full_cpu[32], one_cpu[32];
    size_t nfull = 0, none = 0;
    if (runs < 1 || runs > 32)
        runs = 5;
    snprintf(path, sizeof(path), "%s/t", dir);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    if (system(cmd) != 0)
        return 1;
    build_table(path, files, parts);
    for (int r = 0; r < runs; r++) {
        full[r] = plan(path, NULL, &nfull, &full_cpu[r]);
        one[r] = plan(path, "p = 7", &none, &one_cpu[r]);
    }
    printf("plan, full:          median %.3f s  (%zu files, %.0f files/s)\n",
           bench_median(full, (size_t)runs), nfull,
           (double)nfull / bench_median(full, (size_t)runs));
    printf("plan, one partition: median %.4f s  (%zu files)\n", bench_median(one, (size_t)runs),
           none);
    printf("CPU time (all threads): full median %.3f s, one partition median %.4f s\n",
           bench_median(full_cpu, (size_t)runs), bench_median(one_cpu, (size_t)runs));
    printf("peak RSS %ld MB\n", bench_peak_rss_kb() / 1024);
    return 0;
}
