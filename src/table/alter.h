/*
 * Schema changes (`paimon alter`): the next schema file, written with the same
 * create-if-absent protocol as the first (DESIGN.md invariant 1), with Java's rules on
 * what may change (release-1.4.2 SchemaManager.generateTableSchema, behaviour.md §8.8):
 *
 *  - add-column: a nullable column with the next field id (nested ROW fields take fresh ids
 *    from the same counter), at the end, FIRST, AFTER a column, or before the first
 *    partition column with add-column-before-partition=true;
 *  - drop-column: not a partition or primary-key column, not the last column;
 *  - rename-column: same id, new name; not a partition column; the name must be free;
 *  - alter-type: not a partition or primary-key column; the cast must be one Java allows
 *    (implicit widening always, explicit casts unless disable-explicit-type-casting);
 *    nullable to NOT NULL only with alter-column-null-to-not-null.disabled=false;
 *  - set-option / remove-option: the value must be valid, and once the table has
 *    snapshots, immutable options, bucket to or from -1, and the other changes
 *    checkAlterTableOption forbids are refused.
 *
 * The new schema is validated as a created one is.  When another writer takes the next
 * schema id first, the change is re-applied to its schema (a bounded number of times).
 */
#ifndef PM_TABLE_ALTER_H
#define PM_TABLE_ALTER_H

#include <stdbool.h>
#include <stdint.h>

#include "io/fs.h"
#include "paimon/write.h"
#include "util/error.h"

/* Applies `change` to the latest schema of the table at `path` and commits the next
 * schema; `*new_id` (may be NULL) receives its id. */
PM_MUST_CHECK int pm_table_alter(pm_fs *fs, const char *path, const paimon_alter *change,
                                 int64_t *new_id, paimon_error *err);

#endif /* PM_TABLE_ALTER_H */
