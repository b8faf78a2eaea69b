/*
 * paimon-c: expiring a table's old snapshots by hand (Java's expire_snapshots procedure).
 *
 * Every commit of a writer that is not `write-only` already expires snapshots with the
 * table's options (snapshot.num-retained.min/max, snapshot.time-retained,
 * snapshot.expire.limit; behaviour.md §8.1).  paimon_table_expire() runs the same
 * expiration now, with any of those values overridden for this run, and can say what it
 * would do without doing it.  Snapshots that a consumer (consumer/consumer-<id>) has not
 * read yet, the files of tags and the files the retained snapshots use are never removed.
 * Where the table keeps changelogs longer than snapshots (changelog.num-retained.*,
 * changelog.time-retained), expired snapshots become `changelog/changelog-<id>` and those
 * expire by the changelog values, in the same call.
 *
 *   paimon_expire_options o = PAIMON_EXPIRE_OPTIONS_INIT;
 *   paimon_expire_result r = PAIMON_EXPIRE_RESULT_INIT;
 *   o.retain_max = 5;
 *   o.older_than = "1 d";
 *   paimon_table_expire(table, &o, &r, &err);   // r.snapshots, r.files
 *
 * Thread safety: one thread per table handle; expirations of one table from several
 * processes are safe (each removes only what no retained snapshot or tag names).
 */
#ifndef PAIMON_EXPIRE_H
#define PAIMON_EXPIRE_H

#include <stdint.h>

#include "paimon/error.h"
#include "paimon/table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What to expire.  Version the struct with PAIMON_EXPIRE_OPTIONS_INIT or
 * paimon_expire_options_init(); NULL options are the table's own values. */
typedef struct paimon_expire_options {
    unsigned int version;   /* PAIMON_EXPIRE_OPTIONS_VERSION */
    int64_t retain_min;     /* >= 1: keep at least this many snapshots; 0: the table's
                               snapshot.num-retained.min */
    int64_t retain_max;     /* >= 1: keep at most this many; 0: snapshot.num-retained.max */
    const char *older_than; /* a duration in Java's grammar ("1 h", "30 min", "2 d"): snapshots
                               committed before now minus it may go (Java's procedure takes
                               the timestamp instead); NULL: snapshot.time-retained */
    int64_t max_deletes;    /* >= 1: expire at most this many snapshots; 0:
                               snapshot.expire.limit */
    int dry_run;            /* count what would be removed, remove nothing */
} paimon_expire_options;

#define PAIMON_EXPIRE_OPTIONS_VERSION 1
#define PAIMON_EXPIRE_OPTIONS_INIT                                                                 \
    {                                                                                              \
        PAIMON_EXPIRE_OPTIONS_VERSION, 0, 0, NULL, 0, 0                                            \
    }

/* Fills `options` with the defaults of version `version` of the struct, as
 * PAIMON_EXPIRE_OPTIONS_INIT does.  0, or PAIMON_EINVALID for a version this library does not
 * know. */
PAIMON_API int paimon_expire_options_init(paimon_expire_options *options, unsigned int version);

/* What an expiration did (or, dry, would do).  The caller sets `version`
 * (PAIMON_EXPIRE_RESULT_INIT); the call fills the rest. */
typedef struct paimon_expire_result {
    unsigned int version; /* PAIMON_EXPIRE_RESULT_VERSION */
    int64_t snapshots;    /* snapshot files removed */
    int64_t changelogs;   /* long-lived changelog files removed */
    int64_t files;        /* data, changelog, index, manifest and statistics files removed */
    int64_t first;        /* the snapshots expired are [first, end); equal when none */
    int64_t end;
} paimon_expire_result;

#define PAIMON_EXPIRE_RESULT_VERSION 1
#define PAIMON_EXPIRE_RESULT_INIT                                                                  \
    {                                                                                              \
        PAIMON_EXPIRE_RESULT_VERSION, 0, 0, 0, 0, 0                                                \
    }

/* Expires snapshots of `table` (and long-lived changelogs, where the table keeps them) as
 * described above; `options` may be NULL, `result` may be NULL.  PAIMON_EINVALID, with
 * nothing removed, for a negative value, an older_than that does not parse, retain_min < 1
 * or a retain_max below retain_min (Java's check).  A failure part-way leaves every retained
 * snapshot and tag readable, and the next expiration (or commit) finishes the job. */
PAIMON_API int paimon_table_expire(paimon_table *table, const paimon_expire_options *options,
                                   paimon_expire_result *result, paimon_error *err);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_EXPIRE_H */
