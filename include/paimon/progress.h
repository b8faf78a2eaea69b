/*
 * paimon-c: how far long work has got.  The library counts, for the whole process, the data
 * files it has finished writing (with their rows and bytes) and the files snapshot
 * expiration has removed (orphan removal reports each file to its own callback).  A
 * progress display samples the counters while a write, compaction or expiration runs, and
 * shows the difference from the values it read when the work started.
 *
 * Thread safety: paimon_progress_read() may be called from any thread at any time, also
 * while other threads work; each counter only grows.
 */
#ifndef PAIMON_PROGRESS_H
#define PAIMON_PROGRESS_H

#include <stdint.h>

#include "paimon/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct paimon_progress {
    int64_t files_written; /* data files finished (writes and compactions) */
    int64_t rows_written;  /* their rows */
    int64_t bytes_written; /* their bytes */
    int64_t files_removed; /* files removed by snapshot expiration */
} paimon_progress;

/* The counters now, since the process started. */
PAIMON_API void paimon_progress_read(paimon_progress *out);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_PROGRESS_H */
