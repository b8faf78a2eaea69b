/*
 * Waiting for a directory to change: how a streaming read learns of a new snapshot within a
 * few milliseconds without burning a core.
 *
 * On Linux a watch holds an inotify descriptor on one local directory (a table's
 * `snapshot/`) and wakes on any file created, written or renamed into it, which is how a
 * commit publishes snapshot-<id> and LATEST.  A wait always ends after at most the polling
 * interval too, so a change the kernel does not report (a network file system, a directory
 * that did not exist yet, another process's fs that is not local) is still seen within one
 * interval: without inotify the watch simply polls.  Spurious wake-ups are allowed; the
 * caller re-checks the table.
 *
 * A wait interrupted by a signal returns at once, so a caller's signal handler that sets a
 * flag is noticed without delay.
 *
 * Thread safety: one thread per watch at a time.
 */
#ifndef PM_IO_WATCH_H
#define PM_IO_WATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "util/error.h"

typedef struct pm_watch pm_watch;

/* Watches directory `dir` (a local path) with inotify when `use_inotify` and the system
 * allows it, else polls; `interval_ms` (>= 1) bounds every wait.  Never fails for a missing
 * directory (it is watched once it appears).  Caller owns `*out`; release with
 * pm_watch_free(). */
PM_MUST_CHECK int pm_watch_open(pm_watch **out, const char *dir, bool use_inotify,
                                int64_t interval_ms, paimon_error *err);
void pm_watch_free(pm_watch *w);

/* Whether the watch is currently served by inotify (false: polling). */
bool pm_watch_notified(const pm_watch *w);

/* Waits until the directory changes, `timeout_ms` passes (0: do not wait; < 0: up to the
 * interval), the polling interval passes, or a signal arrives (*interrupted set; may be
 * NULL): 0 in every case.  A change seen before the call (and not yet consumed) ends the
 * wait at once. */
int pm_watch_wait(pm_watch *w, int64_t timeout_ms, bool *interrupted);

#endif /* PM_IO_WATCH_H */
