/* Waiting for a directory to change: see watch.h. */
#include "io/watch.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/inotify.h>
#define PM_HAVE_INOTIFY 1
#else
#define PM_HAVE_INOTIFY 0
#endif

#include "util/alloc.h"

struct pm_watch {
    char *dir;
    bool use_inotify;
    int fd; /* the inotify descriptor, or -1 */
    int wd; /* the watch on `dir`, or -1 while it is not watched */
    int64_t interval_ms;
};

/* Adds the watch on the directory once it exists (a table's snapshot/ appears with its
 * first commit). */
static void arm(pm_watch *w)
{
#if PM_HAVE_INOTIFY
    if (w->fd < 0 || w->wd >= 0)
        return;
    w->wd = inotify_add_watch(w->fd, w->dir, IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE);
#else
    (void)w;
#endif
}

int pm_watch_open(pm_watch **out, const char *dir, bool use_inotify, int64_t interval_ms,
                  paimon_error *err)
{
    pm_watch *w = pm_calloc(1, sizeof(*w));
    *out = NULL;
    if (w == NULL || (w->dir = pm_strdup(dir)) == NULL) {
        pm_free(w);
        return pm_nomem(err);
    }
    w->fd = -1;
    w->wd = -1;
    w->interval_ms = interval_ms < 1 ? 1 : interval_ms;
    w->use_inotify = use_inotify;
#if PM_HAVE_INOTIFY
    if (use_inotify)
        w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
#endif
    arm(w);
    *out = w;
    return 0;
}

void pm_watch_free(pm_watch *w)
{
    if (w == NULL)
        return;
    if (w->fd >= 0)
        close(w->fd);
    pm_free(w->dir);
    pm_free(w);
}

bool pm_watch_notified(const pm_watch *w)
{
    return w != NULL && w->fd >= 0 && w->wd >= 0;
}

/* Reads and forgets every pending event. */
static void drain(pm_watch *w)
{
    char buf[4096] __attribute__((aligned(8)));
    while (read(w->fd, buf, sizeof(buf)) > 0) {
    }
}

int pm_watch_wait(pm_watch *w, int64_t timeout_ms, bool *interrupted)
{
    int64_t wait = timeout_ms < 0 || timeout_ms > w->interval_ms ? w->interval_ms : timeout_ms;
    bool intr = false;
    arm(w);
    if (w->fd >= 0 && w->wd >= 0) {
        struct pollfd p = {w->fd, POLLIN, 0};
        int n = poll(&p, 1, (int)wait);
        if (n > 0)
            drain(w);
        intr = n < 0 && errno == EINTR;
    } else if (wait > 0) {
        struct timespec ts = {(time_t)(wait / 1000), (long)(wait % 1000) * 1000000L};
        intr = nanosleep(&ts, NULL) != 0 && errno == EINTR;
    }
    if (interrupted != NULL)
        *interrupted = intr;
    return 0;
}
