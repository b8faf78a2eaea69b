/*
 * Commits (metadata.md §14, behaviour.md §8.7): publish what writers produced as the next
 * snapshot, atomically, beside other writers.
 *
 * Commit messages (the public paimon_commit_messages) collect manifest entries: data files
 * added or removed per partition and bucket, changelog files, index-file changes, and an
 * optional watermark.  Writers fill one set each; sets merge; a commit reads them only.
 *
 * pm_commit() makes up to two snapshots: the data, changelog and index entries (APPEND, or
 * OVERWRITE), then the compact increment (COMPACT); each is one commit_one() call, a loop
 * of attempts.  The C functions behind each step are named under it: static functions of
 * commit.c, and pm_* functions of meta/ (snapshot_files.c, schema.c, manifest.c,
 * manifest_write.c, file_entry.c).
 *
 *   0. Once per snapshot: the table's schema and key types, the commit.* options, the keys
 *      of an overwrite spec, parsed as values of the partition columns.
 *        view_load, read_conf, pm_partition_spec_parse
 *
 * One attempt (Java FileStoreCommitImpl.tryCommitOnce):
 *
 *   1. Read the latest snapshot L (none for a new table) and the latest schema id.
 *        commit_one: pm_snapshot_latest_id, pm_snapshot_read, pm_schema_read_latest
 *   2. Exactly-once commits, after a lost race: look among the snapshots that won it for one
 *      of our commit user with our identifier or a later one: found means the commit was
 *      made (by a retry of it elsewhere), and nothing is committed again.
 *        find_committed
 *   3. Overwrite: DELETE entries for every live file (and index file) of the partitions
 *      overwritten, computed on L; then the messages' entries.  An empty delta with
 *      snapshot.ignore-empty-commit ends the commit here, with no snapshot.
 *        prepare: pm_index_manifest_read, pm_snapshot_live_entries, build_delta
 *   4. When the commit deletes files or is not an APPEND: conflict checks on L's live files
 *      (every DELETE names a live file, no ADD of a live file, one total-buckets value per
 *      partition, no overlapping key ranges within a level >= 1).
 *        check_conflicts, lsm_check
 *   5. Base list: L's base + delta manifests merged (ManifestFileMerger); delta list: the new
 *      entries as rolling manifests; changelog list when there are changelog files; the
 *      index manifest rewritten when index files change, else carried forward; the record
 *      counts and the watermark.
 *        prepare: pm_snapshot_data_manifests, pm_manifest_merge, pm_manifest_write_rolling,
 *        pm_manifest_list_write, combine_index, pm_index_manifest_write
 *   6. snapshot-<L+1> in the 1.4.2 shape, created only if absent.
 *        commit_one: pm_snapshot_commit
 *
 * Losing the race (the file system says the name exists: PAIMON_EEXISTS, and nothing else
 * counts as a lost race) removes this attempt's manifests (attempt_cleanup) and retries from
 * 1 after a backoff of min(commit.min-retry-wait * 2^n, commit.max-retry-wait) plus up to
 * 20% jitter (backoff_ms), at most commit.max-retries times.  Any other failure of the
 * snapshot write (permission, I/O, no space) is not retried: snapshot-<L+1> is read back
 * (read_back), and when it is not ours (our delta manifest list is unique to the attempt)
 * the attempt's files are removed and the
 * error returned, naming the path and the system's reason; only when it cannot be read back
 * is the outcome unknown (result->uncertain: the files are kept, orphans at worst).  Any
 * failure before the snapshot write removes what the attempt wrote: the table is as before.
 * After success the LATEST hint is written, and EARLIEST when it is missing (as Java's
 * snapshot expiration does; pm_snapshot_write_hint); failures to write hints are ignored
 * (they are hints).
 *
 * Retries across processes (Java's filterCommitted): with o->skip_committed and an
 * identifier other than INT64_MAX (a batch commit), a commit whose user already has a
 * snapshot with this identifier or a later one commits nothing (result->committed_before);
 * the check runs before the first attempt and, over the snapshots that won the race, before
 * each retry of the data snapshot.
 *
 * The two snapshots of one commit (FileStoreCommitImpl.commit): the data (APPEND or
 * OVERWRITE) snapshot, then the COMPACT snapshot of the writers' compact increment.  Java
 * throws when the second loses a conflict although the first landed (its streaming job
 * then restarts and filterCommitted skips the commit); here the call succeeds, as its data
 * is committed, and reports the compaction's failure in result->compact_err, after removing
 * the files only the compaction wrote.  When there is no data snapshot (a dedicated
 * compaction), a failed compaction is the call's failure and its files are the caller's.
 */
#ifndef PM_TABLE_COMMIT_H
#define PM_TABLE_COMMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "io/fs.h"
#include "meta/manifest.h"
#include "meta/snapshot.h"
#include "paimon/write.h"
#include "util/arena.h"
#include "util/error.h"

struct paimon_commit_messages {
    pm_arena arena;          /* everything the entries point to */
    pm_manifest_entry *data; /* ADD and DELETE entries of data files */
    size_t data_count, data_cap;
    pm_manifest_entry *changelog; /* ADD entries of changelog files */
    size_t changelog_count, changelog_cap;
    pm_index_manifest_entry *index; /* ADD and DELETE entries of index files */
    size_t index_count, index_cap;
    /* The compact increment (Java's CompactIncrement): compactBefore as DELETE entries,
     * compactAfter as ADD entries (an upgraded file is both, at two levels).  Committed as
     * a COMPACT snapshot after the APPEND snapshot of the entries above. */
    pm_manifest_entry *compact;
    size_t compact_count, compact_cap;
    /* The compact increment's changelog files (changelog-producer = full-compaction): ADD
     * entries committed with the COMPACT snapshot, in its changelog manifest list. */
    pm_manifest_entry *compact_changelog;
    size_t compact_changelog_count, compact_changelog_cap;
    /* The compact increment's index files (CompactIncrement.newIndexFiles: a bucket's new
     * deletion-vector index file), committed with the COMPACT snapshot. */
    pm_index_manifest_entry *compact_index;
    size_t compact_index_count, compact_index_cap;
    bool has_watermark;
    int64_t watermark;
};

typedef paimon_commit_messages pm_commit_messages;

void pm_commit_messages_init(pm_commit_messages *m);
void pm_commit_messages_release(pm_commit_messages *m);
/* Copies `e` (and what it points to) into the messages. */
int pm_commit_messages_add_data(pm_commit_messages *m, const pm_manifest_entry *e);
int pm_commit_messages_add_changelog(pm_commit_messages *m, const pm_manifest_entry *e);
int pm_commit_messages_add_index(pm_commit_messages *m, const pm_index_manifest_entry *e);
int pm_commit_messages_add_compact(pm_commit_messages *m, const pm_manifest_entry *e);
int pm_commit_messages_add_compact_changelog(pm_commit_messages *m, const pm_manifest_entry *e);
int pm_commit_messages_add_compact_index(pm_commit_messages *m, const pm_index_manifest_entry *e);
/* Copies every message of `src` into `dst`. */
int pm_commit_messages_append(pm_commit_messages *dst, const pm_commit_messages *src);

/* What one pm_commit() did (the public paimon_commit_result; its version is not read). */
typedef paimon_commit_result pm_commit_result;

typedef struct pm_commit_opts {
    const char *commit_user; /* required */
    int64_t identifier;
    pm_commit_kind kind; /* APPEND or COMPACT; OVERWRITE is set by `overwrite` */
    bool overwrite;
    const char *const *partition; /* overwrite: "k=v" items; none: dynamic or whole table */
    size_t partition_count;
    bool skip_committed;      /* exactly-once retries: see "Retries across processes" above */
    pm_commit_result *result; /* may be NULL: receives what landed, also on failure */
    /* The snapshot's "properties" (Java's ManifestCommittable.properties), in every snapshot
     * of the commit; borrowed; none: the field is absent. */
    const char *const *property_keys;
    const char *const *property_values;
    size_t property_count;
    /* Test hook: called after the attempt's files are written, just before the snapshot
     * write, with the id it will take (the concurrency tests use it to force races). */
    void (*before_snapshot)(void *arg, int64_t id);
    void *before_snapshot_arg;
} pm_commit_opts;

/* Commits `m` to the table at `table`.  `*snapshot_id` receives the new snapshot's id, or
 * 0 when the commit was empty or skipped.  As Java's FileStoreCommitImpl.commit: the data,
 * changelog and index entries make one snapshot of o->kind (skipped when empty and
 * snapshot.ignore-empty-commit, or when only a compact increment is given); the compact
 * increment then makes a COMPACT snapshot, conflict-checked; *snapshot_id is the last one.
 * A nonzero return means nothing of `m` was committed (unless result->uncertain). */
PM_MUST_CHECK int pm_commit(pm_fs *fs, const char *table, const pm_commit_messages *m,
                            const pm_commit_opts *o, int64_t *snapshot_id, paimon_error *err);

/* Removes the files `m` adds and nothing else, as Java's FileStoreCommit.abort: with
 * `data`, the new data, changelog and index files of the data part; with `compact`, the
 * compaction's results (never a file the compaction also removes: an upgraded file keeps
 * its name), its changelog and index files.  Only for messages that are certainly not
 * committed.  Best effort: files already gone are fine; the first other failure is
 * returned after trying every file. */
PM_MUST_CHECK int pm_commit_messages_abort(pm_fs *fs, const char *table,
                                           const pm_commit_messages *m, bool data, bool compact,
                                           paimon_error *err);

#endif /* PM_TABLE_COMMIT_H */
