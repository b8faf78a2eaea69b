/*
 * The columns a handle shows its callers (paimon_cursor_column_*, paimon_changes_column_*):
 * an owned ROW type, and each column's type as the public API spells it.  Cursors and change
 * reads hold one each, so the two sets of accessors answer alike.
 */
#ifndef PM_API_COLUMNS_H
#define PM_API_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>

#include "data/types.h"
#include "table/table.h"
#include "util/error.h"

typedef struct pm_api_columns {
    pm_type *type;     /* a ROW; owned */
    char **type_names; /* one per column; owned */
} pm_api_columns;

/* Takes `type` (a ROW) and spells its columns' types; `type` is owned by `c` from now on,
 * also when the call fails (pm_api_columns_release() frees what there is). */
PM_MUST_CHECK int pm_api_columns_init(pm_api_columns *c, pm_type *type, paimon_error *err);
void pm_api_columns_release(pm_api_columns *c);

/* 0 for a released or failed set; NULL for a column out of range. */
size_t pm_api_columns_count(const pm_api_columns *c);
const char *pm_api_columns_name(const pm_api_columns *c, size_t column);
const char *pm_api_columns_type(const pm_api_columns *c, size_t column);

/* The columns of a change read or a stream: the kind column `kind_name` (NULL:
 * `_ROW_KIND`) STRING NOT NULL, then the data columns `names[0..count)` of `row` (by pm_api_find_column; NULL names: every column).
 * `*columns` receives their indexes into `row` (pm_malloc'ed, caller frees) and
 * `*column_count` their number; a name given twice is PAIMON_EINVALID, an unknown one
 * PAIMON_ENOTFOUND.  `out` is initialized in every case (release it with
 * pm_api_columns_release()). */
PM_MUST_CHECK int pm_api_change_columns(const pm_type *row, const char *kind_name,
                                        const char *const *names, size_t count, int **columns,
                                        size_t *column_count, pm_api_columns *out,
                                        paimon_error *err);

/* `table-read.sequence-number.enabled` of a $audit_log or $binlog read (Java's AuditLogTable):
 * the table's own option into *out.  The read's options `keys`/`values[0..count)` setting it
 * true is PAIMON_EINVALID (Java refuses it as a hint), and so is a table without primary keys
 * setting it (sequence numbers exist only there). */
PM_MUST_CHECK int pm_api_read_sequence(const paimon_table *t, const char *const *keys,
                                       const char *const *values, size_t count, bool *out,
                                       paimon_error *err);

/* Adds `_SEQUENCE_NUMBER` BIGINT NOT NULL after the kind column of `c` (the split reader's
 * place for it, pm_split_reader_with_sequence). */
PM_MUST_CHECK int pm_api_columns_add_sequence(pm_api_columns *c, paimon_error *err);

#endif /* PM_API_COLUMNS_H */
