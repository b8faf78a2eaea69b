/*
 * Choosing the snapshot a read sees (behaviour.md §7.1–7.2): the latest, a snapshot id, a
 * tag, or time travel to a timestamp.
 *
 * Time travel follows Java's SnapshotManager.earlierOrEqualTimeMills exactly: a binary
 * search over the ids from the earliest to the latest snapshot for a snapshot whose commit
 * time is at or before the timestamp.  With distinct commit times that is the latest one
 * committed at or before it; where several snapshots share a millisecond, Java's search
 * picks one of them by its probe order, and so does this one, so both read the same rows.
 */
#ifndef PM_TABLE_SNAPSHOT_SELECT_H
#define PM_TABLE_SNAPSHOT_SELECT_H

#include "table/table.h"
#include "util/error.h"

typedef enum pm_snapshot_by {
    PM_SNAPSHOT_LATEST,
    PM_SNAPSHOT_ID,
    PM_SNAPSHOT_TAG,
    PM_SNAPSHOT_TIMESTAMP
} pm_snapshot_by;

typedef struct pm_snapshot_selector {
    pm_snapshot_by by;
    int64_t id;        /* PM_SNAPSHOT_ID */
    const char *tag;   /* PM_SNAPSHOT_TAG */
    int64_t timestamp; /* PM_SNAPSHOT_TIMESTAMP: epoch milliseconds */
} pm_snapshot_selector;

/* The selected snapshot; PAIMON_ENOTFOUND (naming the table and what was asked) when there
 * is none.  Caller owns `*out`; release with pm_snapshot_free(). */
PM_MUST_CHECK int pm_table_select_snapshot(paimon_table *t, const pm_snapshot_selector *sel,
                                           pm_snapshot **out, paimon_error *err);

#endif /* PM_TABLE_SNAPSHOT_SELECT_H */
