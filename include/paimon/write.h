/*
 * paimon-c: changing tables: schema changes and commits.
 *
 * Schema changes write the next schema file with the create-if-absent protocol and Java's
 * rules on what may change (paimon_table_alter).
 *
 * Commits publish new data files as the next snapshot, atomically (snapshot-N is created
 * only if absent) and safely beside other writers: a commit that loses the race re-reads
 * the latest snapshot, checks for conflicts and retries with backoff up to
 * commit.max-retries.  A commit is described by a paimon_commit_messages set, filled by
 * writers (one per thread; merge the sets) and committed once.
 *
 * Thread safety: one thread per handle at a time; different paimon_commit_messages may be
 * filled by different threads and merged with paimon_commit_messages_merge().
 */
#ifndef PAIMON_WRITE_H
#define PAIMON_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "paimon/error.h"
#include "paimon/table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- schema changes -------------------------------------------------------------------- */

typedef enum paimon_alter_kind {
    PAIMON_ALTER_ADD_COLUMN = 1, /* column: "NAME TYPE [COMMENT '...']"; after / first */
    PAIMON_ALTER_DROP_COLUMN,    /* column: the name */
    PAIMON_ALTER_RENAME_COLUMN,  /* column: old name; value: new name */
    PAIMON_ALTER_ALTER_TYPE,     /* column: the name; value: the new type ("BIGINT") */
    PAIMON_ALTER_SET_OPTION,     /* column: the option key; value: its value */
    PAIMON_ALTER_REMOVE_OPTION   /* column: the option key */
} paimon_alter_kind;

/* One schema change.  Version the struct with PAIMON_ALTER_INIT. */
typedef struct paimon_alter {
    unsigned int version; /* PAIMON_ALTER_VERSION */
    paimon_alter_kind kind;
    const char *column; /* see paimon_alter_kind */
    const char *value;  /* see paimon_alter_kind */
    const char *after;  /* ADD_COLUMN: place after this column, or NULL */
    int first;          /* ADD_COLUMN: place first */
} paimon_alter;

#define PAIMON_ALTER_VERSION 1
#define PAIMON_ALTER_INIT                                                                          \
    {                                                                                              \
        PAIMON_ALTER_VERSION, PAIMON_ALTER_ADD_COLUMN, NULL, NULL, NULL, 0                         \
    }

/* Applies one change to the table at `path` and writes the next schema.  `*schema_id`
 * (may be NULL) receives the new schema id.  PAIMON_EINVALID for a change Java rejects
 * (the message says why), PAIMON_EUNSUPPORTED for changes Java does not support yet
 * (immutable options, bucket to or from -1, ...), PAIMON_ENOTFOUND for unknown columns. */
PAIMON_API int paimon_table_alter(const char *path, const paimon_alter *change, int64_t *schema_id,
                                  paimon_error *err);

/* ---- commits --------------------------------------------------------------------------- */

/* What writers produced and a commit publishes: new and removed data files per partition
 * and bucket, changelog files and index-file changes. */
typedef struct paimon_commit_messages paimon_commit_messages;

/* Caller owns `*out`; release with paimon_commit_messages_free(). */
PAIMON_API int paimon_commit_messages_new(paimon_commit_messages **out, paimon_error *err);
PAIMON_API void paimon_commit_messages_free(paimon_commit_messages *messages);
/* Moves every message of `src` into `dst` (src is left empty). */
PAIMON_API int paimon_commit_messages_merge(paimon_commit_messages *dst,
                                            paimon_commit_messages *src, paimon_error *err);
/* Data files the messages add (the number of ADD entries). */
PAIMON_API size_t paimon_commit_messages_count(const paimon_commit_messages *messages);

typedef struct paimon_commit_options {
    unsigned int version;         /* PAIMON_COMMIT_OPTIONS_VERSION */
    const char *commit_user;      /* stable per writer; NULL: a fresh UUID */
    int64_t identifier;           /* strictly increasing per user; batch commits use INT64_MAX */
    int overwrite;                /* replace data: the partitions below, or as Java decides */
    const char *const *partition; /* overwrite only: "k=v" items naming the partitions */
    size_t partition_count;
} paimon_commit_options;

#define PAIMON_COMMIT_OPTIONS_VERSION 1
#define PAIMON_COMMIT_OPTIONS_INIT                                                                 \
    {                                                                                              \
        PAIMON_COMMIT_OPTIONS_VERSION, NULL, INT64_MAX, 0, NULL, 0                                 \
    }

/* Commits `messages` to `table`.  `*snapshot_id` (may be NULL) receives the id of the new
 * snapshot, or 0 when there was nothing to commit (empty commits are skipped, as Java's
 * batch commits do).  PAIMON_ECONFLICT when a concurrent commit conflicts (the message
 * says with what) or the retries ran out.  The messages are not consumed. */
PAIMON_API int paimon_table_commit(paimon_table *table, const paimon_commit_messages *messages,
                                   const paimon_commit_options *options, int64_t *snapshot_id,
                                   paimon_error *err);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_WRITE_H */
