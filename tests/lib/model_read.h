/*
 * Reading a model table (model_state.h) back through the public API: the batch read of the
 * latest snapshot as a state, and the change stream of a range of snapshots (what
 * `paimon tail` prints) as records, snapshot by snapshot.
 */
#ifndef PM_TEST_MODEL_READ_H
#define PM_TEST_MODEL_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model_state.h"

/* Reads the latest snapshot of `table` into `out`: 0, or -1 with what went wrong in msg
 * (an error, a malformed value, a key read twice). */
int pm_model_read_state(const char *table, pm_model_state *out, char *msg, size_t cap);

#define PM_MODEL_MAX_SNAPSHOTS 8 /* snapshots one commit or compaction makes, at most */

/* One snapshot of a change range. */
typedef struct pm_model_change_snapshot {
    int64_t id;
    char commit_kind[16]; /* "APPEND", "COMPACT", ... */
    bool read;            /* Java's streaming read reads it (paimon_changes_snapshot.read) */
    size_t first;         /* its changes: records[first .. first + count) */
    size_t count;
} pm_model_change_snapshot;

/* The changes of a range of snapshots, in stream order. */
typedef struct pm_model_changes {
    pm_model_record *records; /* owned; pm_model_changes_free */
    size_t count;
    size_t cap;
    pm_model_change_snapshot snapshots[PM_MODEL_MAX_SNAPSHOTS];
    size_t snapshot_count;
} pm_model_changes;

/* Reads the changes of snapshots first..last (first <= last) into `out` (initialised here):
 * 0, or -1 with what went wrong in msg.  Release with pm_model_changes_free, also on failure. */
int pm_model_read_changes(const char *table, int64_t first, int64_t last, pm_model_changes *out,
                          char *msg, size_t cap);
void pm_model_changes_free(pm_model_changes *c);

#endif
