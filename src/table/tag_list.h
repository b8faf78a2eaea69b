/*
 * The public list of a table's tags (paimon_table_tags, include/paimon/maintenance.h):
 * built by tag_list.c in a paimon_list of kind PM_LIST_TAGS (table/inspect.h).
 */
#ifndef PM_TABLE_TAG_LIST_H
#define PM_TABLE_TAG_LIST_H

#include "paimon/maintenance.h"
#include "table/table.h"
#include "util/error.h"

/* All tags as paimon_tag_info entries, by snapshot id then name.  Caller owns `*out`. */
PM_MUST_CHECK int pm_inspect_tags(paimon_table *t, paimon_list **out, paimon_error *err);

#endif /* PM_TABLE_TAG_LIST_H */
