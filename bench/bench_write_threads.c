/* Write benchmarks of issue 15: the writer on several threads (table/write/table_write.h).
 *
 *   bench_write_threads ingest     [ROWS] [KEYS] [COMMIT_EVERY]
 *       primary-key upserts into 4 buckets, --threads 1 and 2 in turn (each run in its own
 *       process, for its peak RSS), --runs times; medians and the 2/1 ratio
 *   bench_write_threads continuous [ROWS] [KEYS] [COMMIT_EVERY]
 *       continuous ingest with a commit every COMMIT_EVERY rows and the writer's compaction
 *       on (defaults of the table: num-sorted-run.compaction-trigger 5): each commit's
 *       latency (prepare + commit) with compaction in the background, its results taken
 *       when finished (async: Java's streaming writer) or at the bucket's next flush or
 *       commit (fixed), beside the same ingest whose commits wait for compaction (sync),
 *       each on 2 threads; p50,
 *       p99 and max latency, sustained rows/s, the most sorted runs a bucket had at a
 *       commit, peak RSS
 *
 * Rows: those of bench_write (write_rows.h), k the primary key, uniform over KEYS values;
 * bucket = 4, write-buffer-size 256 mb, target-file-size 128 mb.
 * Defaults: ingest 4,000,000 rows over 1,000,000 keys, one commit at the end; continuous
 * 20,000,000 rows over 4,000,000 keys, a commit every 1,000,000.  Options: --runs N (3),
 * --dir DIR (/tmp/paimon-bench-wt), --mode async|fixed|sync (continuous: that mode alone). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"
#include "write_rows.h"
#include "paimon.h"
#include "meta/file_entry.h"
#include "meta/schema.h"
#include "meta/snapshot.h"
#include "table/commit.h"
#include "table/write/table_write.h"
#include "util/alloc.h"

/* The most sorted runs one bucket of the latest snapshot has (level-0 files, and each
 * non-empty level above). */
static int max_runs(pm_fs *fs, const char *table)
{
    pm_snapshot *snap = NULL;
    pm_arena arena;
    const pm_manifest_entry **live = NULL;
    size_t n = 0;
    int64_t id;
    bool found;
    int best = 0;
    paimon_error err;
    pm_arena_init(&arena, 65536);
    if (pm_snapshot_latest_id(fs, table, &id, &found, &err) || !found ||
        pm_snapshot_read(fs, table, id, &snap, &err) ||
        pm_snapshot_live_entries(fs, table, snap, &arena, &live, &n, &err))
        bench_die("snapshot", &err);
    for (int32_t b = 0; b < 4; b++) {
        int runs = 0;
        bool level[64] = {false};
        for (size_t i = 0; i < n; i++) {
            if (live[i]->bucket != b)
                continue;
            if (live[i]->file.level == 0)
                runs++;
            else if (live[i]->file.level < 64 && !level[live[i]->file.level]) {
                level[live[i]->file.level] = true;
                runs++;
            }
        }
        if (runs > best)
            best = runs;
    }
    pm_snapshot_free(snap);
    pm_arena_free(&arena);
    return best;
}

typedef struct result {
    double seconds;
    double p50, p99, max; /* commit latency, seconds */
    int max_runs;
    long rss_kb;
    int commits;
} result;

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One run in this process: a new table, `rows` rows, a commit every `every`. */
static result run(int64_t rows, int64_t keys, int64_t every, unsigned threads, pm_compact_mode mode,
                  const char *dir)
{
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pks[1] = {"k"};
    const char *okeys[3] = {"bucket", "write-buffer-size", "target-file-size"};
    const char *ovals[3] = {"4", "256 mb", "128 mb"};
    pm_table_write_opts wo = {false, "bench", false};
    paimon_error err;
    pm_fs *fs = pm_fs_local_new(false);
    pm_table_write *w = NULL;
    pm_schema *s;
    pm_batch **pool;
    char table[512], cmd[600];
    int64_t written = 0, since = 0;
    double t0, *lat = pm_calloc((size_t)(rows / every + 2), sizeof(double));
    result r;
    memset(&r, 0, sizeof(r));
    snprintf(table, sizeof(table), "%s/t-%u-%d", dir, threads, (int)mode);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", table);
    if (system(cmd) != 0)
        bench_die("rm", NULL);
    co.columns = "k BIGINT, v1 BIGINT, v2 DOUBLE, v3 INT, v4 STRING, v5 TIMESTAMP(3)";
    co.primary_keys = pks;
    co.primary_key_count = 1;
    co.option_keys = okeys;
    co.option_values = ovals;
    co.option_count = 3;
    if (paimon_table_create(table, &co, &err) || pm_schema_read_latest(fs, table, &s, &err))
        bench_die("create", &err);
    pool = bench_write_pool(s->row, keys);
    if (pm_table_write_new(&w, fs, table, &wo, &err))
        bench_die("writer", &err);
    pm_table_write_set_threads(w, threads, mode);
    t0 = bench_now();
    for (int64_t b = 0; written < rows; b++) {
        pm_batch *batch = pool[b % BENCH_WRITE_POOL];
        if (b >= BENCH_WRITE_POOL && b % BENCH_WRITE_POOL == 0)
            for (int p = 0; p < BENCH_WRITE_POOL; p++)
                bench_write_shift(pool[p], 7919, keys);
        if (pm_table_write_batch(w, batch, NULL, &err))
            bench_die("write", &err);
        written += batch->row_count;
        since += batch->row_count;
        if (since >= every || written >= rows) {
            pm_commit_messages m;
            pm_commit_opts o;
            int64_t id;
            double c0 = bench_now();
            if (written >= rows)
                pm_table_write_end_input(w);
            pm_commit_messages_init(&m);
            memset(&o, 0, sizeof(o));
            o.commit_user = "bench";
            o.identifier = r.commits;
            if (pm_table_write_prepare(w, &m, &err) || pm_commit(fs, table, &m, &o, &id, &err))
                bench_die("commit", &err);
            pm_commit_messages_release(&m);
            lat[r.commits++] = bench_now() - c0;
            if (written < rows) {
                int runs = max_runs(fs, table);
                if (runs > r.max_runs)
                    r.max_runs = runs;
            }
            since = 0;
        }
    }
    r.seconds = bench_now() - t0;
    pm_table_write_free(w);
    /* latency of the commits made while rows still came (the last one waits by design) */
    if (r.commits > 1) {
        int n = r.commits - 1;
        qsort(lat, (size_t)n, sizeof(double), by_value);
        r.p50 = lat[n / 2];
        r.p99 = lat[(n * 99 + 99) / 100 - 1];
        r.max = lat[n - 1];
    }
    r.rss_kb = bench_peak_rss_kb();
    for (int p = 0; p < BENCH_WRITE_POOL; p++)
        pm_batch_free(pool[p]);
    pm_free(pool);
    pm_free(lat);
    pm_schema_free(s);
    pm_fs_free(fs);
    return r;
}

/* A run in a child process, so that its peak RSS is its own. */
static result run_forked(int64_t rows, int64_t keys, int64_t every, unsigned threads,
                         pm_compact_mode mode, const char *dir)
{
    int fd[2];
    result r;
    pid_t pid;
    if (pipe(fd) != 0)
        bench_die("pipe", NULL);
    fflush(stdout);
    if ((pid = fork()) == 0) {
        close(fd[0]);
        r = run(rows, keys, every, threads, mode, dir);
        if (write(fd[1], &r, sizeof(r)) != (ssize_t)sizeof(r))
            _exit(1);
        _exit(0);
    }
    close(fd[1]);
    if (pid < 0 || read(fd[0], &r, sizeof(r)) != (ssize_t)sizeof(r))
        bench_die("child", NULL);
    close(fd[0]);
    waitpid(pid, NULL, 0);
    return r;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ingest", *dir = "/tmp/paimon-bench-wt", *only = NULL;
    int64_t pos[3] = {0, 0, 0};
    int npos = 0, runs = 3;
    bool continuous;
    bench_heap_init("bench_write_threads");
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            long v = strtol(argv[++i], NULL, 10);
            runs = v > 0 && v <= 16 ? (int)v : 1;
        } else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "--mode") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (npos < 3)
            pos[npos++] = strtoll(argv[i], NULL, 10);
    }
    if (only != NULL && strcmp(only, "async") != 0 && strcmp(only, "fixed") != 0 &&
        strcmp(only, "sync") != 0) {
        fprintf(stderr, "bench_write_threads: --mode is async, fixed or sync, not '%s'\n", only);
        return 2;
    }
    continuous = strcmp(mode, "continuous") == 0;
    if (!continuous && strcmp(mode, "ingest") != 0) {
        fprintf(stderr, "usage: bench_write_threads ingest|continuous [ROWS] [KEYS] [EVERY]\n");
        return 2;
    }
    int64_t rows = pos[0] > 0 ? pos[0] : continuous ? 20000000 : 4000000;
    int64_t keys = pos[1] > 0 ? pos[1] : continuous ? 4000000 : 1000000;
    int64_t every = pos[2] > 0 ? pos[2] : continuous ? 1000000 : rows;
    {
        char cmd[600];
        snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
        if (system(cmd) != 0)
            bench_die("mkdir", NULL);
    }
    printf("%s: %lld rows, %lld keys, a commit every %lld rows, 4 buckets, %ld cores online\n",
           mode, (long long)rows, (long long)keys, (long long)every, sysconf(_SC_NPROCESSORS_ONLN));
    if (!continuous) {
        double one[16], two[16];
        long rss1 = 0, rss2 = 0;
        if (runs > 16)
            runs = 16;
        for (int i = 0; i < runs; i++) {
            result a = run_forked(rows, keys, every, 1, PM_COMPACT_SYNC, dir);
            result b = run_forked(rows, keys, every, 2, PM_COMPACT_SYNC, dir);
            one[i] = a.seconds;
            two[i] = b.seconds;
            rss1 = a.rss_kb > rss1 ? a.rss_kb : rss1;
            rss2 = b.rss_kb > rss2 ? b.rss_kb : rss2;
            printf("  run %d: threads=1 %.2f s, threads=2 %.2f s\n", i + 1, a.seconds, b.seconds);
        }
        double m1 = bench_median(one, (size_t)runs), m2 = bench_median(two, (size_t)runs);
        printf("threads=1: %.2f s (%.2f M rows/s), peak RSS %ld MB\n", m1, rows / m1 / 1e6,
               rss1 / 1024);
        printf("threads=2: %.2f s (%.2f M rows/s), peak RSS %ld MB\n", m2, rows / m2 / 1e6,
               rss2 / 1024);
        printf("ratio threads=2 / threads=1: %.2fx (medians of %d runs)\n", m1 / m2, runs);
        return 0;
    }
    for (int i = 0; i < runs; i++) {
        static const pm_compact_mode modes[3] = {PM_COMPACT_ASYNC, PM_COMPACT_ASYNC_FIXED,
                                                 PM_COMPACT_SYNC};
        static const char *const names[3] = {"async", "fixed", "sync"};
        printf("run %d\n", i + 1);
        for (int m = 0; m < 3; m++) {
            result a;
            if (only != NULL && strcmp(only, names[m]) != 0)
                continue;
            a = run_forked(rows, keys, every, 2, modes[m], dir);
            printf("  %-5s: %.2f M rows/s, commit p50 %.3f s, p99 %.3f s, max %.3f s (p99/p50 "
                   "%.2f), at most %d sorted runs a bucket, peak RSS %ld MB\n",
                   names[m], rows / a.seconds / 1e6, a.p50, a.p99, a.max,
                   a.p50 > 0 ? a.p99 / a.p50 : 0.0, a.max_runs, a.rss_kb / 1024);
            fflush(stdout);
        }
    }
    return 0;
}
