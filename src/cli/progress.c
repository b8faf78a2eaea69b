/* The progress line of long commands: see progress.h. */
#include "progress.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "paimon.h"

#define REDRAW_MS 250

bool cli_progress_quiet = false;

static struct {
    bool on;                /* a line is being shown */
    const char *what;       /* the command */
    cli_progress_kind kind; /* what is counted */
    paimon_progress base;   /* the library's counters at the start */
    struct timespec start;  /* CLOCK_MONOTONIC at the start */
    _Atomic int64_t rows;   /* CLI_PROGRESS_OUTPUT */
    _Atomic int64_t files;  /* CLI_PROGRESS_OUTPUT */
    _Atomic int64_t bytes;  /* CLI_PROGRESS_OUTPUT */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool stop; /* under lock */
} P = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER};

static double elapsed_s(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - P.start.tv_sec) + (double)(now.tv_nsec - P.start.tv_nsec) / 1e9;
}

static void human(char *buf, size_t len, double bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) {
        bytes /= 1024;
        u++;
    }
    snprintf(buf, len, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
}

/* One line: "\rWHAT: ..." padded over what the previous draw left. */
static void draw(bool last)
{
    paimon_progress now;
    double secs = elapsed_s(), bytes;
    int64_t files, rows;
    const char *verb;
    char b[32], rate[32];

    paimon_progress_read(&now);
    switch (P.kind) {
    case CLI_PROGRESS_WRITTEN:
        files = now.files_written - P.base.files_written;
        rows = now.rows_written - P.base.rows_written;
        bytes = (double)(now.bytes_written - P.base.bytes_written);
        verb = "written";
        break;
    case CLI_PROGRESS_REMOVED:
        files = now.files_removed - P.base.files_removed;
        rows = -1;
        bytes = -1;
        verb = "removed";
        break;
    default: {
        int64_t added = atomic_load(&P.bytes);
        off_t pos = added > 0 ? 0 : ftello(stdout);
        files = atomic_load(&P.files);
        rows = atomic_load(&P.rows);
        bytes = added > 0 ? (double)added : pos > 0 ? (double)pos : -1;
        verb = "done";
    }
    }
    fprintf(stderr, "\r%s: ", P.what);
    if (files > 0 || P.kind != CLI_PROGRESS_OUTPUT)
        fprintf(stderr, "%lld file%s%s", (long long)files, files == 1 ? "" : "s",
                rows >= 0 ? ", " : "");
    if (rows >= 0)
        fprintf(stderr, "%lld rows", (long long)rows);
    if (bytes >= 0) {
        human(b, sizeof(b), bytes);
        human(rate, sizeof(rate), secs > 0 ? bytes / secs : 0);
        fprintf(stderr, ", %s %s, %s/s", b, verb, rate);
    } else {
        fprintf(stderr, " %s", verb);
    }
    fprintf(stderr, ", %.1f s%s", secs, last ? "\033[K\n" : "\033[K");
    fflush(stderr);
}

static void *run(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&P.lock);
    while (!P.stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += REDRAW_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&P.wake, &P.lock, &until);
        if (!P.stop)
            draw(false);
    }
    pthread_mutex_unlock(&P.lock);
    return NULL;
}

void cli_progress_start(const char *what, cli_progress_kind kind)
{
    if (P.on || cli_progress_quiet || !isatty(STDERR_FILENO) ||
        (kind == CLI_PROGRESS_OUTPUT && isatty(STDOUT_FILENO)))
        return;
    P.what = what;
    P.kind = kind;
    paimon_progress_read(&P.base);
    clock_gettime(CLOCK_MONOTONIC, &P.start);
    atomic_store(&P.rows, 0);
    atomic_store(&P.files, 0);
    atomic_store(&P.bytes, 0);
    P.stop = false;
    if (pthread_create(&P.thread, NULL, run, NULL) != 0)
        return; /* no line rather than no command */
    P.on = true;
}

void cli_progress_add(int64_t rows, int64_t files, int64_t bytes)
{
    if (!P.on)
        return;
    atomic_fetch_add_explicit(&P.rows, rows, memory_order_relaxed);
    atomic_fetch_add_explicit(&P.files, files, memory_order_relaxed);
    atomic_fetch_add_explicit(&P.bytes, bytes, memory_order_relaxed);
}

void cli_progress_end(void)
{
    if (!P.on)
        return;
    pthread_mutex_lock(&P.lock);
    P.stop = true;
    pthread_cond_signal(&P.wake);
    pthread_mutex_unlock(&P.lock);
    pthread_join(P.thread, NULL);
    draw(true);
    P.on = false;
}
