/*
 * Many small commits with compaction on (issue 7's figure): "after 1,000 commits of 10,000
 * upserts each with compaction on, files per bucket stay bounded and a full scan runs at no
 * less than 80% of the speed on a fully compacted table".
 *
 * The table: a primary-key table (k BIGINT NOT NULL, v1 INT, v2 BIGINT, v3 DOUBLE, v4 STRING
 * of 16 characters) with Java's defaults (deduplicate, Parquet, zstd, write-buffer-size
 * 256 mb, target-file-size 128 mb, num-sorted-run.compaction-trigger 5, universal
 * compaction in the writer) and `bucket` = BUCKETS (default 1: the whole table holds at most
 * KEYS rows, tens of MB, well under the 200 MB to 1 GB per bucket that Paimon's docs advise;
 * --buckets 2 shows the per-bucket bound holds for each bucket).
 *
 * The workload, all through the public API (paimon/write.h, paimon/scan.h, paimon/inspect.h):
 * one writer kept open across commits, as a streaming Flink job keeps its writers (or, with
 * --reopen, a writer opened and freed for each commit, which restores the bucket's files from
 * the latest snapshot each time); COMMITS commits of ROWS upserts each (Arrow batches of keys
 * drawn uniformly from [0, KEYS), so later commits overwrite existing keys), each prepared
 * and committed with an increasing identifier (the checkpoint id).  The writer compacts
 * after its flushes as Java's writers do, so a commit publishes an APPEND snapshot and,
 * when the strategy picked a unit, a COMPACT one.
 *
 * After every commit (outside the timed part) it takes the table's shape, so the bounds it
 * reports (files and sorted runs per bucket, live manifests) hold for every snapshot the
 * writer published, not only for the samples.  Every EVERY commits it prints: live files per
 * bucket (max and mean), sorted runs per bucket (max), the level histogram of all live files,
 * the times of the last EVERY commits (mean and max of write + prepare + commit, and of
 * paimon_table_commit alone: the manifest layer's share), the manifests of the latest snapshot
 * (count and bytes) and of the manifest/ directory (everything written, since nothing expires
 * within the hour Java keeps snapshots), the time to plan a full scan, and one full scan: its
 * CPU rate and the read amplification (rows in the live files / rows returned).  At the end:
 * the ingest rate, then, SCANS times each, a full scan (plan + merge-on-read of every split)
 * of the table as the writers left it, a full compaction (paimon_table_compact with full), and
 * a full scan of the compacted table; the medians and their ratio (speed as left / speed
 * compacted, wall and CPU; the target is >= 0.80), and the checkpoint scans' rates against the
 * compacted table's.  CPU seconds are the figure a shared, loaded machine still measures fairly
 * (every scan runs on one thread).  Every row of one scan before and one after the compaction
 * is checked against the last value written for its key (the bench keeps them), so a wrong
 * merge fails the bench rather than flattering it.  --option adds table options (to compare
 * compaction settings).
 *
 *   bench_commits [--commits N] [--rows N] [--keys N] [--buckets N] [--every N]
 *                 [--scans N] [--reopen] [--option KEY=VALUE]... [--dir DIR]
 *
 * Defaults: 1,000 commits, 10,000 rows, 1,000,000 keys, 1 bucket, every 100, 3 scans,
 * DIR /tmp/paimon-bench-commits (removed first, left for inspection).
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_util.h"
#include "paimon.h"

#define MAX_BUCKETS 64
#define MAX_LEVELS  16
#define MAX_SCANS   16
#define MAX_OPTIONS 8

static const char *COLUMNS = "k BIGINT NOT NULL, v1 INT, v2 BIGINT, v3 DOUBLE, v4 STRING";

static uint64_t rng = 0x9E3779B97F4A7C15ull;

/* ---- one commit's rows as an Arrow struct array ------------------------------------------- */

/* The buffers of one batch; the arrays point into them (the writer copies what it is given,
 * so the release callbacks have nothing to free). */
typedef struct batch {
    int64_t rows;
    int64_t *k, *v2;
    int32_t *v1, *v4_offsets;
    double *v3;
    char *v4_data;
    const void *bufs[5][3];
    struct ArrowArray children[5], *child_ptrs[5], array;
} batch;

static void release_noop(struct ArrowArray *a)
{
    a->release = NULL;
}

static void batch_init(batch *b, int64_t rows)
{
    memset(b, 0, sizeof(*b));
    b->rows = rows;
    b->k = malloc((size_t)rows * sizeof(int64_t));
    b->v2 = malloc((size_t)rows * sizeof(int64_t));
    b->v1 = malloc((size_t)rows * sizeof(int32_t));
    b->v4_offsets = malloc((size_t)(rows + 1) * sizeof(int32_t));
    b->v3 = malloc((size_t)rows * sizeof(double));
    b->v4_data = malloc((size_t)rows * 16);
    if (b->k == NULL || b->v2 == NULL || b->v1 == NULL || b->v4_offsets == NULL || b->v3 == NULL ||
        b->v4_data == NULL)
        bench_die("out of memory", NULL);
}

static void batch_free(batch *b)
{
    free(b->k);
    free(b->v2);
    free(b->v1);
    free(b->v4_offsets);
    free(b->v3);
    free(b->v4_data);
}

/* Fills the rows of commit `commit`: v2 = the row's global number, which `last` records per
 * key (a later row of the same key, in this batch or a later one, overwrites it). */
static void batch_fill(batch *b, int64_t commit, int64_t keys, int64_t *last)
{
    for (int64_t i = 0; i < b->rows; i++) {
        uint64_t h = bench_xorshift(&rng);
        int64_t key = (int64_t)(h % (uint64_t)keys), seq = commit * b->rows + i;
        b->k[i] = key;
        b->v1[i] = (int32_t)(h >> 40);
        b->v2[i] = seq;
        b->v3[i] = (double)(h % 100000) / 7.0;
        b->v4_offsets[i] = (int32_t)(i * 16);
        for (int c = 0; c < 16; c++)
            b->v4_data[i * 16 + c] = (char)('a' + (h >> (c * 4) & 15));
        last[key] = seq;
    }
    b->v4_offsets[b->rows] = (int32_t)(b->rows * 16);
    for (int c = 0; c < 5; c++) {
        struct ArrowArray *a = &b->children[c];
        memset(a, 0, sizeof(*a));
        a->length = b->rows;
        a->n_buffers = c == 4 ? 3 : 2;
        a->buffers = b->bufs[c];
        a->release = release_noop;
        b->bufs[c][0] = NULL; /* no nulls */
        b->child_ptrs[c] = a;
    }
    b->bufs[0][1] = b->k;
    b->bufs[1][1] = b->v1;
    b->bufs[2][1] = b->v2;
    b->bufs[3][1] = b->v3;
    b->bufs[4][1] = b->v4_offsets;
    b->bufs[4][2] = b->v4_data;
    memset(&b->array, 0, sizeof(b->array));
    b->array.length = b->rows;
    b->array.n_buffers = 1;
    b->array.buffers = b->bufs[0]; /* buffers[0] is NULL: the struct has no nulls */
    b->array.n_children = 5;
    b->array.children = b->child_ptrs;
    b->array.release = release_noop;
}

/* ---- the table's shape -------------------------------------------------------------------- */

typedef struct shape {
    int64_t files, max_files, max_runs, bytes;
    int64_t rows; /* rows in the live files: what a merge-on-read scan decodes */
    int64_t levels[MAX_LEVELS];
    int64_t manifests, manifest_bytes; /* of the latest snapshot's base + delta lists */
} shape;

static void table_shape(paimon_table *t, int buckets, shape *s)
{
    paimon_list *files = NULL, *mans = NULL;
    paimon_error err;
    int64_t per_bucket[MAX_BUCKETS] = {0}, l0[MAX_BUCKETS] = {0};
    uint32_t above0[MAX_BUCKETS] = {0}; /* bit per non-empty level above 0 */
    memset(s, 0, sizeof(*s));
    if (paimon_table_files(t, PAIMON_LATEST_SNAPSHOT, &files, &err) != 0 ||
        paimon_table_manifests(t, PAIMON_LATEST_SNAPSHOT, &mans, &err) != 0)
        bench_die("inspect", &err);
    for (size_t i = 0; i < paimon_list_count(files); i++) {
        const paimon_file_info *f = paimon_list_file(files, i);
        if (f->bucket < 0 || f->bucket >= buckets || f->level < 0 || f->level >= MAX_LEVELS)
            bench_die("unexpected bucket or level", NULL);
        per_bucket[f->bucket]++;
        s->files++;
        s->bytes += f->file_size;
        s->rows += f->row_count;
        s->levels[f->level]++;
        if (f->level == 0)
            l0[f->bucket]++;
        else
            above0[f->bucket] |= 1u << f->level;
    }
    for (int b = 0; b < buckets; b++) {
        int64_t runs = l0[b] + __builtin_popcount(above0[b]);
        if (per_bucket[b] > s->max_files)
            s->max_files = per_bucket[b];
        if (runs > s->max_runs)
            s->max_runs = runs;
    }
    for (size_t i = 0; i < paimon_list_count(mans); i++) {
        const paimon_manifest_info *m = paimon_list_manifest(mans, i);
        if (strcmp(m->list_kind, "changelog") == 0)
            continue;
        s->manifests++;
        s->manifest_bytes += m->file_size;
    }
    paimon_list_free(files);
    paimon_list_free(mans);
}

/* Files and bytes in `dir` whose names start with `prefix` (manifest-, manifest-list-, ...). */
static void dir_usage(const char *dir, const char *prefix, const char *not_prefix, int64_t *count,
                      int64_t *bytes)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[1024];
    struct stat st;
    *count = *bytes = 0;
    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 ||
            (not_prefix != NULL && strncmp(e->d_name, not_prefix, strlen(not_prefix)) == 0))
            continue;
        snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
        if (stat(p, &st) == 0) {
            (*count)++;
            *bytes += st.st_size;
        }
    }
    closedir(d);
}

/* ---- scans -------------------------------------------------------------------------------- */

/* Plans a full scan of the latest snapshot; returns seconds, `*splits` the split count. */
static double plan_only(paimon_table *t, size_t *splits)
{
    paimon_scan *s = NULL;
    paimon_error err;
    double t0 = bench_now(), dt;
    if (paimon_table_scan(&s, t, NULL, &err) != 0)
        bench_die("plan", &err);
    dt = bench_now() - t0;
    *splits = paimon_scan_split_count(s);
    paimon_scan_free(s);
    return dt;
}

/* A full scan (plan and read every split); returns wall seconds, `*cpu` the CPU seconds.
 * With `last` set, checks every row: each key once, with the last v2 written for it;
 * `*rows` receives the rows read. */
static double scan_all(const char *path, const int64_t *last, int64_t keys, int64_t *rows,
                       double *cpu)
{
    paimon_table *t = NULL;
    paimon_scan *s = NULL;
    paimon_error err;
    unsigned char *seen = last != NULL ? calloc((size_t)keys, 1) : NULL;
    double t0 = bench_now(), c0 = bench_cpu_now(), dt;
    *rows = 0;
    if (paimon_table_open(&t, path, &err) != 0 || paimon_table_scan(&s, t, NULL, &err) != 0)
        bench_die("scan", &err);
    for (size_t i = 0; i < paimon_scan_split_count(s); i++) {
        struct ArrowArrayStream st;
        struct ArrowArray a;
        if (bench_split_stream(s, i, &st, &err) != 0)
            bench_die("read split", &err);
        while (st.get_next(&st, &a) == 0 && a.release != NULL) {
            if (last != NULL) {
                const struct ArrowArray *kc = a.children[0], *vc = a.children[2];
                const int64_t *k = (const int64_t *)kc->buffers[1] + kc->offset;
                const int64_t *v2 = (const int64_t *)vc->buffers[1] + vc->offset;
                for (int64_t r = 0; r < a.length; r++) {
                    if (k[r] < 0 || k[r] >= keys || seen[k[r]] || last[k[r]] != v2[r]) {
                        fprintf(stderr,
                                "bench_commits: wrong row: k %" PRId64 " v2 %" PRId64
                                ", expected v2 %" PRId64 "%s\n",
                                k[r], v2[r], k[r] >= 0 && k[r] < keys ? last[k[r]] : -1,
                                k[r] >= 0 && k[r] < keys && seen[k[r]] ? " (key seen twice)" : "");
                        exit(1);
                    }
                    seen[k[r]] = 1;
                }
            }
            *rows += a.length;
            a.release(&a);
        }
        if (st.get_last_error(&st) != NULL)
            bench_die("read", NULL);
        st.release(&st);
    }
    dt = bench_now() - t0;
    *cpu = bench_cpu_now() - c0;
    paimon_scan_free(s);
    paimon_table_free(t);
    free(seen);
    return dt;
}

/* SCANS timed scans after one checking scan: the median wall time, `*cpu` the median CPU. */
static double scan_median(const char *path, const int64_t *last, int64_t keys, int64_t distinct,
                          int scans, const char *what, double *cpu)
{
    double times[MAX_SCANS], cpus[MAX_SCANS], wall;
    int64_t rows;
    scan_all(path, last, keys, &rows, &cpus[0]);
    if (rows != distinct) {
        fprintf(stderr, "bench_commits: %s: %" PRId64 " rows, expected %" PRId64 "\n", what, rows,
                distinct);
        exit(1);
    }
    for (int i = 0; i < scans; i++) {
        times[i] = scan_all(path, NULL, keys, &rows, &cpus[i]);
        printf("  scan %s %d: %.3f s (CPU %.3f s), %" PRId64 " rows\n", what, i + 1, times[i],
               cpus[i], rows);
    }
    wall = bench_median(times, (size_t)scans);
    *cpu = bench_median(cpus, (size_t)scans);
    return wall;
}

/* ---- the workload ------------------------------------------------------------------------- */

static void create_table(const char *path, int buckets, const char *const *opt_keys,
                         const char *const *opt_vals, size_t opt_count)
{
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pk[1] = {"k"};
    const char *keys[MAX_OPTIONS + 1] = {"bucket"};
    char val[16];
    const char *vals[MAX_OPTIONS + 1] = {val};
    paimon_error err;
    snprintf(val, sizeof(val), "%d", buckets);
    for (size_t i = 0; i < opt_count; i++) {
        keys[i + 1] = opt_keys[i];
        vals[i + 1] = opt_vals[i];
        printf("option %s = %s\n", opt_keys[i], opt_vals[i]);
    }
    co.columns = COLUMNS;
    co.primary_keys = pk;
    co.primary_key_count = 1;
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = opt_count + 1;
    if (paimon_table_create(path, &co, &err) != 0)
        bench_die("create", &err);
}

static double scan_all(const char *path, const int64_t *last, int64_t keys, int64_t *rows,
                       double *cpu);

/* One checkpoint's line; returns the output rows per second of a full scan. */
static double print_shape(paimon_table *t, const char *path, int buckets, int64_t commit,
                          const double *commit_times, int64_t every, int64_t n, double elapsed,
                          int64_t keys)
{
    shape s;
    char mdir[600], hist[256];
    int64_t mcount, mbytes, lcount, lbytes, snap;
    size_t splits, off = 0;
    double mean = 0, max = 0, cmean = 0, cmax = 0, plan, scan, scan_cpu;
    int64_t scanned;
    paimon_list *snaps = NULL;
    paimon_error err;
    table_shape(t, buckets, &s);
    snprintf(mdir, sizeof(mdir), "%s/manifest", path);
    dir_usage(mdir, "manifest-", "manifest-list-", &mcount, &mbytes);
    dir_usage(mdir, "manifest-list-", NULL, &lcount, &lbytes);
    for (int64_t i = 0; i < n; i++) {
        mean += commit_times[i];
        if (commit_times[i] > max)
            max = commit_times[i];
        cmean += commit_times[every + i];
        if (commit_times[every + i] > cmax)
            cmax = commit_times[every + i];
    }
    mean = n > 0 ? mean / (double)n : 0;
    cmean = n > 0 ? cmean / (double)n : 0;
    plan = plan_only(t, &splits);
    scan = scan_all(path, NULL, keys, &scanned, &scan_cpu);
    if (paimon_table_snapshots(t, &snaps, &err) != 0)
        bench_die("snapshots", &err);
    snap = (int64_t)paimon_list_count(snaps);
    paimon_list_free(snaps);
    hist[0] = '\0';
    for (int l = 0; l < MAX_LEVELS; l++)
        if (s.levels[l] > 0 && off < sizeof(hist))
            off += (size_t)snprintf(hist + off, sizeof(hist) - off, "%sL%d:%" PRId64,
                                    off > 0 ? " " : "", l, s.levels[l]);
    printf("commit %5" PRId64 " (%6.1f s): files/bucket max %" PRId64 " mean %.1f, runs/bucket max "
           "%" PRId64 ", levels [%s], %.1f MB; ms per commit mean %.1f max %.1f, of which "
           "paimon_table_commit mean %.1f max %.1f; snapshots %" PRId64 "; live manifests %" PRId64
           " (%.1f KB); manifest dir %" PRId64 " manifests %.1f MB + "
           "%" PRId64 " lists %.1f MB; plan %.1f ms; scan %.3f s (CPU %.3f s) = %.2f M rows/s "
           "(CPU), read amp %.2f\n",
           commit, elapsed, s.max_files, (double)s.files / buckets, s.max_runs, hist,
           (double)s.bytes / 1e6, mean * 1e3, max * 1e3, cmean * 1e3, cmax * 1e3, snap, s.manifests,
           (double)s.manifest_bytes / 1e3, mcount, (double)mbytes / 1e6, lcount,
           (double)lbytes / 1e6, plan * 1e3, scan, scan_cpu, (double)scanned / scan_cpu / 1e6,
           (double)s.rows / (double)scanned);
    fflush(stdout);
    return (double)scanned / scan_cpu;
}

int main(int argc, char **argv)
{
    int64_t commits = 1000, rows = 10000, keys = 1000000, every = 100, distinct = 0;
    int buckets = 1, scans = 3, reopen = 0;
    const char *dir = "/tmp/paimon-bench-commits";
    char path[512], cmd[1200];
    int64_t *last, max_files = 0, max_runs = 0, max_manifests = 0, checkpoints = 0;
    const char *opt_keys[MAX_OPTIONS], *opt_vals[MAX_OPTIONS];
    size_t opt_count = 0;
    double *ctimes, *rates, t_ingest = 0, c_ingest = 0, t_start, c_start, left, compacted,
                            t_compact;
    double left_cpu, compacted_cpu;
    paimon_table *t = NULL;
    paimon_writer *w = NULL;
    paimon_writer_options wo = PAIMON_WRITER_OPTIONS_INIT;
    struct ArrowSchema schema;
    paimon_error err;
    batch b;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--commits") == 0 && i + 1 < argc)
            commits = atoll(argv[++i]);
        else if (strcmp(argv[i], "--rows") == 0 && i + 1 < argc)
            rows = atoll(argv[++i]);
        else if (strcmp(argv[i], "--keys") == 0 && i + 1 < argc)
            keys = atoll(argv[++i]);
        else if (strcmp(argv[i], "--buckets") == 0 && i + 1 < argc)
            buckets = atoi(argv[++i]);
        else if (strcmp(argv[i], "--every") == 0 && i + 1 < argc)
            every = atoll(argv[++i]);
        else if (strcmp(argv[i], "--scans") == 0 && i + 1 < argc)
            scans = atoi(argv[++i]);
        else if (strcmp(argv[i], "--option") == 0 && i + 1 < argc && opt_count < MAX_OPTIONS &&
                 strchr(argv[i + 1], '=') != NULL) {
            char *kv = argv[++i], *eq = strchr(kv, '=');
            *eq = '\0';
            opt_keys[opt_count] = kv;
            opt_vals[opt_count++] = eq + 1;
        } else if (strcmp(argv[i], "--reopen") == 0)
            reopen = 1;
        else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
            dir = argv[++i];
        else {
            fprintf(stderr, "usage: bench_commits [--commits N] [--rows N] [--keys N] "
                            "[--buckets N] [--every N] [--scans N] [--reopen] [--option K=V]... "
                            "[--dir DIR]\n");
            return 2;
        }
    }
    if (commits < 1 || rows < 1 || keys < 1 || every < 1 || buckets < 1 || buckets > MAX_BUCKETS ||
        scans < 1 || scans > MAX_SCANS || rows > (1 << 26))
        bench_die("bad arguments", NULL);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    if (system(cmd) != 0)
        return 1;
    snprintf(path, sizeof(path), "%s/t", dir);
    create_table(path, buckets, opt_keys, opt_vals, opt_count);
    printf("bench_commits: %" PRId64 " commits x %" PRId64 " upserts over %" PRId64
           " keys, bucket %d, writer %s, table %s\n",
           commits, rows, keys, buckets, reopen ? "reopened each commit" : "kept open", path);
    last = malloc((size_t)keys * sizeof(int64_t));
    ctimes = malloc((size_t)every * 2 * sizeof(double)); /* total, then paimon_table_commit */
    rates = malloc((size_t)(commits / every + 1) * sizeof(double));
    if (last == NULL || ctimes == NULL || rates == NULL)
        bench_die("out of memory", NULL);
    for (int64_t i = 0; i < keys; i++)
        last[i] = -1;
    batch_init(&b, rows);
    wo.commit_user = "bench-commits";
    if (paimon_table_open(&t, path, &err) != 0)
        bench_die("open", &err);
    t_start = bench_now();
    c_start = bench_cpu_now();
    for (int64_t c = 0; c < commits; c++) {
        paimon_commit_messages *m = NULL;
        paimon_commit_options co = PAIMON_COMMIT_OPTIONS_INIT;
        double t0, t1, c0;
        batch_fill(&b, c, keys, last);
        t0 = bench_now();
        c0 = bench_cpu_now();
        if (w == NULL) {
            if (paimon_writer_open(&w, t, &wo, &err) != 0 ||
                paimon_writer_arrow_schema(w, &schema, &err) != 0)
                bench_die("writer", &err);
        }
        if (paimon_writer_write_arrow(w, &schema, &b.array, NULL, &err) != 0 ||
            paimon_commit_messages_new(&m, &err) != 0 ||
            paimon_writer_prepare_commit(w, m, &err) != 0)
            bench_die("write", &err);
        co.commit_user = wo.commit_user;
        co.identifier = c + 1;
        t1 = bench_now();
        if (paimon_table_commit(t, m, &co, NULL, &err) != 0)
            bench_die("commit", &err);
        ctimes[every + c % every] = bench_now() - t1;
        paimon_commit_messages_free(m);
        if (reopen) {
            schema.release(&schema);
            paimon_writer_free(w);
            w = NULL;
        }
        ctimes[c % every] = bench_now() - t0;
        t_ingest += ctimes[c % every];
        c_ingest += bench_cpu_now() - c0;
        {
            /* the bound is checked after every commit, not only at the checkpoints */
            shape s;
            table_shape(t, buckets, &s);
            if (s.max_files > max_files)
                max_files = s.max_files;
            if (s.max_runs > max_runs)
                max_runs = s.max_runs;
            if (s.manifests > max_manifests)
                max_manifests = s.manifests;
        }
        if ((c + 1) % every == 0 || c + 1 == commits) {
            rates[checkpoints++] = print_shape(t, path, buckets, c + 1, ctimes, every,
                                               c % every + 1, bench_now() - t_start, keys);
        }
    }
    if (w != NULL) {
        schema.release(&schema);
        paimon_writer_free(w);
    }
    for (int64_t i = 0; i < keys; i++)
        distinct += last[i] >= 0;
    printf("ingest: %" PRId64 " rows in %.1f s of write + prepare + commit = %.0f rows/s (CPU "
           "%.1f s = %.0f rows/s); %.1f s wall and %.1f s CPU with the checks; after every commit: "
           "files per bucket at "
           "most %" PRId64 ", sorted runs per bucket at most %" PRId64 ", live manifests at most "
           "%" PRId64 "\n",
           commits * rows, t_ingest, (double)(commits * rows) / t_ingest, c_ingest,
           (double)(commits * rows) / c_ingest, bench_now() - t_start, bench_cpu_now() - c_start,
           max_files, max_runs, max_manifests);
    left = scan_median(path, last, keys, distinct, scans, "as left", &left_cpu);
    {
        paimon_compact_options o = PAIMON_COMPACT_OPTIONS_INIT;
        int64_t id;
        shape s;
        double t0 = bench_now();
        o.full = 1;
        o.commit_user = "bench-commits-compact";
        if (paimon_table_compact(t, &o, &id, &err) != 0)
            bench_die("compact", &err);
        t_compact = bench_now() - t0;
        table_shape(t, buckets, &s);
        printf("full compaction: %.2f s, snapshot %" PRId64 "; now %" PRId64 " files, %.1f MB\n",
               t_compact, id, s.files, (double)s.bytes / 1e6);
    }
    compacted = scan_median(path, last, keys, distinct, scans, "compacted", &compacted_cpu);
    printf("full scan of %" PRId64 " rows, median of %d: as left %.3f s (CPU %.3f s), fully "
           "compacted %.3f s (CPU %.3f s); speed ratio %.2f wall, %.2f CPU (target >= 0.80)\n",
           distinct, scans, left, left_cpu, compacted, compacted_cpu, compacted / left,
           compacted_cpu / left_cpu);
    {
        /* the scans at the checkpoints against the compacted table's rate (rows/s; the
         * early checkpoints' tables hold fewer keys) */
        double worst = 1e300, sum = 0, full_rate = (double)distinct / compacted_cpu;
        for (int64_t i = 0; i < checkpoints; i++) {
            sum += rates[i] / full_rate;
            if (rates[i] / full_rate < worst)
                worst = rates[i] / full_rate;
        }
        printf("checkpoint scans against the compacted table's %.2f M rows/s (CPU): mean ratio "
               "%.2f, lowest %.2f\n",
               full_rate / 1e6, sum / (double)checkpoints, worst);
    }
    printf("peak RSS %.1f MB\n", (double)bench_peak_rss_kb() / 1024.0);
    paimon_table_free(t);
    batch_free(&b);
    free(last);
    free(ctimes);
    free(rates);
    return 0;
}
