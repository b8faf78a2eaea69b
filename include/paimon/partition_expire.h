/*
 * paimon-c: partition expiration (behaviour.md §8.6).
 *
 * Drops the partitions whose time is older than an expiration time, as Java Paimon 1.4.2's
 * `expire_partitions` procedure does: by `partition.expiration-strategy` values-time (the
 * time the partition values name, read with `partition.timestamp-pattern` and
 * `partition.timestamp-formatter`) or update-time (the last creation time of its files),
 * sorted, at most `partition.expiration-max-num`, each batch of
 * `partition.expiration-batch-size` one OVERWRITE snapshot deleting all their files.  A
 * writer that commits to a table setting `partition.expiration-time` does the same after its
 * commits, at most once per `partition.expiration-check-interval`.
 *
 *   paimon_expire_partitions_options o = PAIMON_EXPIRE_PARTITIONS_OPTIONS_INIT;
 *   paimon_expired_partitions *r;
 *   o.older_than = "7 d";
 *   paimon_table_expire_partitions(table, &o, &r, &err);
 *   for (size_t i = 0; i < r->count; i++) puts(r->partitions[i]);   // "dt=2026-01-01"
 *   paimon_expired_partitions_free(r);
 *
 * Thread safety: as the table handle.  Other writers may commit meanwhile: a drop that
 * meets a conflicting commit fails (nothing of that batch dropped) and may be rerun.
 */
#ifndef PAIMON_PARTITION_EXPIRE_H
#define PAIMON_PARTITION_EXPIRE_H

#include <stddef.h>
#include <stdint.h>

#include "paimon/error.h"
#include "paimon/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct paimon_expire_partitions_options {
    unsigned int version;   /* PAIMON_EXPIRE_PARTITIONS_OPTIONS_VERSION */
    const char *older_than; /* a duration ("7 d", "12 h", "30 min"): expire partitions
                               older than this; NULL: the table's partition.expiration-time */
    int dry_run;            /* nonzero: say what would be dropped, drop nothing */
    /* Options for this run over the table's (strategy, formatter, pattern, max-num, ...). */
    const char *const *option_keys;
    const char *const *option_values;
    size_t option_count;
} paimon_expire_partitions_options;

#define PAIMON_EXPIRE_PARTITIONS_OPTIONS_VERSION 1
#define PAIMON_EXPIRE_PARTITIONS_OPTIONS_INIT                                                      \
    {                                                                                              \
        PAIMON_EXPIRE_PARTITIONS_OPTIONS_VERSION, NULL, 0, NULL, NULL, 0                           \
    }

typedef struct paimon_expired_partitions {
    char **partitions; /* "k=v, k2=v2" as Java's procedure prints them, in the order dropped */
    size_t count;
    int64_t snapshot_id; /* the last snapshot made, 0 when none (nothing expired, dry run) */
} paimon_expired_partitions;

/* Fills `options` with the defaults of version `version` of the struct, as
 * PAIMON_EXPIRE_PARTITIONS_OPTIONS_INIT does.  0, or PAIMON_EINVALID for an unknown version. */
PAIMON_API int paimon_expire_partitions_options_init(paimon_expire_partitions_options *options,
                                                     unsigned int version);

/* Expires partitions.  PAIMON_EINVALID for a malformed duration or option value;
 * PAIMON_EUNSUPPORTED when the table has no partition keys, when no expiration time is
 * given nor set, or for a timestamp formatter paimon-c cannot read.  Caller owns `*out`; release with
 * paimon_expired_partitions_free(). */
PAIMON_API int paimon_table_expire_partitions(paimon_table *table,
                                              const paimon_expire_partitions_options *options,
                                              paimon_expired_partitions **out, paimon_error *err);
PAIMON_API void paimon_expired_partitions_free(paimon_expired_partitions *result);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_PARTITION_EXPIRE_H */
