/* Write benchmarks (issue 6 figures), one thread, from batches in memory to committed
 * snapshots on the local disk:
 *
 *   bench_write pk      [ROWS] [KEYS] [COMMIT_EVERY] [BUFFER]   primary-key upsert ingest
 *   bench_write append  [ROWS] [KEYS] [COMMIT_EVERY]            append ingest of the same rows
 *   bench_write parquet [ROWS] [KEYS] [COMMIT_EVERY]            peer: the Parquet writer alone
 *   bench_write all     (all three, each run of each in turn, --runs times; medians)
 *   bench_write lookup  [...]  primary-key ingest beside the same ingest into a table with
 *                       changelog-producer=lookup and one with deletion-vectors.enabled (both
 *                       compact level 0 away with lookups at every commit); ratios to pk
 *
 * Rows: k BIGINT (primary key, uniform over KEYS distinct values), v1 BIGINT, v2 DOUBLE,
 * v3 INT, v4 STRING (8-14 characters), v5 TIMESTAMP(3); 4096 rows per batch, made before
 * each run's clock starts in a pool of 64 batches that the run cycles through with shifted
 * keys and numbers (so the generator costs nothing and every batch differs).  Primary-key table:
 * bucket = 4; append table: unaware bucket.  A commit after every COMMIT_EVERY rows and at
 * the end.  The peer writes the same batches with the Parquet file writer alone (a file per
 * COMMIT_EVERY rows, the table's codec, no table, statistics or commit): the append/peer
 * ratio is the table layer's cost, measured under the same load.  Prints rows/s by wall clock and per CPU second of the process (user + system,
 * getrusage: the figure that a shared, loaded machine still measures fairly), the table's
 * size, and peak RSS (getrusage maxrss).
 *
 * Defaults: 10,000,000 rows, 2,000,000 keys, 1,000,000 rows per commit, write-buffer-size
 * 256 mb (Java's default); `--buffer 64mb` for the memory figure; `--format orc|avro` sets
 * the tables' file.format (the peer stays the Parquet writer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench_util.h"
#include "write_rows.h"
#include "paimon.h"
#include "format/file_writer.h"
#include "meta/schema.h"
#include "table/commit.h"
#include "table/write/table_write.h"
#include "util/alloc.h"

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* Shifts the keys (and the numbers) of a pool batch, so that cycles through the pool write
 * other keys and other values. */
static uint64_t dir_bytes(const char *dir)
{
    char cmd[1024];
    FILE *p;
    unsigned long long kb = 0;
    snprintf(cmd, sizeof(cmd), "du -sk --apparent-size '%s' 2>/dev/null", dir);
    if ((p = popen(cmd, "r")) != NULL) {
        if (fscanf(p, "%llu", &kb) != 1)
            kb = 0;
        pclose(p);
    }
    return (uint64_t)kb * 1024;
}

/* The peer: the same batches through the Parquet file writer alone; returns seconds. */
static double run_parquet(int64_t rows, int64_t keys, int64_t every, const char *dir,
                          uint64_t *bytes, double *cpu)
{
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    paimon_error err;
    pm_fs *fs = pm_fs_local_new(false);
    pm_schema *s;
    pm_file_writer *fw = NULL;
    pm_batch **pool;
    char table[512], path[600], cmd[600];
    int64_t written = 0, since = 0, files = 0;
    double t0, c0, elapsed;

    snprintf(table, sizeof(table), "%s/parquet", dir);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", table);
    if (system(cmd) != 0)
        bench_die("rm", NULL);
    co.columns = "k BIGINT, v1 BIGINT, v2 DOUBLE, v3 INT, v4 STRING, v5 TIMESTAMP(3)";
    if (paimon_table_create(table, &co, &err) || pm_schema_read_latest(fs, table, &s, &err))
        bench_die("create", &err);
    pool = bench_write_pool(s->row, keys);
    t0 = bench_now();
    c0 = cpu_seconds();
    for (int64_t b = 0; written < rows; b++) {
        pm_batch *batch = pool[b % BENCH_WRITE_POOL];
        if (fw == NULL) {
            snprintf(path, sizeof(path), "%s/part-%lld.parquet", table, (long long)files++);
            if (pm_file_writer_open(&fw, &pm_parquet_file_format, fs, path, s->row, "zstd",
                                    &s->options, &err))
                bench_die("open", &err);
        }
        if (b >= BENCH_WRITE_POOL && b % BENCH_WRITE_POOL == 0)
            for (int p = 0; p < BENCH_WRITE_POOL; p++)
                bench_write_shift(pool[p], 7919, keys);
        if (pm_file_writer_write(fw, batch, 0, batch->row_count, &err))
            bench_die("write", &err);
        written += batch->row_count;
        since += batch->row_count;
        if (since >= every || written >= rows) {
            if (pm_file_writer_close(fw, NULL, &err))
                bench_die("close", &err);
            fw = NULL;
            since = 0;
        }
    }
    elapsed = bench_now() - t0;
    *cpu = cpu_seconds() - c0;
    for (int p = 0; p < BENCH_WRITE_POOL; p++)
        pm_batch_free(pool[p]);
    pm_free(pool);
    pm_schema_free(s);
    pm_fs_free(fs);
    *bytes = dir_bytes(table);
    return elapsed;
}

/* One run: creates a table, writes `rows` rows, commits every `every`; returns seconds. */
static const char *table_format = "parquet"; /* --format */

static double run(bool pk, const char *extra_key, const char *extra_value, int64_t rows,
                  int64_t keys, int64_t every, const char *buffer, const char *dir, uint64_t *bytes,
                  double *cpu)
{
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pks[1] = {"k"};
    const char *okeys[5] = {"bucket", "write-buffer-size", "target-file-size", "file.format",
                            extra_key};
    const char *ovals[5] = {"4", buffer, "256 mb", table_format, extra_value};
    paimon_error err;
    pm_fs *fs = pm_fs_local_new(false);
    pm_table_write *w = NULL;
    pm_batch **pool;
    char table[512], cmd[600];
    int64_t written = 0, since = 0, ident = 0;
    double t0, c0, elapsed;

    snprintf(table, sizeof(table), "%s/%s", dir, pk ? "pk" : "append");
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", table);
    if (system(cmd) != 0)
        bench_die("rm", NULL);
    co.columns = "k BIGINT, v1 BIGINT, v2 DOUBLE, v3 INT, v4 STRING, v5 TIMESTAMP(3)";
    co.primary_keys = pk ? pks : NULL;
    co.primary_key_count = pk ? 1 : 0;
    co.option_keys = pk ? okeys : okeys + 1;
    co.option_values = pk ? ovals : ovals + 1;
    co.option_count = (pk ? 4 : 3) + (extra_key != NULL);
    if (paimon_table_create(table, &co, &err))
        bench_die("create", &err);
    {
        pm_schema *s;
        if (pm_schema_read_latest(fs, table, &s, &err))
            bench_die("schema", &err);
        pool = bench_write_pool(s->row, keys);
        pm_schema_free(s);
    }
    t0 = bench_now();
    c0 = cpu_seconds();
    for (int64_t b = 0; written < rows; b++) {
        pm_batch *batch = pool[b % BENCH_WRITE_POOL];
        if (w == NULL && pm_table_write_new(&w, fs, table, NULL, &err))
            bench_die("write", &err);
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
            pm_commit_messages_init(&m);
            if (pm_table_write_prepare(w, &m, &err))
                bench_die("prepare", &err);
            memset(&o, 0, sizeof(o));
            o.commit_user = "bench";
            o.identifier = ident++;
            if (pm_commit(fs, table, &m, &o, &id, &err))
                bench_die("commit", &err);
            pm_commit_messages_release(&m);
            since = 0;
        }
    }
    elapsed = bench_now() - t0;
    *cpu = cpu_seconds() - c0;
    pm_table_write_free(w);
    for (int p = 0; p < BENCH_WRITE_POOL; p++)
        pm_batch_free(pool[p]);
    pm_free(pool);
    pm_fs_free(fs);
    *bytes = dir_bytes(table);
    return elapsed;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    int64_t rows = 10000000, keys = 2000000, every = 1000000;
    const char *buffer = "256 mb", *dir = getenv("BENCH_DIR");
    int runs = 3;
    char tmpl[] = "/tmp/bench_write_XXXXXX";
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--rows") == 0 && i + 1 < argc)
            rows = atoll(argv[++i]);
        else if (strcmp(argv[i], "--keys") == 0 && i + 1 < argc)
            keys = atoll(argv[++i]);
        else if (strcmp(argv[i], "--commit-every") == 0 && i + 1 < argc)
            every = atoll(argv[++i]);
        else if (strcmp(argv[i], "--buffer") == 0 && i + 1 < argc)
            buffer = argv[++i];
        else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc)
            table_format = argv[++i];
    }
    if (dir == NULL && (dir = mkdtemp(tmpl)) == NULL)
        return 1;
    printf("bench_write %s: %lld rows, %lld keys, commit every %lld, write-buffer-size %s, "
           "file.format %s, %d runs\n",
           mode, (long long)rows, (long long)keys, (long long)every, buffer, table_format, runs);
    {
        static const char *const NAMES[5] = {"primary-key", "append", "parquet", "lookup",
                                             "deletion-vectors"};
        static const char *const TITLES[5] = {
            "primary-key upsert ingest", "append ingest", "peer (Parquet writer alone)",
            "primary-key upsert ingest, changelog-producer=lookup",
            "primary-key upsert ingest, deletion-vectors.enabled"};
        /* the option each primary-key kind adds to the table */
        static const char *const EXTRA_KEY[5] = {NULL, NULL, NULL, "changelog-producer",
                                                 "deletion-vectors.enabled"};
        static const char *const EXTRA_VALUE[5] = {NULL, NULL, NULL, "lookup", "true"};
        double rate[5][16], crate[5][16];
        bool on[5];
        int n = runs < 16 ? runs : 16;
        bool lookup = strcmp(mode, "lookup") == 0;
        on[0] = strcmp(mode, "all") == 0 || strcmp(mode, "pk") == 0 || lookup;
        on[1] = strcmp(mode, "all") == 0 || strcmp(mode, "append") == 0;
        on[2] = strcmp(mode, "all") == 0 || strcmp(mode, "parquet") == 0;
        on[3] = on[4] = lookup;
        for (int r = 0; r < n; r++)
            for (int kind = 0; kind < 5; kind++) {
                uint64_t bytes = 0;
                double secs, cpu;
                if (!on[kind])
                    continue;
                secs = kind == 2 ? run_parquet(rows, keys, every, dir, &bytes, &cpu)
                                 : run(kind != 1, EXTRA_KEY[kind], EXTRA_VALUE[kind], rows, keys,
                                       every, buffer, dir, &bytes, &cpu);
                rate[kind][r] = (double)rows / secs;
                crate[kind][r] = (double)rows / cpu;
                printf("  %s run %d: %.2f s wall, %.2f s CPU; %.0f rows/s (wall), %.0f rows/s "
                       "(CPU); %.1f MB of files\n",
                       NAMES[kind], r + 1, secs, cpu, rate[kind][r], crate[kind][r],
                       (double)bytes / 1e6);
                fflush(stdout);
            }
        for (int kind = 0; kind < 5; kind++)
            if (on[kind])
                printf("%s: median %.0f rows/s wall-clock, %.0f rows/s per CPU second\n",
                       TITLES[kind], bench_median(rate[kind], (size_t)n),
                       bench_median(crate[kind], (size_t)n));
        if (on[2] && (on[0] || on[1])) {
            double peer = bench_median(crate[2], (size_t)n);
            for (int kind = 0; kind < 2; kind++)
                if (on[kind])
                    printf("%s / peer (CPU rates): %.2f\n", NAMES[kind],
                           bench_median(crate[kind], (size_t)n) / peer);
        }
        for (int kind = 3; kind < 5; kind++)
            if (on[kind] && on[0])
                printf("%s / primary-key (same run; target >= 0.5): %.2f wall, %.2f CPU\n",
                       NAMES[kind],
                       bench_median(rate[kind], (size_t)n) / bench_median(rate[0], (size_t)n),
                       bench_median(crate[kind], (size_t)n) / bench_median(crate[0], (size_t)n));
    }
    printf("peak RSS: %.1f MB\n", (double)bench_peak_rss_kb() / 1024.0);
    {
        char cmd[600];
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
        if (getenv("BENCH_DIR") == NULL && system(cmd) != 0)
            return 1;
    }
    return 0;
}
