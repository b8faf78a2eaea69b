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

/* Fills one item of a list of snapshots (the `snapshots` list, report.c's commits): `s` is
 * the snapshot of `id`, or NULL when it cannot be read, `why` then saying why (the item
 * says so in its `unreadable`).  Strings go into the list's arena (pm_inspect_keep, which
 * sets *failed).  0, or PAIMON_ENOMEM to end the walk; a fill that cannot read something
 * further (a manifest) says so in the item and returns 0. */
typedef int (*pm_inspect_snapshot_fill)(paimon_list *l, void *item, int64_t id,
                                        const pm_snapshot *s, const char *why, void *ctx,
                                        bool *failed, paimon_error *err);

/* A list of `kind` with one item of `item_size` bytes per snapshot of `t`, oldest first,
 * each filled by `fill`.  A snapshot that expired between the listing and its read is left
 * out; one that cannot be read (damaged, unreadable, of an unknown version) is listed as
 * such, so that one bad file hides nothing else.  Caller owns `*out`. */
PM_MUST_CHECK int pm_inspect_each_snapshot(paimon_table *t, pm_list_kind kind, size_t item_size,
                                           pm_inspect_snapshot_fill fill, void *ctx,
                                           paimon_list **out, paimon_error *err);

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
