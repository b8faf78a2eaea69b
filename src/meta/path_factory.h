/*
 * Names of the files a writer creates (metadata.md §1), as Java's FileStorePathFactory and
 * DataFilePathFactory make them: one random UUID per factory and one counter per kind of
 * file, each starting at 0.  A committer writes `manifest-<u>-0`, `manifest-list-<u>-0`
 * (base), `manifest-list-<u>-1` (delta), and continues the counters in its next commit.
 * Data files take `data-<u>-<n>.<format>` (changelog files `changelog-<u>-<n>.<format>`)
 * with a UUID per partition-and-bucket writer.
 *
 * Thread safety: the counters are atomic, so one factory may name files for many threads.
 */
#ifndef PM_META_PATH_FACTORY_H
#define PM_META_PATH_FACTORY_H

#include <stdint.h>

#include "util/buf.h"
#include "util/uuid.h"

typedef enum pm_file_kind_name {
    PM_NAME_MANIFEST,       /* manifest-<u>-<n> */
    PM_NAME_MANIFEST_LIST,  /* manifest-list-<u>-<n> */
    PM_NAME_INDEX_MANIFEST, /* index-manifest-<u>-<n> */
    PM_NAME_INDEX,          /* index-<u>-<n> */
    PM_NAME_DATA,           /* <data-file.prefix><u>-<n>.<ext> */
    PM_NAME_CHANGELOG,      /* <changelog-file.prefix><u>-<n>.<ext> */
    PM_NAME_KIND_COUNT
} pm_file_kind_name;

typedef struct pm_path_factory {
    char uuid[PM_UUID_STRLEN + 1];
    long counters[PM_NAME_KIND_COUNT]; /* next number per kind (atomic) */
} pm_path_factory;

int pm_path_factory_init(pm_path_factory *f);

/* Appends the next name of `kind` to `out`.  `prefix` overrides the data/changelog prefix
 * (NULL: "data-" / "changelog-"); `ext` is the format extension for data and changelog
 * files ("parquet", "orc", "avro"), ignored otherwise. */
int pm_path_factory_next(pm_path_factory *f, pm_file_kind_name kind, const char *prefix,
                         const char *ext, pm_buf *out);

/* Appends "bucket-<b>" (or "bucket-postpone" for -2), the bucket directory name. */
int pm_bucket_dir_name(int32_t bucket, pm_buf *out);

#endif /* PM_META_PATH_FACTORY_H */
