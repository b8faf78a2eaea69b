/*
 * Metadata inspection: builds the public lists of include/paimon/inspect.h from the meta
 * layer.  A paimon_list owns an arena that holds its entries and every string they point
 * to.
 */
#ifndef PM_TABLE_INSPECT_H
#define PM_TABLE_INSPECT_H

#include "paimon/inspect.h"
#include "table/table.h"
#include "util/arena.h"
#include "util/error.h"

typedef enum pm_list_kind {
    PM_LIST_SNAPSHOTS,
    PM_LIST_SCHEMAS,
    PM_LIST_OPTIONS,
    PM_LIST_MANIFESTS,
    PM_LIST_FILES,
    PM_LIST_TAGS /* table/tag_list.c */
} pm_list_kind;

struct paimon_list {
    pm_list_kind kind;
    pm_arena arena;
    void *items; /* count entries of the kind's info struct */
    size_t count;
};

PM_MUST_CHECK int pm_inspect_snapshots(paimon_table *t, paimon_list **out, paimon_error *err);
PM_MUST_CHECK int pm_inspect_schemas(paimon_table *t, paimon_list **out, paimon_error *err);
PM_MUST_CHECK int pm_inspect_options(paimon_table *t, int64_t snapshot_id, paimon_list **out,
                                     paimon_error *err);
PM_MUST_CHECK int pm_inspect_manifests(paimon_table *t, int64_t snapshot_id, paimon_list **out,
                                       paimon_error *err);
PM_MUST_CHECK int pm_inspect_files(paimon_table *t, int64_t snapshot_id, paimon_list **out,
                                   paimon_error *err);

void pm_list_free(paimon_list *l);

#endif /* PM_TABLE_INSPECT_H */
