/*
 * paimon-c: a table's consumers (behaviour.md §7.5).
 *
 * A consumer is a named position of a streaming reader: the file `consumer/consumer-<ID>`
 * holds `{"nextSnapshot" : N}`, the snapshot the reader reads next, as Java Paimon 1.4.2
 * writes it.  Snapshot expiration keeps every snapshot from the smallest such N on.  These
 * functions list consumers and move or remove one by hand, as Java's `reset_consumer`
 * procedure and `$consumers` system table do.
 *
 *   paimon_consumer_info *cs;
 *   size_t n;
 *   paimon_table_consumers(table, &cs, &n, &err);
 *   for (size_t i = 0; i < n; i++) printf("%s %lld\n", cs[i].id, (long long)cs[i].next_snapshot);
 *   paimon_consumers_free(cs, n);
 *   paimon_consumer_reset(table, "etl", 42, &err);
 *
 * Unlike Java, resetting or deleting a consumer that does not exist is an error
 * (PAIMON_ENOTFOUND naming it): a typo must not create a consumer that pins snapshots, nor
 * pass for a deletion.  A consumer id is one plain file-name component (PAIMON_EINVALID
 * otherwise).
 *
 * Thread safety: as the table handle (one thread at a time); the files may be changed by
 * other processes meanwhile, each change being one atomic file write or removal.
 */
#ifndef PAIMON_CONSUMER_H
#define PAIMON_CONSUMER_H

#include <stddef.h>
#include <stdint.h>

#include "paimon/error.h"
#include "paimon/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct paimon_consumer_info {
    const char *id;        /* the consumer id */
    int64_t next_snapshot; /* the snapshot it reads next */
} paimon_consumer_info;

/* Every consumer of the table, sorted by id.  `*out` is NULL when there is none.  Caller
 * owns `*out`; release with paimon_consumers_free(*out, *count). */
PAIMON_API int paimon_table_consumers(paimon_table *table, paimon_consumer_info **out,
                                      size_t *count, paimon_error *err);
PAIMON_API void paimon_consumers_free(paimon_consumer_info *consumers, size_t count);

/* Sets consumer `id` to read snapshot `next_snapshot` next.  PAIMON_ENOTFOUND when the
 * consumer or the snapshot does not exist (nothing is written). */
PAIMON_API int paimon_consumer_reset(paimon_table *table, const char *id, int64_t next_snapshot,
                                     paimon_error *err);

/* Removes consumer `id`; PAIMON_ENOTFOUND when it does not exist. */
PAIMON_API int paimon_consumer_delete(paimon_table *table, const char *id, paimon_error *err);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_CONSUMER_H */
