/*
 * Compaction throughput (issue 7's figure): one bucket of a primary-key table (BIGINT key,
 * INT, BIGINT, DOUBLE and 16-byte STRING values, deduplicate, Parquet, ZSTD, write-only so
 * the writes leave everything in level 0) holds RUNS commits of ROWS rows each, written
 * through the table write (each commit one sorted run of level-0 files; keys drawn from a
 * space of ROWS * RUNS * 100 / DENSITY keys, so runs overlap and share keys).  Then, REPEATS
 * times: a full compaction of the bucket into the max level on one thread (the dedicated
 * job, pm_table_compact with full), timed, after which the table is put back (the COMPACT
 * snapshot and the files it wrote removed).  Beside it, in the same run, the peer: a plain
 * full scan (merge-on-read) of the same uncompacted table, and the scan after compaction.
 *
 *   bench_compact [ROWS] [RUNS] [REPEATS] [DENSITY] [DIR]
 *
 * Prints MB/s of input file bytes (wall and CPU), and the read amplification before and
 * after: the sorted runs a read merges and the files a full scan opens.
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "io/fs.h"
#include "meta/file_entry.h"
#include "meta/snapshot.h"
#include "paimon.h"
#include "table/commit.h"
#include "table/compact.h"
#include "table/write/table_write.h"
#include "util/alloc.h"
#include "util/strlist.h"

static int density = 50;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

static void die(const paimon_error *err)
{
    fprintf(stderr, "bench_compact: %s\n", err->message);
    exit(1);
}

static void create_table(const char *path)
{
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pk[1] = {"k"};
    const char *keys[3] = {"bucket", "write-only", "num-sorted-run.compaction-trigger"};
    const char *vals[3] = {"1", "true", "20"};
    paimon_error err;
    co.columns = "k BIGINT NOT NULL, v1 INT, v2 BIGINT, v3 DOUBLE, v4 STRING";
    co.primary_keys = pk;
    co.primary_key_count = 1;
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = 3;
    if (paimon_table_create(path, &co, &err) != 0)
        die(&err);
}

/* One commit of `rows` rows (run number `run`). */
static void write_run(pm_fs *fs, const char *path, int64_t rows, int run, int runs)
{
    pm_table_write *w = NULL;
    pm_table_write_opts wo = {false, "bench", false};
    pm_commit_messages m;
    pm_commit_opts o;
    pm_batch *b = NULL;
    paimon_error err;
    int64_t id, space = rows * runs * 100 / (density > 0 ? density : 100);
    pm_commit_messages_init(&m);
    if (pm_table_write_new(&w, fs, path, &wo, &err) != 0 ||
        pm_batch_new(&b, pm_table_write_type(w), &err) != 0)
        die(&err);
    for (int64_t done = 0; done < rows;) {
        int64_t n = rows - done < 65536 ? rows - done : 65536;
        pm_batch_reset(b);
        for (int64_t i = 0; i < n; i++) {
            uint64_t h = mix((uint64_t)(run * rows + done + i) * 2654435761u + 17);
            char s[17];
            for (int c = 0; c < 16; c++)
                s[c] = (char)('a' + (h >> (c * 4) & 15));
            pm_column_append_i64(b->columns[0], (int64_t)(h % (uint64_t)space));
            pm_column_append_i64(b->columns[1], (int64_t)(h >> 40));
            pm_column_append_i64(b->columns[2], (int64_t)(h >> 8));
            pm_column_append_f64(b->columns[3], (double)(h % 100000) / 7.0);
            pm_column_append_bytes(b->columns[4], s, 16);
        }
        if (pm_batch_set_rows(b, n, &err) != 0 || pm_table_write_batch(w, b, NULL, &err) != 0)
            die(&err);
        done += n;
    }
    if (pm_table_write_prepare(w, &m, &err) != 0)
        die(&err);
    memset(&o, 0, sizeof(o));
    o.commit_user = "bench";
    o.identifier = run;
    if (pm_commit(fs, path, &m, &o, &id, &err) != 0)
        die(&err);
    pm_batch_free(b);
    pm_table_write_free(w);
    pm_commit_messages_release(&m);
}

/* Live files, their bytes, and the sorted runs a read of the bucket merges. */
static void shape(pm_fs *fs, const char *path, int64_t *files, int64_t *bytes, int64_t *runs,
                  int64_t *snapshot)
{
    pm_snapshot *s = NULL;
    pm_arena arena;
    const pm_manifest_entry **live = NULL;
    size_t n = 0;
    bool found, level[64] = {false};
    paimon_error err;
    pm_arena_init(&arena, 1 << 16);
    if (pm_snapshot_latest_id(fs, path, snapshot, &found, &err) != 0 ||
        pm_snapshot_read(fs, path, *snapshot, &s, &err) != 0 ||
        pm_snapshot_live_entries(fs, path, s, &arena, &live, &n, &err) != 0)
        die(&err);
    *files = (int64_t)n;
    *bytes = *runs = 0;
    for (size_t i = 0; i < n; i++) {
        *bytes += live[i]->file.file_size;
        if (live[i]->file.level == 0)
            (*runs)++;
        else if (!level[live[i]->file.level & 63]) {
            level[live[i]->file.level & 63] = true;
            (*runs)++;
        }
    }
    pm_snapshot_free(s);
    pm_arena_free(&arena);
}

static double scan_all(const char *path, int64_t *rows, double *cpu)
{
    paimon_table *t = NULL;
    paimon_scan *s = NULL;
    paimon_error err;
    double t0 = bench_now(), c0 = bench_cpu_now();
    *rows = 0;
    if (paimon_table_open(&t, path, &err) != 0 || paimon_table_scan(&s, t, NULL, &err) != 0)
        die(&err);
    for (size_t i = 0; i < paimon_scan_split_count(s); i++) {
        struct ArrowArrayStream st;
        struct ArrowArray a;
        if (bench_split_stream(s, i, &st, &err) != 0)
            die(&err);
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

static void list_dir(const char *dir, pm_strlist *out)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            pm_strlist_push(out, e->d_name);
    closedir(d);
}

/* Puts the table back at snapshot `id`: removes later snapshots and the data files not in
 * `keep` (the files the compaction wrote). */
static void restore(pm_fs *fs, const char *path, int64_t id, const pm_strlist *keep)
{
    char p[1024];
    pm_strlist now;
    paimon_error err;
    bool found;
    int64_t latest;
    pm_strlist_init(&now);
    snprintf(p, sizeof(p), "%s/bucket-0", path);
    list_dir(p, &now);
    for (size_t i = 0; i < now.count; i++) {
        bool kept = false;
        for (size_t j = 0; j < keep->count && !kept; j++)
            kept = strcmp(keep->items[j], now.items[i]) == 0;
        if (!kept) {
            snprintf(p, sizeof(p), "%s/bucket-0/%s", path, now.items[i]);
            remove(p);
        }
    }
    pm_strlist_free(&now);
    if (pm_snapshot_latest_id(fs, path, &latest, &found, &err) != 0)
        die(&err);
    for (int64_t s = id + 1; s <= latest; s++) {
        snprintf(p, sizeof(p), "%s/snapshot/snapshot-%" PRId64, path, s);
        remove(p);
    }
    PM_IGNORE(pm_snapshot_write_hint(fs, path, "LATEST", id, &err));
}

int main(int argc, char **argv)
{
    int64_t rows = argc > 1 ? atoll(argv[1]) : 3000000;
    int runs = argc > 2 ? atoi(argv[2]) : 10, repeats = argc > 3 ? atoi(argv[3]) : 3;
    const char *dir = argc > 5 ? argv[5] : "/tmp/paimon-bench-compact";
    char path[512], cmd[600], bucket[600];
    double ct[32], cc[32], st[32], sc[32], at[32], ac[32];
    int64_t files, bytes, nruns, snap, files2, bytes2, runs2, snap2, scanned = 0, after_rows = 0;
    pm_fs *fs = pm_fs_local_new(false);
    pm_strlist keep;
    double t0;
    bench_heap_init("bench_compact");
    if (repeats < 1 || repeats > 32)
        repeats = 3;
    density = argc > 4 ? atoi(argv[4]) : 50;
    if (density <= 0 || density > 100)
        density = 50;
    snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    if (system(cmd) != 0 || fs == NULL)
        return 1;
    snprintf(path, sizeof(path), "%s/t", dir);
    create_table(path);
    t0 = bench_now();
    for (int r = 0; r < runs; r++)
        write_run(fs, path, rows, r, runs);
    shape(fs, path, &files, &bytes, &nruns, &snap);
    printf("table: %d commits x %" PRId64 " rows (density %d%%), %" PRId64 " files, %.1f MB, "
           "%" PRId64 " sorted runs, written in %.1f s\n",
           runs, rows, density, files, (double)bytes / 1e6, nruns, bench_now() - t0);
    pm_strlist_init(&keep);
    snprintf(bucket, sizeof(bucket), "%s/bucket-0", path);
    list_dir(bucket, &keep);
    for (int r = 0; r < repeats; r++) {
        pm_compact_opts o;
        paimon_error err;
        int64_t id, before, after;
        double c0;
        st[r] = scan_all(path, &scanned, &sc[r]);
        memset(&o, 0, sizeof(o));
        o.full = true;
        o.threads = 1; /* the per-core figure: no read-ahead on the pool */
        o.commit_user = "bench-compact";
        t0 = bench_now();
        c0 = bench_cpu_now();
        if (pm_table_compact(fs, path, &o, &id, &before, &after, &err) != 0)
            die(&err);
        ct[r] = bench_now() - t0;
        cc[r] = bench_cpu_now() - c0;
        shape(fs, path, &files2, &bytes2, &runs2, &snap2);
        at[r] = scan_all(path, &after_rows, &ac[r]);
        printf("repeat %d: compaction %.2f s (CPU %.2f s) = %.1f MB/s; scan before %.2f s, "
               "after %.2f s; %" PRId64 " files -> %" PRId64 " (%.1f MB)\n",
               r + 1, ct[r], cc[r], (double)bytes / 1e6 / ct[r], st[r], at[r], before, after,
               (double)bytes2 / 1e6);
        if (after_rows != scanned) {
            fprintf(stderr, "rows differ after compaction: %" PRId64 " vs %" PRId64 "\n",
                    after_rows, scanned);
            return 1;
        }
        restore(fs, path, snap, &keep);
    }
    {
        double mct = bench_median(ct, (size_t)repeats), mcc = bench_median(cc, (size_t)repeats);
        double mst = bench_median(st, (size_t)repeats), msc = bench_median(sc, (size_t)repeats);
        double mat = bench_median(at, (size_t)repeats), mac = bench_median(ac, (size_t)repeats);
        printf("input %.1f MB in %" PRId64 " files, %" PRId64 " rows read\n", (double)bytes / 1e6,
               files, scanned);
        printf("full compaction, median of %d: %.2f s wall = %.1f MB/s (CPU %.2f s = %.1f MB/s)\n",
               repeats, mct, (double)bytes / 1e6 / mct, mcc, (double)bytes / 1e6 / mcc);
        printf("peer, merge-on-read scan of the same table: %.2f s wall = %.1f MB/s (CPU %.2f s); "
               "compaction / scan time %.2fx\n",
               mst, (double)bytes / 1e6 / mst, msc, mct / mst);
        printf("read amplification: before %" PRId64 " sorted runs, %" PRId64
               " files per full scan; after %" PRId64 " run(s), %" PRId64
               " file(s); scan after %.2f s (CPU %.2f s), %.1fx faster\n",
               nruns, files, runs2, files2, mat, mac, mst / mat);
        printf("peak RSS %.1f MB\n", (double)bench_peak_rss_kb() / 1024.0);
    }
    pm_strlist_free(&keep);
    pm_fs_free(fs);
    return 0;
}
