/*
 * The table's own upkeep after a commit, as Java 1.4.2's TableCommitImpl.maintain runs it
 * after each commit and after a dedicated compaction's commit (behaviour.md §7.5, §8.1 to
 * §8.3, §8.6).  In Java's order:
 *
 *   1. automatic tags          tag.automatic-creation and tag retention (always: a
 *                              write-only writer creates tags too)
 *   2. partition expiration    partition.expiration-time, at most every check interval
 *   3. consumer expiration     consumer files older than consumer.expiration-time
 *   4. snapshot expiration     snapshot.num-retained.*, snapshot.time-retained, the
 *                              decoupled changelog lifecycle (changelog.*)
 *
 * Steps 2 to 4 run only with `expire` (Java's doExpire: the writer is not `write-only`, or
 * the commit is a dedicated compaction's).
 * Each step reads the table's latest schema's options (found once per handle: meta/
 * schema_memo.c) and does nothing when they ask for nothing.  While the snapshot ids reach
 * no further than snapshot.num-retained.min, no snapshot can expire: step 4 and the tag
 * time expiration of step 1 then ask the store nothing (maintain.c, issue 14).  The commit is already published when this runs: a failure here does not undo it.
 * The caller reports it apart from the commit (paimon_commit_result.maintain_err; the CLI
 * says on stderr what failed and exits 0, DESIGN.md invariant 9), and the next commit's
 * maintenance finishes the job, as every step is safe to rerun.
 */
#ifndef PM_TABLE_MAINTAIN_H
#define PM_TABLE_MAINTAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "io/fs.h"
#include "util/error.h"

/* Runs the steps above for table `table` after the commit that made snapshot
 * `committed_snapshot`.  0, or the first step's failure (the later steps do not run). */
PM_MUST_CHECK int pm_table_maintain(pm_fs *fs, const char *table, int64_t committed_snapshot,
                                    bool expire, paimon_error *err);

#endif /* PM_TABLE_MAINTAIN_H */
