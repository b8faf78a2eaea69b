/*
 * Writing manifests by hand for tests that build a table's metadata in memory (the system
 * tables, the live-files listing): a manifest of given entries and a manifest list of given
 * manifests, under table "t".  A write failure fails the test.
 */
#ifndef PM_TEST_MANIFEST_UTIL_H
#define PM_TEST_MANIFEST_UTIL_H

#include "meta/manifest.h"

/* Writes `entries` as manifest `name` of table "t" and fills `meta` to name it in a list
 * (file name and size, added and deleted file counts; nothing else set). */
void pm_test_write_manifest(pm_fs *fs, const char *name, const pm_manifest_entry *entries, size_t n,
                            pm_manifest_file_meta *meta);

/* Writes `metas` as manifest list `name` of table "t". */
void pm_test_write_list(pm_fs *fs, const char *name, const pm_manifest_file_meta *metas, size_t n);

#endif /* PM_TEST_MANIFEST_UTIL_H */
