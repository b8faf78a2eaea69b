/*
 * Process-wide progress counters (issue 18): how much long work has done so far, read by a
 * command's progress line while the work runs (include/paimon/progress.h).  The library adds
 * to them where work completes: a data file finished (format/file_writer.c), a file removed
 * by expiration (table/expire_files.c).
 *
 * Thread safety: every function may be called from any thread (relaxed atomics: each counter
 * only grows, and a reader wants a recent value, not a consistent snapshot of all of them).
 */
#ifndef PM_UTIL_PROGRESS_H
#define PM_UTIL_PROGRESS_H

#include <stdint.h>

typedef enum pm_progress_counter {
    PM_PROGRESS_FILES_WRITTEN, /* data files finished */
    PM_PROGRESS_ROWS_WRITTEN,  /* their rows */
    PM_PROGRESS_BYTES_WRITTEN, /* their bytes */
    PM_PROGRESS_FILES_REMOVED, /* files removed by snapshot expiration */
    PM_PROGRESS_COUNTERS
} pm_progress_counter;

void pm_progress_add(pm_progress_counter c, int64_t n);
int64_t pm_progress_get(pm_progress_counter c);

#endif /* PM_UTIL_PROGRESS_H */
