/*
 * What the expiration tests count: the files a table's remaining snapshots, tags and
 * long-lived changelogs reference, against the files on disk, and the rows of one snapshot
 * or tag.  The reference walk is written here, independently of table/expire_files.c, from
 * the rules of behaviour.md §8.1-8.2:
 *
 *   always      schema/..., snapshot/EARLIEST|LATEST, changelog/EARLIEST|LATEST, consumer/...,
 *               tag/..., statistics named by a kept snapshot or tag;
 *   snapshot    its file, its base/delta/changelog lists and their manifests, its index
 *   and tag     manifest and index files, its live data files (base + delta folded) with
 *               their extra files, and the ADDs of its changelog list (not for a tag: Java
 *               1.4.2's expiration removes a tagged snapshot's changelog like any other);
 *   changelog   changelog/changelog-<id>; with a changelog list: the list, its manifests
 *               and their ADDs; without, for producer none: its base and delta lists and their
 *               manifests, and the APPEND-source entries of its delta (ADD and DELETE:
 *               the files a compaction removed go when this changelog expires).
 */
#ifndef PM_TEST_TABLE_FILES_H
#define PM_TEST_TABLE_FILES_H

#include <stdint.h>

#include "paimon.h"
#include "util/strlist.h"

/* The referenced files, as paths relative to the table, sorted, unique.  A metadata file
 * that cannot be read fails the test. */
void pm_test_referenced_files(const char *table, pm_strlist *out);
/* Every file under the table (relative, sorted), hidden temporaries excluded. */
void pm_test_disk_files(const char *table, pm_strlist *out);
/* Fails the test, listing the difference, unless the two sets are equal. */
void pm_test_assert_files_exact(const char *table);

/* The rows of snapshot `id` (> 0), tag `tag` (id 0) or else the latest snapshot, as sorted
 * canonical JSON lines (free with pm_free), or
 * NULL with *rc the error code (the message in `why`, may be NULL) when the read fails. */
char *pm_test_rows_at(const char *table, int64_t id, const char *tag, int *rc, char *why,
                      size_t why_len);

/* Commits the JSON lines `rows` to `table` through a fresh writer (paimon_table_commit,
 * with its upkeep): 0 with the snapshot id in *id and the upkeep's failure in *maintain_err
 * (may be NULL; code 0 when it succeeded), or the failing call's code with *err set.  No
 * test assertions: forked children use it too. */
int pm_test_commit_jsonl(const char *table, const char *rows, int64_t *id, paimon_error *err,
                         paimon_error *maintain_err);

#endif
