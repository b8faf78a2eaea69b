/*
 * Managing a table's consumers (behaviour.md §7.5): the `consumer/consumer-<id>` files a
 * streaming reader with `consumer-id` keeps its position in, listed, moved and removed by
 * hand, as Java 1.4.2's ConsumerManager, ResetConsumerAction and the `$consumers` system
 * table do.  The streaming reader writes them itself (meta/snapshot.h pm_consumer_write);
 * their expiration by `consumer.expiration-time` runs after commits (table/maintain.h).
 *
 * Where this differs from Java on purpose: Java's reset of an id that has no file creates
 * it and its delete of one is quiet; here both are PAIMON_ENOTFOUND naming the consumer, as
 * the command line contract wants an unknown consumer to be an error (issue 13).  A consumer
 * id is one plain file-name component (meta/file_path.h); anything else is PAIMON_EINVALID.
 */
#ifndef PM_TABLE_CONSUMERS_H
#define PM_TABLE_CONSUMERS_H

#include <stddef.h>
#include <stdint.h>

#include "table/table.h"
#include "util/error.h"

typedef struct pm_consumer_entry {
    char *id;              /* owned */
    int64_t next_snapshot; /* the snapshot the consumer reads next */
} pm_consumer_entry;

/* Every consumer with its position, sorted by id.  A consumer file that goes while it is
 * listed is left out (Java's consumers() skips it too).  Caller owns `*out` (NULL when
 * there is none); release with pm_consumer_entries_free(). */
PM_MUST_CHECK int pm_consumers_list(pm_fs *fs, const char *table, pm_consumer_entry **out,
                                    size_t *count, paimon_error *err);
void pm_consumer_entries_free(pm_consumer_entry *entries, size_t count);

/* PAIMON_EINVALID "TABLE: consumer id 'ID' is not a plain name" unless `id` is one plain
 * path component. */
PM_MUST_CHECK int pm_consumer_id_check(const char *table, const char *id, paimon_error *err);

/* Moves consumer `id` to read snapshot `next_snapshot` next.  The consumer must exist and
 * the snapshot too (Java's ResetConsumerAction reads it first): PAIMON_ENOTFOUND naming
 * what is missing, and nothing written. */
PM_MUST_CHECK int pm_consumer_reset(paimon_table *t, const char *id, int64_t next_snapshot,
                                    paimon_error *err);

/* Removes consumer `id`: PAIMON_ENOTFOUND naming it when it does not exist. */
PM_MUST_CHECK int pm_consumer_delete(paimon_table *t, const char *id, paimon_error *err);

#endif /* PM_TABLE_CONSUMERS_H */
