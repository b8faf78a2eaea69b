/*
 * Using data-file indexes when planning a scan (behaviour.md §9.1): a file whose bloom
 * filter shows that no row can satisfy the filter is skipped, as Java's FileIndexEvaluator
 * skips it (an equality with a literal the filter does not contain; IN with none of its
 * literals; AND when a part is excluded, OR when every part is).  Indexes embedded in the
 * manifest entry and `.index` files listed in _EXTRA_FILES are both read; columns are
 * matched to the filter's by field id through the file's schema, and a column whose type
 * changed since is not used.  Only append tables use it: on primary-key tables a value
 * filter cannot exclude a file whose rows merge with others'.  `file-index.read.enabled`
 * false turns it off.
 */
#ifndef PM_TABLE_FILE_INDEX_H
#define PM_TABLE_FILE_INDEX_H

#include <stdbool.h>

#include "data/predicate.h"
#include "meta/manifest.h"
#include "table/table.h"
#include "util/error.h"

/* Sets *skip when the file index of `e` excludes every row for `filter` (over `schema`'s
 * row, the schema the scan reads with).  Files without an index are never skipped. */
PM_MUST_CHECK int pm_file_index_skips(paimon_table *t, const pm_schema *schema,
                                      const pm_manifest_entry *e, const pm_predicate *filter,
                                      bool *skip, paimon_error *err);

#endif /* PM_TABLE_FILE_INDEX_H */
