/*
 * Metadata inspection: builds the public lists of include/paimon/inspect.h from the meta
 * layer.  A paimon_list owns an arena that holds its entries and every string they point
 * to.
 */
#ifndef PM_TABLE_INSPECT_H
#define PM_TABLE_INSPECT_H

#include "paimon/inspect.h"
#include "meta/manifest.h"
#include "meta/schema.h"
#include "meta/snapshot.h"
#include "util/buf.h"
#include "table/table.h"
#include "util/arena.h"
#include "util/error.h"

typedef enum pm_list_kind {
    PM_LIST_SNAPSHOTS,
    PM_LIST_SCHEMAS,
    PM_LIST_OPTIONS,
    PM_LIST_MANIFESTS,
    PM_LIST_FILES,
    PM_LIST_TAGS,    /* table/tag_list.c */
    PM_LIST_BUCKETS, /* table/report.c */
    PM_LIST_COMMITS, /* table/report.c */
    PM_LIST_DVS,     /* table/report.c */
    PM_LIST_HEALTH   /* table/health.c */
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

/* ---- building lists (the other list files: report.c, health.c) ------------------------ */

/* A new list of `count` zeroed items of `item_size` bytes.  Caller owns `*out`; release with
 * pm_list_free(). */
PM_MUST_CHECK int pm_inspect_list_new(pm_list_kind kind, size_t item_size, size_t count,
                                      paimon_list **out, paimon_error *err);
/* The end of every list's build: PAIMON_ENOMEM when `failed`, else the list is handed out
 * with its first `count` items (*out = *l, *l = NULL). */
PM_MUST_CHECK int pm_inspect_list_finish(paimon_list **l, size_t count, bool failed,
                                         paimon_list **out, paimon_error *err);
/* Copies a string (or NULL) into the list's arena; sets *failed on allocation failure. */
const char *pm_inspect_keep(paimon_list *l, const char *s, bool *failed);
const char *pm_inspect_keep_buf(paimon_list *l, pm_buf *b, bool *failed);

#define PM_INSPECT_MAX_PARTITION_KEYS 64

/* A snapshot and the partition fields of its schema. */
typedef struct pm_inspect_ctx {
    pm_snapshot *snap;
    pm_schema *schema;
    const pm_field *parts[PM_INSPECT_MAX_PARTITION_KEYS];
    size_t part_count;
} pm_inspect_ctx;

/* Reads snapshot `id` (PAIMON_LATEST_SNAPSHOT: the latest) and its schema.  Close `c` with
 * pm_inspect_ctx_close() also on failure. */
PM_MUST_CHECK int pm_inspect_ctx_open(paimon_table *t, int64_t id, pm_inspect_ctx *c,
                                      paimon_error *err);
void pm_inspect_ctx_close(paimon_table *t, pm_inspect_ctx *c);

/* Canonical JSON of a serialized partition row (kept in `l`), or NULL when the table has
 * no partition or the bytes do not decode as its partition. */
const char *pm_inspect_partition_json(paimon_list *l, const pm_inspect_ctx *c,
                                      const pm_avro_bytes *bytes, bool *failed);

#endif /* PM_TABLE_INSPECT_H */
