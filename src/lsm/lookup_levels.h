/*
 * Lookup over the levels of one bucket (Java's LookupLevels, LookupUtils, LookupFile and
 * the `lookup.*` options; behaviour.md §3.5, §4.1, §5): for a key, the record of the
 * newest level that holds it.  Compaction calls it for deletion-vector maintenance, the
 * lookup changelog producer and first-row writes.
 *
 * Search order (LookupUtils.lookup): levels start_level .. num_levels - 1 in order; level 0
 * file by file in Levels' order (max sequence number descending, then min sequence number,
 * creation time and file name ascending), each file
 * whose [min key, max key] holds the key; every other level is one sorted run, where a
 * binary search over the max keys picks the only file that can hold it.  The first file
 * that has the key answers; later levels are not consulted.
 *
 * Retractions are not filtered: a -D or -U record is found and returned with its kind, as
 * Java's processors return it (the merge functions decide what a retraction means).
 *
 * Local files (lsm/lookup_file.h): the first lookup that needs a data file reads it whole
 * (with the file's deletion vector applied, as Java's reader factory does: deleted
 * positions are skipped, positions stay those of the file) into a local lookup file under
 * `local_dir`, named `<local_prefix><file name>.lookup`.  Local files are kept in an LRU
 * weighed in KiB of file size (Java weighs with Caffeine in KiB) and bounded by
 * `lookup.cache-max-disk-size`; a file not used for `lookup.cache-file-retention` is also
 * dropped.  A dropped local file is deleted and rebuilt when needed again.  Pages of local
 * files are read through one page cache bounded by `lookup.cache-max-memory-size`
 * (lsm/lookup_cache.h), pages of `cache-page-size`.
 *
 * What a lookup returns (Java's persist processors; `mode`):
 *   PM_LOOKUP_VALUE           record values, sequence number, kind (PersistValueProcessor)
 *   PM_LOOKUP_VALUE_POSITION  the same plus the row position (PersistValueAndPosProcessor)
 *   PM_LOOKUP_POSITION        the row position only (PersistPositionProcessor)
 *   PM_LOOKUP_EXISTS          existence only (PersistEmptyProcessor, first-row)
 * and always the level and file name of the hit.
 *
 * Thread safety: none; one thread at a time (a bucket's compaction).
 */
#ifndef PM_LSM_LOOKUP_LEVELS_H
#define PM_LSM_LOOKUP_LEVELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/arrow_stream.h"
#include "data/batch.h"
#include "io/fs.h"
#include "lsm/deletion_vector.h"
#include "meta/manifest.h"
#include "meta/options.h"
#include "meta/schema.h"
#include "util/error.h"

/* The `lookup.*` options (CoreOptions 1.4.2; defaults in brackets). */
typedef struct pm_lookup_options {
    int64_t max_disk_size;     /* lookup.cache-max-disk-size [unbounded: INT64_MAX] */
    int64_t max_memory_size;   /* lookup.cache-max-memory-size [256 mb] */
    int64_t page_size;         /* cache-page-size [64 kb] */
    int64_t file_retention_ms; /* lookup.cache-file-retention [1 h] */
    bool bloom_filter;         /* lookup.cache.bloom.filter.enabled [true] */
    double bloom_fpp;          /* lookup.cache.bloom.filter.fpp [0.05] */
    double hash_load_factor;   /* lookup.hash-load-factor [0.75] */
} pm_lookup_options;

/* Reads the options from a table's options (defaults for absent keys).  A malformed value is
 * PAIMON_EINVALID naming the key. */
PM_MUST_CHECK int pm_lookup_options_read(pm_lookup_options *o, const pm_options *opts,
                                         paimon_error *err);

/* The page cache and the LRU of local files, with the memory, disk and retention bounds of
 * `o`, shared by the levels of several buckets (Java keeps one CacheManager and one lookup
 * file cache per table write, so the bounds hold for all its buckets together).  Free it
 * after every pm_lookup_levels using it.  Caller owns `*out`. */
typedef struct pm_lookup_shared pm_lookup_shared;
PM_MUST_CHECK int pm_lookup_shared_new(pm_lookup_shared **out, const pm_lookup_options *o,
                                       paimon_error *err);
void pm_lookup_shared_free(pm_lookup_shared *s);

typedef enum pm_lookup_mode {
    PM_LOOKUP_VALUE,
    PM_LOOKUP_VALUE_POSITION,
    PM_LOOKUP_POSITION,
    PM_LOOKUP_EXISTS
} pm_lookup_mode;

typedef struct pm_lookup_config {
    pm_fs *fs;               /* the table's file system */
    const char *bucket_dir;  /* the data files' directory (a file's external_path wins) */
    const pm_schema *schema; /* current schema: values come out in its columns, keys are its
                                trimmed primary key */
    /* The schema a file was written with (`_SCHEMA_ID`); borrowed until the levels are
     * freed.  NULL: every file has `schema`. */
    int (*schema_of)(void *ctx, int64_t schema_id, const pm_schema **out, paimon_error *err);
    void *schema_ctx;
    /* The deletion vector of a data file, or NULL (borrowed for the call).  May be NULL. */
    const pm_dv *(*dv_of)(void *ctx, const char *file_name);
    void *dv_ctx;
    /* Opens data file `meta` at `path`, written with `file_schema`, for a read of every row
     * (deleted ones too: the levels apply dv_of themselves) in the columns of `out_type`,
     * matched by field id, followed by _SEQUENCE_NUMBER and _VALUE_KIND.  Fills `out`; the
     * levels call out->next until PAIMON_ITEROVER or an error, then out->release(out->ctx).
     * `path`, `meta` and the types are borrowed until then.  Required: the table layer's
     * pm_file_reader_open_source (table/file_reader.h) is the one in use; a callback keeps
     * this layer below the table's reader. */
    int (*open_file)(void *ctx, pm_fs *fs, const char *path, const pm_data_file_meta *meta,
                     const pm_schema *file_schema, const pm_type *out_type, pm_batch_source *out,
                     paimon_error *err);
    void *open_ctx;
    const char *local_dir;    /* existing directory for local files */
    const char *local_prefix; /* e.g. "<partition>-<bucket>-" (Java's localFilePrefix) */
    pm_lookup_mode mode;
    int32_t num_levels;        /* at least 2; raised to the highest file level + 1 */
    pm_lookup_options options; /* bloom filter and load factor; the bounds too unless shared */
    pm_lookup_shared *shared;  /* NULL: the levels keep their own cache and bounds */
} pm_lookup_config;

/* The answer to one lookup. */
typedef struct pm_lookup_result {
    bool found;
    int32_t level;           /* level of the file that answered */
    const char *file_name;   /* borrowed from its meta */
    int64_t position;        /* row position in that file; -1 when the mode has none */
    int64_t sequence_number; /* -1 when the mode has no value */
    int8_t value_kind;       /* PM_KIND_* (lsm/merge_function.h); -1 without value */
    const pm_batch *row;     /* one row in the schema's columns, or NULL without value;
                                  borrowed until the next lookup */
} pm_lookup_result;

typedef struct pm_lookup_stats {
    int64_t local_files; /* local files present now */
    int64_t local_bytes; /* their total size */
    int64_t builds;      /* local files built */
    int64_t evictions;   /* local files dropped (disk bound, retention) */
    int64_t bloom_skips; /* file probes the bloom filters answered, of files present now */
    int64_t page_loads;  /* pages read into the memory cache */
    int64_t page_evictions;
} pm_lookup_stats;

typedef struct pm_lookup_levels pm_lookup_levels;

/* Builds the levels from `files` (each at its meta's `level`).  Borrows `config` and its
 * strings and every meta until the file is removed or the levels are freed.  In value
 * modes, nested value columns (ARRAY, MAP, MULTISET, ROW) are PAIMON_EUNSUPPORTED.  Caller
 * owns `*out`; release with pm_lookup_levels_free(). */
PM_MUST_CHECK int pm_lookup_levels_new(pm_lookup_levels **out, const pm_lookup_config *config,
                                       const pm_data_file_meta *const *files, size_t count,
                                       paimon_error *err);

/* Applies a compaction's change of levels (Java's Levels.update): `removed` leave (their
 * local files are deleted, as Java's DropFileCallback does), `added` join at their meta's
 * level.  A removed file that is not present is PAIMON_EINVALID and changes nothing. */
PM_MUST_CHECK int pm_lookup_levels_update(pm_lookup_levels *l,
                                          const pm_data_file_meta *const *removed,
                                          size_t removed_count,
                                          const pm_data_file_meta *const *added, size_t added_count,
                                          paimon_error *err);

/* Looks up a key given as one value per trimmed primary-key column (in key order), starting
 * at `start_level`.  A data file that is missing or damaged is an error naming it; nothing is
 * cached for it. */
PM_MUST_CHECK int pm_lookup_levels_get(pm_lookup_levels *l, const pm_datum *key,
                                       int32_t start_level, pm_lookup_result *out,
                                       paimon_error *err);

/* The same with the key taken from row `row` of `b`, whose column key_cols[k] holds key
 * column k. */
PM_MUST_CHECK int pm_lookup_levels_get_row(pm_lookup_levels *l, const pm_batch *b, int64_t row,
                                           const int *key_cols, int32_t start_level,
                                           pm_lookup_result *out, paimon_error *err);

/* The same with the key as BinaryRow bytes (no arity prefix; a manifest's min/max key
 * without its first 4 bytes).  Bytes that do not decode are PAIMON_EINVALID. */
PM_MUST_CHECK int pm_lookup_levels_get_binrow(pm_lookup_levels *l, const uint8_t *key, size_t len,
                                              int32_t start_level, pm_lookup_result *out,
                                              paimon_error *err);

void pm_lookup_levels_stats(const pm_lookup_levels *l, pm_lookup_stats *out);

/* Deletes every local file and releases everything.  NULL is allowed. */
void pm_lookup_levels_free(pm_lookup_levels *l);

#endif /* PM_LSM_LOOKUP_LEVELS_H */
