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
 * Thread safety: one thread per compactor; a compactor belongs to one table write.
 */
#ifndef PM_TABLE_WRITE_COMPACT_TASK_H
#define PM_TABLE_WRITE_COMPACT_TASK_H

#include "lsm/universal_compaction.h"
#include "table/commit.h"
#include "table/write/write_ctx.h"

/* What the compactions of one table write share: the write context and the schemas of the
 * files they read. */
typedef struct pm_compactor {
    pm_write_ctx *c;     /* borrowed */
    pm_schema **schemas; /* by schema id, read on first use */
    size_t schema_cap;
    int64_t min_file_size; /* compactionFileSize */
    bool force_rewrite_all;
    pm_universal strategy; /* the options; each bucket copies it (its own clock) */
    int32_t num_levels;    /* num-levels, default trigger + 1 */
    int64_t delta_commits; /* full-compaction.delta-commits, 0 unset */
    int64_t min_file_num;  /* compaction.min.file-num (append tables) */
} pm_compactor;

int pm_compactor_init(pm_compactor *k, pm_write_ctx *c, paimon_error *err);
void pm_compactor_release(pm_compactor *k);

/* The bucket a task works on. */
typedef struct pm_compact_bucket {
    const uint8_t *partition;
    size_t partition_len;
    int32_t bucket, total_buckets;
    const char *dir;        /* the bucket directory */
    pm_path_factory *names; /* file names of the bucket's writer */
} pm_compact_bucket;

/* Compacts files[0..n) into `output` (max level `max_level`), appending the increment to
 * out->compact. */
int pm_compact_unit(pm_compactor *k, const pm_compact_bucket *b,
                    const pm_manifest_entry *const *files, size_t n, int32_t output,
                    bool drop_delete, int32_t max_level, pm_commit_messages *out,
                    paimon_error *err);

/* Append tables (Java BaseAppendFileStoreWrite.compactRewrite): the rows of files[0..n), in
 * that order, rewritten into rolling level-0 files with file source COMPACT whose sequence
 * numbers count on from the first file's minimum.  Appends the increment to out->compact. */
int pm_compact_append(pm_compactor *k, const pm_compact_bucket *b,
                      const pm_manifest_entry *const *files, size_t n, pm_commit_messages *out,
                      paimon_error *err);

#endif /* PM_TABLE_WRITE_COMPACT_TASK_H */
