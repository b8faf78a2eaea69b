/*
 * What every bucket writer of one table write shares: the schema and options read once,
 * the data-file layout and statistics modes, the merge function, the write-buffer limits.
 * Built by table_write.c (pm_write_ctx_init, write_ctx.c); the bucket writers, the write
 * buffer and compaction (bucket_writer.c, kv_buffer.c, compact_task.c) only read it, from
 * as many threads as buckets flush or compact at once -- except the temporary directory,
 * made on first use under its own lock (pm_write_ctx_tmp_dir), and the merge function,
 * which keeps state while it merges: each buffer and each bucket's compaction has its own.
 *
 * Data-file layout (metadata.md §13, behaviour.md §1.1):
 *   append tables       the table's columns;
 *   primary-key tables  _KEY_<k> for each trimmed primary-key field (id 1073741823 + id;
 *                       absent with data-file.thin-mode), _SEQUENCE_NUMBER BIGINT NOT NULL
 *                       (2147483646), _VALUE_KIND TINYINT NOT NULL (2147483645), then the
 *                       table's columns.
 */
#ifndef PM_TABLE_WRITE_WRITE_CTX_H
#define PM_TABLE_WRITE_WRITE_CTX_H

#include <stdbool.h>
#include <pthread.h>
#include <stdint.h>

#include "format/file_writer.h"
#include "io/fs.h"
#include "io/tmp_dir.h"
#include "lsm/merge_function.h"
#include "meta/partition.h"
#include "meta/schema.h"
#include "table/write/col_stats.h"
#include "table/write/data_writer.h"
#include "table/write/file_index_writer.h"
#include "util/error.h"

#define PM_WRITE_MAX_KEYS 32

#define PM_KEY_FIELD_ID_START 1073741823 /* Integer.MAX_VALUE / 2 */
#define PM_SEQUENCE_NUMBER_ID 2147483646
#define PM_VALUE_KIND_ID      2147483645

#define PM_WRITE_MAX_LEVEL_SETTINGS 16

/* What files of one level are written with, as Java's KeyValueFileWriterFactory picks it:
 * file.format.per.level / file.compression.per.level / metadata.stats-mode.per.level for
 * the level, else file.format / file.compression / metadata.stats-mode; changelog files
 * take changelog-file.format / .compression / .stats-mode first. */
typedef struct pm_write_file_settings {
    int32_t level; /* -1: the levels no per-level option lists */
    const pm_file_format *format, *changelog_format;
    char *codec;                            /* owned */
    const char *changelog_codec;            /* borrowed from the options, or codec */
    pm_stats_mode *modes, *changelog_modes; /* owned, per file_type column */
    pm_stats_source stats_source, changelog_stats_source;
} pm_write_file_settings;

typedef struct pm_write_ctx {
    pm_fs *fs;                 /* the table's file system (borrowed) */
    const char *table;         /* table root */
    const pm_schema *schema;   /* the latest schema (borrowed) */
    const pm_options *opts;    /* its options */
    const pm_type *value_type; /* the table's columns */
    int64_t schema_id;
    bool primary_key;

    /* primary key */
    int key_idx[PM_WRITE_MAX_KEYS]; /* trimmed primary-key fields in value_type */
    size_t key_count;
    int seq_idx[PM_WRITE_MAX_KEYS]; /* sequence.field fields in value_type */
    size_t seq_count;
    bool seq_descending;
    pm_merge_fn *merge;   /* owned */
    bool changelog_input; /* changelog-producer = input */
    /* changelog-producer = full-compaction: compactions into the max level write changelog
     * files (FullChangelogMergeTreeCompactRewriter) */
    bool changelog_full;
    /* changelog-producer.row-deduplicate: an unchanged value yields no -U/+U; the columns of
     * value_type compared (the ...-ignore-fields left out), NULL when off.  Owned. */
    bool *changelog_compare;

    /* data files */
    pm_type *file_type;                    /* owned: the layout above */
    int file_key_cols[PM_WRITE_MAX_KEYS];  /* key fields among file_type's columns */
    int file_key_stats[PM_WRITE_MAX_KEYS]; /* columns holding the key statistics */
    int seq_col, kind_col;
    size_t value_start; /* first table column in file_type */
    /* format, compression and statistics by level (the *.per.level options); [0] holds
     * every level no such option lists */
    pm_write_file_settings settings[PM_WRITE_MAX_LEVEL_SETTINGS];
    size_t settings_count;
    const char *data_prefix, *changelog_prefix;
    int64_t target_size;
    bool dense;
    pm_file_index_conf index; /* owned */
    const pm_file_index_conf *index_or_null;

    /* write buffer */
    int64_t buffer_size;  /* write-buffer-size */
    bool spillable;       /* write-buffer-spillable */
    int64_t spill_fan_in; /* local-sort.max-num-file-handles */
    const char *spill_codec;
    pm_tmp_dir tmp;           /* owned: spill and lookup files; made on first use, removed at
                              the end, locked while alive (io/tmp_dir.h) */
    pthread_mutex_t tmp_lock; /* made on first use by whichever bucket's thread comes first */
    const char *tmp_dir;      /* tmp.path (pm_write_ctx_tmp_dir) */
    pm_fs *tmp_fs;            /* owned: the local file system of spill files */
    pm_options spill_opts;    /* owned: the Parquet layout of spill files (small row groups) */

    /* partitions */
    const pm_field *part_fields[PM_WRITE_MAX_KEYS];
    size_t part_count;
    pm_partition_naming naming;
} pm_write_ctx;

/* Builds the context of a write to `table` with schema `s` (both borrowed until release).
 * PAIMON_EUNSUPPORTED for tables this writer cannot write as Java would: postpone buckets,
 * bucket-function.type = hive, data-file.external-paths, row tracking and data evolution,
 * manifest formats other than Avro and ORC, primary keys of nested types, and what the
 * data-file writers refuse (format/file_writer.h). */
PM_MUST_CHECK int pm_write_ctx_init(pm_write_ctx *c, pm_fs *fs, const char *table,
                                    const pm_schema *s, paimon_error *err);
void pm_write_ctx_release(pm_write_ctx *c);

/* The directory of a bucket's index files, appended to `out`: the table's index directory,
 * or the bucket's own under index.file-in-data-file-dir. */
PM_MUST_CHECK int pm_write_index_dir(const pm_write_ctx *c, const uint8_t *partition,
                                     size_t partition_len, int32_t bucket, pm_buf *out,
                                     paimon_error *err);

/* The write's local temporary directory, $TMPDIR/paimon-write-XXXXXX (Java's io tmp dirs):
 * spill files and local lookup files.  Made on first use, after removing the directories
 * that killed writers left behind (io/tmp_dir.h); release removes it (its users remove
 * their files first). */
PM_MUST_CHECK int pm_write_ctx_tmp_dir(pm_write_ctx *c, paimon_error *err);

/* The directory of a partition and bucket (data-file.path-directory, the partition path as
 * Java names it, bucket-<b>) appended to `out`. */
PM_MUST_CHECK int pm_write_bucket_dir(const pm_write_ctx *c, const uint8_t *partition,
                                      size_t partition_len, int32_t bucket, pm_buf *out,
                                      paimon_error *err);

/* The conf of a rolling writer of this table's data files (or changelog files) in `dir`
 * at `level` (format, compression and statistics of that level), file source APPEND;
 * borrows `names` and `seq_counter`. */
void pm_write_ctx_writer_conf(const pm_write_ctx *c, const char *dir, pm_path_factory *names,
                              bool changelog, int32_t level, int64_t *seq_counter,
                              pm_data_writer_conf *dc);

#endif /* PM_TABLE_WRITE_WRITE_CTX_H */
