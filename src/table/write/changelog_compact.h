/*
 * Changelog files packed before the commit: Java's precommit-compact (fallback key
 * changelog.precommit-compact) for primary-key tables, as Flink's ChangelogCompactCoordinate-
 * Operator and ChangelogCompactTask do it between the writers and the committer
 * (behaviour.md §4.3; the names are described in format/compacted_changelog.h).
 *
 * Per partition, in the order of the messages, every changelog file smaller than
 * min(target-file-size / 10 * 7, changelog.precommit-compact.buffer-size) joins its
 * partition's group (target-file-size is the append-table value, 256 MB unless set:
 * changelog files are not in an LSM tree); a group is closed when its files reach
 * target-file-size, and at the end of the commit.  The new files' changelogs and the compact
 * increment's are grouped apart (they go into different snapshots; Java's task refuses to
 * mix them, and no changelog producer makes both).  A closed group of two or more files
 * becomes one physical file in the bucket directory of its first file, by ascending bucket,
 * each bucket's in message order (the order Java's task reads them in when it runs on one
 * thread).  Every file keeps its entry (sizes, rows, statistics, creation time: Java's
 * DataFileMeta.rename changes the name only) under its new name.
 *
 * Where paimon-c differs from Java, for safety: the original files are removed after the
 * snapshot is committed, not while copying, and a commit that certainly failed removes the
 * packed files again, so the caller's messages stay valid.  When the outcome is unknown (the
 * snapshot write failed and reading it back failed too: result->uncertain), everything is
 * kept: orphans at worst, never a missing file.  Files with an external path are left as
 * they are.
 */
#ifndef PM_TABLE_WRITE_CHANGELOG_COMPACT_H
#define PM_TABLE_WRITE_CHANGELOG_COMPACT_H

#include "table/commit.h"
#include "util/error.h"

/* Commits `m` to `table` as pm_commit() does (same arguments and results), packing its
 * changelog files first when the table's latest schema sets precommit-compact.  `m` is
 * not changed: the packed names go into a copy. */
PM_MUST_CHECK int pm_changelog_compact_commit(pm_fs *fs, const char *table,
                                              const pm_commit_messages *m, const pm_commit_opts *o,
                                              int64_t *snapshot_id, paimon_error *err);

#endif /* PM_TABLE_WRITE_CHANGELOG_COMPACT_H */
