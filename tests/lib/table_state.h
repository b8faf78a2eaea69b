/*
 * What the fault-injection tests compare a table by: its rows, its latest snapshot, and
 * removing it.  Shared by test_write_faults, test_compact_faults and
 * test_precommit_compact_faults.
 */
#ifndef PM_TEST_TABLE_STATE_H
#define PM_TEST_TABLE_STATE_H

#include <stdint.h>

/* The table's rows as the public scan reads them, as canonical JSON lines sorted, one
 * string (caller frees with pm_free).  A read error fails the test. */
char *pm_test_table_rows(const char *path);

/* The latest snapshot id, 0 when there is none. */
int64_t pm_test_latest_snapshot(const char *path);

/* Removes a table made by pm_test_table_path (its temporary parent too) and frees `path`. */
void pm_test_remove_table(char *path);

#endif /* PM_TEST_TABLE_STATE_H */
