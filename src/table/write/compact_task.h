/*
 * One compaction of a primary-key bucket (Java MergeTreeCompactTask over
 * MergeTreeCompactRewriter; behaviour.md §3.4): the files of a picked unit become files of
 * the output level.
 *
 *  - The unit's files are cut into sections (table/interval_partition.h).
 *  - A section of several runs is always rewritten.  A one-run section is walked file by
 *    file: files smaller than compactionFileSize (target-file-size / 10 * 7) gather as
 *    rewrite candidates; a larger file first rewrites the candidates gathered, then is
 *    upgraded: its level changes in metadata only -- unless the output is the max level and
 *    it may hold retractions (delete count > 0 or unknown), or
 *    compaction.force-rewrite-all-files is set, which rewrite it alone.
 *  - Candidates that end up as a single one-run section are upgraded file by file instead.
 *  - A rewrite merges the candidate sections in key order through the merge reader in
 *    reduce mode (lsm/merge_reader.h) with the table's merge engine, dropping retractions
 *    when `drop_delete`, into one rolling writer of target-file-size files at the output
 *    level with file source COMPACT.
 *
 * The result is a compact increment: DELETE entries for the files before (at their level),
 * ADD entries for the files after.  A failure removes the files this task wrote.
 *
 * Append tables compact by concatenation instead (pm_compact_append): their files have no
 * key, only an order (sequence numbers), which the rewrite keeps.
 *
 * Thread safety: a compactor belongs to one table write; its buckets may compact on different
 * threads at once, each task with its own pm_compact_bucket (and merge function).
 */
#ifndef PM_TABLE_WRITE_COMPACT_TASK_H
#define PM_TABLE_WRITE_COMPACT_TASK_H

#include <pthread.h>

#include "lsm/lookup_levels.h"
#include "lsm/universal_compaction.h"
#include "meta/schema_cache.h"
#include "table/commit.h"
#include "table/write/dv_maintainer.h"
#include "table/write/write_ctx.h"
#include "util/error.h"
#include "util/pool.h"

/* When a writer takes the result of a compaction that runs in the background
 * (bucket_writer.h).  The values are the C API's async_compaction. */
typedef enum pm_compact_mode {
    /* every prepare-commit waits for the compactions it starts, as a batch write's do */
    PM_COMPACT_SYNC = 0,
    /* Java's streaming writer: a flush or prepare-commit takes a result only once it is
     * finished, and waits for one only where Java does (past num-sorted-run.stop-trigger
     * sorted runs, lookups, deletion vectors, full compactions, the end of the input): what
     * is committed when depends on timing */
    PM_COMPACT_ASYNC = 1,
    /* results taken at the bucket's next flush or prepare-commit, waiting for them there:
     * the files committed do not depend on timing or on the thread count */
    PM_COMPACT_ASYNC_FIXED = 2,
} pm_compact_mode;

/* What the compactions of one table write share: the write context and the schemas of the
 * files they read. */
typedef struct pm_compactor {
    pm_write_ctx *c;         /* borrowed */
    pm_schema_cache schemas; /* of the files read, by id */
    int64_t min_file_size;   /* compactionFileSize */
    bool force_rewrite_all;
    pm_universal strategy; /* the options; each bucket copies it (its own clock) */
    int32_t num_levels;    /* num-levels, default trigger + 1 */
    int64_t delta_commits; /* full-compaction.delta-commits, 0 unset */
    int64_t min_file_num;  /* compaction.min.file-num (append tables) */
    /* Lookup compaction (CoreOptions.needLookup: first-row, changelog-producer = lookup,
     * deletion vectors, force-lookup; behaviour.md §3.5, §4.1, §5): */
    bool need_lookup;
    bool force_up_level0; /* ForceUpLevel0Compaction (needLookup or compaction.force-up-level-0) */
    int64_t lookup_interval; /* lookup-compact = gentle: forced level-0 picks every N-th, else 0 */
    bool lookup_wait;        /* lookup-wait: prepare-commit compacts level 0 away */
    bool dv;                 /* deletion-vectors.enabled */
    bool bitmap64;           /* deletion-vectors.bitmap64 */
    bool first_row;          /* merge-engine = first-row */
    bool lookup_changelog;   /* changelog-producer = lookup */
    bool dedup_plain;        /* deduplicate without sequence.field (upgrades need no rewrite) */
    pm_lookup_options lookup_opts;
    pm_lookup_shared *lookup_shared; /* the cache bounds of every bucket of this write; local
                                        files go to the write's tmp dir */
    /* Buckets compact on different threads (bucket_writer.h): the schema cache is used under
     * schema_lock; lookup levels, which share lookup_shared's cache across buckets, are
     * built, updated, searched and freed under lookup_lock (held by the bucket writer). */
    pthread_mutex_t schema_lock, lookup_lock;
    pm_pool *pool;        /* where background compactions run (NULL: at submission) */
    pm_compact_mode mode; /* when background compactions' results are taken */
    int64_t stop_trigger; /* num-sorted-run.stop-trigger */
} pm_compactor;

PM_MUST_CHECK int pm_compactor_init(pm_compactor *k, pm_write_ctx *c, paimon_error *err);
void pm_compactor_release(pm_compactor *k);

/* The bucket a task works on. */
typedef struct pm_compact_bucket {
    const uint8_t *partition;
    size_t partition_len;
    int32_t bucket, total_buckets;
    const char *dir;        /* the bucket directory */
    pm_path_factory *names; /* file names of the bucket's writer */
    /* Lookup compaction: the levels above the output are searched for keys the unit holds
     * only at level 0 (pm_compactor_lookup_levels builds them); replaced rows are marked in
     * `dvs`, whose vectors also apply to every file the task reads.  NULL: none. */
    pm_lookup_levels *lookup;
    pm_dv_maintainer *dvs;
    pm_merge_fn *merge; /* the bucket's own merge function (NULL: the write context's, for
                           callers on one thread) */
} pm_compact_bucket;

/* The lookup levels of a bucket over its live files `files[0..n)` (borrowed until removed
 * from the levels or the levels are freed), for a compactor whose need_lookup is set;
 * `dvs` (may be NULL) is borrowed too.  `prefix` names the bucket's local files. */
PM_MUST_CHECK int pm_compactor_lookup_levels(pm_compactor *k, const char *bucket_dir,
                                             const char *prefix, pm_dv_maintainer *dvs,
                                             const pm_data_file_meta *const *files, size_t n,
                                             pm_lookup_levels **out, paimon_error *err);

/* Compacts files[0..n) into `output` (max level `max_level`), appending the increment to
 * out->compact. */
PM_MUST_CHECK int pm_compact_unit(pm_compactor *k, const pm_compact_bucket *b,
                                  const pm_manifest_entry *const *files, size_t n, int32_t output,
                                  bool drop_delete, int32_t max_level, pm_commit_messages *out,
                                  paimon_error *err);

/* FileRewriteCompactTask: each of files[0..n) rewritten alone into `output` (a full
 * compaction of a bucket whose only run is at the max level rewrites the files that carry a
 * deletion vector). */
PM_MUST_CHECK int pm_compact_rewrite_files(pm_compactor *k, const pm_compact_bucket *b,
                                           const pm_manifest_entry *const *files, size_t n,
                                           int32_t output, bool drop_delete, int32_t max_level,
                                           pm_commit_messages *out, paimon_error *err);

/* Append tables (Java BaseAppendFileStoreWrite.compactRewrite): the rows of files[0..n), in
 * that order, rewritten into rolling level-0 files with file source COMPACT whose sequence
 * numbers count on from the first file's minimum.  Appends the increment to out->compact. */
PM_MUST_CHECK int pm_compact_append(pm_compactor *k, const pm_compact_bucket *b,
                                    const pm_manifest_entry *const *files, size_t n,
                                    pm_commit_messages *out, paimon_error *err);

#endif /* PM_TABLE_WRITE_COMPACT_TASK_H */
