/*
 * Tables and commit messages for the commit tests (test_commit, test_commit_results): a
 * fresh table of columns id BIGINT, v STRING, p INT, and manifest entries that name data
 * files without writing them (the commit protocol reads metadata only).
 */
#ifndef PM_TEST_COMMIT_FIXTURE_H
#define PM_TEST_COMMIT_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "table/commit.h"

/* Creates a table under a fresh temporary directory: partitioned by p when `partitioned`,
 * primary key (id, p) when `pk`, with the "key=value" options `opts`.  Returns its path
 * (free with pm_free; the directory is "<tmp>/t"). */
char *pm_test_commit_table(const char *tag, bool partitioned, bool pk, const char *const *opts,
                           size_t nopt);

/* Where an entry goes in the messages. */
typedef enum pm_test_part { PM_TEST_DATA, PM_TEST_COMPACT, PM_TEST_CHANGELOG } pm_test_part;

/* Adds an entry of `kind` (PM_FILE_KIND_ADD or _DELETE) for file `name` of partition p (or
 * an unpartitioned table when p < 0), bucket `bucket`, level `level`, with `rows` rows. */
void pm_test_add_entry(pm_commit_messages *m, pm_test_part part, int kind, int p, int32_t bucket,
                       int32_t level, const char *name, int64_t rows);

/* For the command-line tools that commit crafted entries (interop_craft_entry,
 * html_many_files): the entry of the first live data file of `table`'s latest snapshot, its
 * strings in `arena`; prints "TOOL: TABLE: no live file: ..." and exits with 1 when there
 * is none or the table cannot be read. */
void pm_test_first_live_entry(const char *tool, pm_fs *fs, const char *table, pm_arena *arena,
                              pm_manifest_entry *out);
/* Commits `m` to `table` as one APPEND snapshot of `user` and returns its id; prints
 * "TOOL: TABLE: ..." and exits with 1 on failure. */
int64_t pm_test_commit_append(const char *tool, pm_fs *fs, const char *table, pm_commit_messages *m,
                              const char *user);

#endif /* PM_TEST_COMMIT_FIXTURE_H */
