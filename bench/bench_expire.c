/*
 * Snapshot expiration (issue 13's figures): "expiring 10,000 snapshots of a table with 100
 * files each takes under 10 s; a commit's own expiration step adds under 5 ms to a commit
 * when there is nothing to expire".
 *
 * The table: an append table (unaware bucket) whose first snapshot adds FILES data files and
 * whose next SNAPSHOTS commits each replace one of them (a COMPACT snapshot deleting the
 * oldest file and adding a new one), committed through the real commit path (table/commit.h,
 * with its manifest merging), so every snapshot has FILES live files and each expired
 * snapshot leaves one data file, its manifest lists and whatever manifests merging retired
 * to remove.  The data files exist on disk (empty: expiration never opens them).
 *
 * Measured, in one run:
 *   - commit      one more such commit (pm_commit alone), COMMITS times: the peer;
 *   - upkeep      the post-commit upkeep (pm_table_maintain: consumer and snapshot
 *                 expiration, as after every commit) with the table's default options
 *                 (10 snapshots kept, 1 h window), where nothing is due: COMMITS times;
 *   - expire      expiring every snapshot but the last (retain-min 1, no time window, no
 *                 limit) on a fresh copy of the table, RUNS times.
 * It prints the medians and the ratio upkeep / commit, and checks after each expiration
 * that exactly one snapshot and FILES data files remain.
 *
 *   bench_expire [--snapshots N] [--files N] [--runs N] [--commits N] [--dir DIR]
 *
 * Defaults: 10,000 snapshots, 100 files, 3 runs, 200 commits, DIR /tmp/paimon-bench-expire
 * (removed first, left for inspection).
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "data/binary_row.h"
#include "meta/schema.h"
#include "meta/snapshot.h"
#include "paimon.h"
#include "table/commit.h"
#include "table/expire.h"
#include "table/maintain.h"
#include "util/alloc.h"
#include "util/time.h"

#define MAX_RUNS 16

static const uint8_t EMPTY_KEY[12] = {0};
static pm_buf g_partition; /* the empty partition row */

static void add(pm_commit_messages *m, bool compact, int kind, int64_t n)
{
    pm_manifest_entry e;
    char name[64];
    int64_t nulls[2] = {0, 0};
    snprintf(name, sizeof(name), "data-bench-%" PRId64 ".parquet", n);
    memset(&e, 0, sizeof(e));
    e.kind = kind;
    e.partition.ptr = g_partition.data;
    e.partition.len = g_partition.len;
    e.bucket = 0;
    e.total_buckets = -1;
    e.file.file_name = name;
    e.file.file_size = 1000;
    e.file.row_count = 10;
    e.file.min_key.ptr = EMPTY_KEY;
    e.file.min_key.len = sizeof(EMPTY_KEY);
    e.file.max_key = e.file.min_key;
    e.file.key_stats.min_values = e.file.min_key;
    e.file.key_stats.max_values = e.file.min_key;
    e.file.key_stats.null_counts.present = true;
    e.file.value_stats = e.file.key_stats;
    e.file.value_stats.null_counts.items = nulls;
    e.file.value_stats.null_counts.count = 2;
    e.file.min_sequence_number = n;
    e.file.max_sequence_number = n;
    e.file.has_creation_time = true;
    e.file.creation_time = 1700000000000;
    e.file.has_delete_row_count = true;
    e.file.has_file_source = true;
    e.file.file_source = compact ? 1 : 0;
    if ((compact ? pm_commit_messages_add_compact(m, &e) : pm_commit_messages_add_data(m, &e)) !=
        0) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
}

static void touch(const char *table, int64_t n)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof(path), "%s/bucket-0/data-bench-%" PRId64 ".parquet", table, n);
    if ((f = fopen(path, "w")) == NULL) {
        perror(path);
        exit(1);
    }
    fclose(f);
}

/* Commits: the first adds files [0, files); commit i >= 1 replaces file i - 1 by files-1+i. */
static double commit_step(pm_fs *fs, const char *table, int64_t i, int64_t files)
{
    pm_commit_messages m;
    pm_commit_opts o;
    paimon_error err;
    int64_t id = 0;
    double t0;
    memset(&o, 0, sizeof(o));
    o.commit_user = "bench";
    o.identifier = i + 1;
    pm_commit_messages_init(&m);
    if (i == 0) {
        o.kind = PM_COMMIT_APPEND;
        for (int64_t f = 0; f < files; f++) {
            add(&m, false, PM_FILE_KIND_ADD, f);
            touch(table, f);
        }
    } else {
        o.kind = PM_COMMIT_COMPACT;
        add(&m, true, PM_FILE_KIND_DELETE, i - 1);
        add(&m, true, PM_FILE_KIND_ADD, files - 1 + i);
        touch(table, files - 1 + i);
    }
    t0 = bench_now();
    if (pm_commit(fs, table, &m, &o, &id, &err) != 0)
        bench_die("commit", &err);
    t0 = bench_now() - t0;
    pm_commit_messages_release(&m);
    return t0;
}

static size_t count_prefix(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t n = 0;
    if (d == NULL)
        return 0;
    while ((e = readdir(d)) != NULL)
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

int main(int argc, char **argv)
{
    int64_t snapshots = 10000, files = 100, runs = 3, commits = 200;
    const char *dir = "/tmp/paimon-bench-expire";
    char table[1024], copy[1100], cmd[4096];
    double expire_s[MAX_RUNS], expire_cpu[MAX_RUNS], *commit_s, *upkeep_s, t0, c0;
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *keys[1] = {"bucket"}, *vals[1] = {"-1"};
    paimon_error err;
    pm_fs *fs;

    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--snapshots") == 0)
            snapshots = strtoll(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--files") == 0)
            files = strtoll(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--runs") == 0)
            runs = strtoll(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--commits") == 0)
            commits = strtoll(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--dir") == 0)
            dir = argv[++i];
        else {
            fprintf(stderr, "usage: bench_expire [--snapshots N] [--files N] [--runs N] "
                            "[--commits N] [--dir DIR]\n");
            return 2;
        }
    }
    if (runs < 1 || runs > MAX_RUNS || files < 1 || snapshots < 1 || commits < 1)
        return 2;
    pm_buf_init(&g_partition, 0);
    if (pm_binrow_serialize(&g_partition, NULL, NULL, 0) != 0)
        return 1;
    snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    if (system(cmd) != 0)
        return 1;
    snprintf(table, sizeof(table), "%s/t", dir);
    co.columns = "id BIGINT, v STRING";
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = 1;
    if (paimon_table_create(table, &co, &err) != 0)
        bench_die("create", &err);
    snprintf(cmd, sizeof(cmd), "mkdir -p '%s/bucket-0'", table);
    if (system(cmd) != 0)
        return 1;
    fs = pm_fs_local_new(false);

    /* the table: snapshots + 1 snapshots of `files` live files */
    t0 = bench_now();
    for (int64_t i = 0; i <= snapshots; i++)
        (void)commit_step(fs, table, i, files);
    printf("table: %" PRId64 " snapshots of %" PRId64 " files built in %.1f s\n", snapshots + 1,
           files, bench_now() - t0);

    /* the peer and the no-op upkeep, interleaved on the same table */
    commit_s = calloc((size_t)commits, sizeof(double));
    upkeep_s = calloc((size_t)commits, sizeof(double));
    for (int64_t c = 0; c < commits; c++) {
        int64_t i = snapshots + 1 + c, before = 0, after = 0;
        bool found;
        commit_s[c] = commit_step(fs, table, i, files);
        if (pm_snapshot_earliest_id(fs, table, &before, &found, &err) != 0)
            bench_die("earliest", &err);
        t0 = bench_now();
        if (pm_table_maintain(fs, table, i + 1, true, &err) != 0)
            bench_die("upkeep", &err);
        upkeep_s[c] = bench_now() - t0;
        if (pm_snapshot_earliest_id(fs, table, &after, &found, &err) != 0 || after != before) {
            fprintf(stderr,
                    "the upkeep expired something (earliest %" PRId64 " -> %" PRId64
                    "): not a no-op\n",
                    before, after);
            return 1;
        }
    }

    /* expiring everything but the last snapshot, on fresh copies */
    for (int64_t r = 0; r < runs; r++) {
        pm_expire_config c;
        pm_expire_result res;
        pm_schema *schema = NULL;
        snprintf(copy, sizeof(copy), "%s/copy", dir);
        snprintf(cmd, sizeof(cmd), "rm -rf '%s' && cp -a '%s' '%s' && sync", copy, table, copy);
        if (system(cmd) != 0)
            return 1;
        if (pm_schema_read_latest(fs, copy, &schema, &err) != 0 ||
            pm_expire_config_from_options(&schema->options, pm_now_millis(), &c, &err) != 0)
            bench_die("config", &err);
        pm_schema_free(schema);
        c.retain_min = 1;
        c.retain_max = 1;
        c.time_retained_ms = 0;
        c.max_deletes = INT64_MAX;
        t0 = bench_now();
        c0 = bench_cpu_now();
        if (pm_expire_snapshots(fs, copy, &c, false, &res, &err) != 0)
            bench_die("expire", &err);
        expire_s[r] = bench_now() - t0;
        expire_cpu[r] = bench_cpu_now() - c0;
        {
            char sub[4200];
            size_t left, data;
            snprintf(sub, sizeof(sub), "%s/snapshot", copy);
            left = count_prefix(sub, "snapshot-");
            snprintf(sub, sizeof(sub), "%s/bucket-0", copy);
            data = count_prefix(sub, "data-");
            printf("run %" PRId64 ": expired %" PRId64 " snapshots, removed %" PRId64
                   " files in %.3f s (%.3f s CPU); %zu snapshot and %zu data files left\n",
                   r + 1, res.snapshots, res.files, expire_s[r], expire_cpu[r], left, data);
            if (left != 1 || data != (size_t)files) {
                fprintf(stderr, "wrong end state\n");
                return 1;
            }
        }
    }
    {
        double e = bench_median(expire_s, (size_t)runs);
        double ec = bench_median(expire_cpu, (size_t)runs);
        double cm = bench_median(commit_s, (size_t)commits);
        double u = bench_median(upkeep_s, (size_t)commits);
        printf("expire %" PRId64 " snapshots x %" PRId64 " files: median %.3f s (%.3f s CPU) "
               "over %" PRId64 " runs (target < 10 s)\n",
               snapshots, files, e, ec, runs);
        printf("no-op upkeep after a commit: median %.3f ms; one commit: median %.3f ms; "
               "upkeep / commit = %.2f (target < 5 ms)\n",
               u * 1e3, cm * 1e3, u / cm);
    }
    free(commit_s);
    free(upkeep_s);
    pm_buf_free(&g_partition);
    pm_fs_free(fs);
    return 0;
}
