/*
 * Writing manifests as a committer does (metadata.md §6–§7, §14.1):
 *
 *  - rolling manifest files: entries go to `manifest-<u>-<n>` files, a new file once the
 *    bytes written reach manifest.target-file-size (checked every 1000 entries, as Java's
 *    RollingFileWriter checks), each described by a ManifestFileMeta with exact size,
 *    ADD/DELETE counts, partition statistics (SimpleStats over the partition rows, full
 *    mode), the max schema id, and min/max bucket and level;
 *  - manifest lists (`manifest-list-<u>-<n>`);
 *  - ManifestFileMerger.merge (metadata.md §7.3 (b)): full compaction when the manifests
 *    that must change reach manifest.full-compaction-threshold-size, else minor compaction
 *    of consecutive groups reaching the target size, the last group only with at least
 *    manifest.merge-min-count manifests.
 *
 * Every file is recorded in ctx->written, by its full path and before it is written, so
 * that a failed commit can remove what it wrote without allocating (the failure may be a
 * lack of memory; leftovers would only be orphans, never visible: DESIGN.md invariant 1).
 */
#ifndef PM_META_MANIFEST_WRITE_H
#define PM_META_MANIFEST_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "data/types.h"
#include "io/fs.h"
#include "meta/manifest.h"
#include "meta/path_factory.h"
#include "util/arena.h"
#include "util/strlist.h"
#include "util/error.h"

typedef struct pm_manifest_ctx {
    pm_fs *fs;
    const char *table;
    pm_path_factory *names;
    const char *codec;         /* Avro codec name (ORC files use the same compression) */
    int level;                 /* codec level (zstd: file.compression.zstd-level, 1) */
    pm_manifest_format format; /* manifest.format: Avro (0, the default) or ORC */
    int64_t target_size;
    const pm_type *const *partition_types; /* partition columns in key order */
    size_t partition_count;
    int64_t schema_id;  /* recorded for an empty manifest */
    pm_strlist written; /* full paths of the manifests and lists written so far (owned) */
} pm_manifest_ctx;

/* A growable array of ManifestFileMeta (strings in the arena given to the functions). */
typedef struct pm_meta_vec {
    pm_manifest_file_meta *items;
    size_t count, cap;
} pm_meta_vec;

void pm_meta_vec_free(pm_meta_vec *v);
int pm_meta_vec_push(pm_meta_vec *v, const pm_manifest_file_meta *m);

/* Writes `count` entries as rolling manifest files, appending their metas to `out`.  No
 * file is written for zero entries. */
PM_MUST_CHECK int pm_manifest_write_rolling(pm_manifest_ctx *c,
                                            const pm_manifest_entry *const *entries, size_t count,
                                            pm_arena *arena, pm_meta_vec *out, paimon_error *err);

/* Writes a manifest list of `count` metas; `*name` (in `arena`) and `*size` describe it. */
PM_MUST_CHECK int pm_manifest_list_write(pm_manifest_ctx *c, const pm_manifest_file_meta *metas,
                                         size_t count, pm_arena *arena, const char **name,
                                         int64_t *size, paimon_error *err);

/* Writes an index manifest of `count` entries. */
PM_MUST_CHECK int pm_index_manifest_write(pm_manifest_ctx *c,
                                          const pm_index_manifest_entry *entries, size_t count,
                                          pm_arena *arena, const char **name, paimon_error *err);

/* ManifestFileMerger.merge over `in` (the previous base + delta manifests, in order). */
PM_MUST_CHECK int pm_manifest_merge(pm_manifest_ctx *c, const pm_manifest_file_meta *in,
                                    size_t count, int64_t merge_min_count,
                                    int64_t full_compaction_size, pm_arena *arena, pm_meta_vec *out,
                                    paimon_error *err);

/* A set of file identities (metadata.md §7.3) keeping insertion order, as Java's
 * LinkedHashMap<Identifier, ManifestEntry>.  Entries are borrowed. */
typedef struct pm_file_set {
    const pm_manifest_entry **order; /* insertion order; NULL once removed */
    size_t order_count, order_cap;
    size_t *slots; /* index+1 into order; 0 empty; SIZE_MAX tombstone */
    size_t cap, used;
} pm_file_set;

void pm_file_set_free(pm_file_set *s);
int pm_file_set_add(pm_file_set *s, const pm_manifest_entry *e); /* 0 or PAIMON_ENOMEM */
bool pm_file_set_contains(const pm_file_set *s, const pm_manifest_entry *e);
bool pm_file_set_remove(pm_file_set *s, const pm_manifest_entry *e);

/* Copies an entry and everything it points to into `arena`. */
int pm_manifest_entry_copy(pm_arena *arena, pm_manifest_entry *dst, const pm_manifest_entry *src);

#endif /* PM_META_MANIFEST_WRITE_H */
