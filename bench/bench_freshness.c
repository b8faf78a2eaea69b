/*
 * Freshness of `paimon tail --follow` (issue 13's figure): from the moment a commit returns to
 * the moment the follower prints that commit's first row, over COMMITS commits on a local
 * disk (target: median < 50 ms, 99th percentile < 200 ms), and the CPU an idle follower uses
 * (target: < 1% of a core).
 *
 * The workload: a primary-key table (id BIGINT, v STRING; bucket 1) written through the
 * public API by this process, one row per commit (id = the commit's number), a commit every
 * 20 to 80 ms (uniformly random).  The follower is the real command, `paimon tail TABLE
 * --follow --mode latest --format jsonl` (run from the path given with --paimon), its standard
 * output a pipe this process reads on a thread, taking the time each line arrives; a line's
 * id names the commit it belongs to.  The follower is measured in two modes in the same run,
 * alternating, each with a fresh table:
 *
 *   inotify  the default: the follower waits on inotify for the table's snapshot/ directory;
 *   polling  the peer: `--no-inotify`, polling every 100 ms (paimon-c's fallback; Java's
 *            default continuous.discovery-interval is 10 s, which would give a median near
 *            5 s).
 *
 * Each latency is also given from the start of the commit call (open a writer, write the row,
 * prepare, commit: an upper bound that does not depend on when the call returns).  A row
 * printed before paimon_table_commit() returned (the snapshot is published before the
 * call writes the LATEST hint and runs the post-commit upkeep) counts 0 ms.
 *
 * Then, for each mode, an idle follower (no commits) for IDLE seconds: the CPU time it ran
 * (/proc/<pid>/schedstat, nanoseconds), as a share of one core.
 *
 *   bench_freshness --paimon PATH [--commits N] [--idle SECONDS] [--dir DIR]
 *
 * Defaults: 200 commits, 10 s idle, DIR /tmp/paimon-bench-freshness (removed first).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "paimon.h"

#define MAX_COMMITS 100000

typedef struct follower {
    pid_t pid;
    FILE *out;       /* its standard output */
    double *arrived; /* [id]: when the first line of commit `id` arrived, 0 before */
    long commits;
    pthread_t thread;
} follower;

static void *read_lines(void *arg)
{
    follower *f = arg;
    char line[4096];
    while (fgets(line, sizeof(line), f->out) != NULL) {
        double now = bench_now();
        const char *p = strstr(line, "\"id\":");
        long id;
        if (p == NULL)
            continue;
        id = strtol(p + 5, NULL, 10);
        if (id >= 0 && id < f->commits && f->arrived[id] == 0)
            f->arrived[id] = now;
    }
    return NULL;
}

static void start_follower(follower *f, const char *paimon, const char *table, bool polling)
{
    int fds[2];
    if (pipe(fds) != 0)
        bench_die("pipe", NULL);
    f->pid = fork();
    if (f->pid < 0)
        bench_die("fork", NULL);
    if (f->pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        if (polling)
            execl(paimon, paimon, "tail", table, "--follow", "--mode", "latest", "--format",
                  "jsonl", "--no-inotify", (char *)NULL);
        else
            execl(paimon, paimon, "tail", table, "--follow", "--mode", "latest", "--format",
                  "jsonl", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    f->out = fdopen(fds[0], "r");
    if (pthread_create(&f->thread, NULL, read_lines, f) != 0)
        bench_die("pthread_create", NULL);
}

static void stop_follower(follower *f)
{
    int status;
    kill(f->pid, SIGTERM);
    waitpid(f->pid, &status, 0);
    pthread_join(f->thread, NULL);
    fclose(f->out);
}

/* CPU seconds process `pid` has run (/proc/PID/schedstat, nanoseconds: the clock ticks of
 * /proc/PID/stat are 10 ms, too coarse for an idle process). */
static double proc_cpu(pid_t pid)
{
    char path[64];
    unsigned long long ns = 0;
    FILE *fp;
    snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
    if ((fp = fopen(path, "r")) == NULL || fscanf(fp, "%llu", &ns) != 1)
        bench_die("read /proc/PID/schedstat", NULL);
    fclose(fp);
    return (double)ns / 1e9;
}

static void make_table(const char *path)
{
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    paimon_error err = {0, {0}};
    const char *pk[] = {"id"};
    const char *keys[] = {"bucket"}, *vals[] = {"1"};
    co.columns = "id BIGINT NOT NULL, v STRING";
    co.primary_keys = pk;
    co.primary_key_count = 1;
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = 1;
    if (paimon_table_create(path, &co, &err) != 0)
        bench_die("create", &err);
}

/* One commit of row (id, "v"); returns when paimon_table_commit() returned. */
static void commit_one(paimon_table *t, int64_t id)
{
    paimon_error err = {0, {0}};
    paimon_writer *w = NULL;
    paimon_commit_messages *m = NULL;
    paimon_value row[2];
    row[0].type = PAIMON_VALUE_INT;
    row[0].v.i = id;
    row[1].type = PAIMON_VALUE_TEXT;
    row[1].v.s.ptr = "v";
    row[1].v.s.len = 1;
    if (paimon_writer_open(&w, t, NULL, &err) != 0 || paimon_commit_messages_new(&m, &err) != 0 ||
        paimon_writer_write_row(w, row, 2, PAIMON_ROW_INSERT, &err) != 0 ||
        paimon_writer_prepare_commit(w, m, &err) != 0 ||
        paimon_table_commit(t, m, NULL, NULL, &err) != 0)
        bench_die("commit", &err);
    paimon_commit_messages_free(m);
    paimon_writer_free(w);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Commits `n` rows while a follower runs; prints median, p99 and max latency in ms. */
static void run_freshness(const char *paimon, const char *dir, const char *mode, long n,
                          uint64_t *rng, double *median_out)
{
    char table[4096];
    paimon_table *t = NULL;
    paimon_error err = {0, {0}};
    follower f;
    double *committed = calloc((size_t)n, sizeof(double)), *lat = calloc((size_t)n, sizeof(double));
    double *started = calloc((size_t)n, sizeof(double)),
           *from_start = calloc((size_t)n, sizeof(double));
    long missing = 0, early = 0;
    snprintf(table, sizeof(table), "%s/%s", dir, mode);
    make_table(table);
    if (paimon_table_open(&t, table, &err) != 0)
        bench_die("open", &err);
    memset(&f, 0, sizeof(f));
    f.commits = n;
    f.arrived = calloc((size_t)n, sizeof(double));
    start_follower(&f, paimon, table, strcmp(mode, "polling") == 0);
    usleep(300000); /* the follower is up and waiting */
    for (long i = 0; i < n; i++) {
        struct timespec ts = {0, (long)(20 + bench_xorshift(rng) % 61) * 1000000L};
        started[i] = bench_now();
        commit_one(t, i);
        committed[i] = bench_now();
        nanosleep(&ts, NULL);
    }
    usleep(500000);
    stop_follower(&f);
    for (long i = 0; i < n; i++) {
        if (f.arrived[i] == 0) {
            missing++;
            continue;
        }
        lat[i - missing] = (f.arrived[i] - committed[i]) * 1000.0;
        from_start[i - missing] = (f.arrived[i] - started[i]) * 1000.0;
        /* printed before paimon_table_commit() returned (it still writes the LATEST hint
         * and runs the post-commit upkeep after the snapshot is published): 0 */
        if (lat[i - missing] < 0) {
            lat[i - missing] = 0;
            early++;
        }
    }
    qsort(lat, (size_t)(n - missing), sizeof(double), cmp_double);
    qsort(from_start, (size_t)(n - missing), sizeof(double), cmp_double);
    if (missing > 0)
        fprintf(stderr, "bench_freshness: %s: %ld commits never printed\n", mode, missing);
    {
        long m = n - missing;
        double med = m > 0 ? (m % 2 ? lat[m / 2] : (lat[m / 2 - 1] + lat[m / 2]) / 2) : 0;
        double p99 = m > 0 ? lat[(size_t)((double)(m - 1) * 0.99)] : 0;
        printf("%-8s commits %ld  latency ms: median %.2f  p99 %.2f  max %.2f  (%ld printed "
               "before the commit call returned: 0)\n",
               mode, n, med, p99, m > 0 ? lat[m - 1] : 0, early);
        med = m > 0 ? (m % 2 ? from_start[m / 2] : (from_start[m / 2 - 1] + from_start[m / 2]) / 2)
                    : 0;
        p99 = m > 0 ? from_start[(size_t)((double)(m - 1) * 0.99)] : 0;
        printf("%-8s from the commit call's start, ms: median %.2f  p99 %.2f  max %.2f\n", mode,
               med, p99, m > 0 ? from_start[m - 1] : 0);
        *median_out = med;
    }
    paimon_table_free(t);
    free(committed);
    free(lat);
    free(started);
    free(from_start);
    free(f.arrived);
}

/* An idle follower's CPU share over `seconds`. */
static double run_idle(const char *paimon, const char *dir, const char *mode, int seconds)
{
    char table[4096];
    follower f;
    double c0, c1, t0, t1;
    snprintf(table, sizeof(table), "%s/%s", dir, mode); /* the table of run_freshness */
    memset(&f, 0, sizeof(f));
    f.commits = 0;
    start_follower(&f, paimon, table, strcmp(mode, "polling") == 0);
    usleep(500000);
    c0 = proc_cpu(f.pid);
    t0 = bench_now();
    sleep((unsigned)seconds);
    c1 = proc_cpu(f.pid);
    t1 = bench_now();
    stop_follower(&f);
    printf("%-8s idle %.1f s: CPU %.3f s = %.3f%% of a core\n", mode, t1 - t0, c1 - c0,
           100.0 * (c1 - c0) / (t1 - t0));
    return 100.0 * (c1 - c0) / (t1 - t0);
}

int main(int argc, char **argv)
{
    const char *paimon = NULL, *dir = "/tmp/paimon-bench-freshness";
    long commits = 200;
    int idle = 10;
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    char cmd[4200];
    double med_inotify = 0, med_polling = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--paimon") == 0 && i + 1 < argc)
            paimon = argv[++i];
        else if (strcmp(argv[i], "--commits") == 0 && i + 1 < argc)
            commits = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--idle") == 0 && i + 1 < argc)
            idle = (int)strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
            dir = argv[++i];
        else {
            fprintf(stderr, "usage: bench_freshness --paimon PATH [--commits N] [--idle S] "
                            "[--dir DIR]\n");
            return 2;
        }
    }
    if (paimon == NULL || commits < 1 || commits > MAX_COMMITS || idle < 1) {
        fprintf(stderr, "bench_freshness: --paimon PATH is required; 1 <= commits <= %d\n",
                MAX_COMMITS);
        return 2;
    }
    snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    if (system(cmd) != 0)
        bench_die("prepare the directory", NULL);
    run_freshness(paimon, dir, "inotify", commits, &rng, &med_inotify);
    run_freshness(paimon, dir, "polling", commits, &rng, &med_polling);
    printf("median ratio polling / inotify (from the commit call's start): %.1f\n",
           med_inotify > 0 ? med_polling / med_inotify : 0.0);
    run_idle(paimon, dir, "inotify", idle);
    run_idle(paimon, dir, "polling", idle);
    return 0;
}
