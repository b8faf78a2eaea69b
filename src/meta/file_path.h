/*
 * Where a file named by metadata lives, checked (DESIGN.md invariant 8).  Every path a
 * reader, compaction, lookup or cleanup opens or removes because metadata names it (data
 * and changelog files, their extra index files, deletion-vector and hash index files,
 * manifests and manifest lists) comes out of pm_file_path_resolve, which refuses what
 * could leave the table:
 *
 *  - a file name (`_FILE_NAME`, a manifest or manifest-list name in a snapshot) must be one
 *    plain path component: not empty, not "." or "..", without '/';
 *  - `_EXTERNAL_PATH` must lie under one of the roots that the table's
 *    `data-file.external-paths` names (comma-separated URIs, as Java's AbstractFileStore
 *    reads them; Java writes `<root>/<relative bucket path>[/<entropy dirs>]/<file>`), with
 *    the same scheme and authority and no "." or ".." segment; a root `/a/b` does not hold
 *    `/a/bc/x`.  A `file:` path is opened as the local path it names;
 *  - the `data-file.path-directory` between the table root and the partition directories
 *    must be a relative path without "." or ".." segments.
 *
 * Anything else is PAIMON_ECORRUPT naming the table and the entry (its file name), decided
 * from the strings alone before any file is opened or stat'ed, so that the message never
 * tells whether an outside path exists.  pm_file_path_check_options checks the same
 * options when `create` and `alter` write them (table/option_check.h).
 */
#ifndef PM_META_FILE_PATH_H
#define PM_META_FILE_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/binary_row.h"
#include "meta/options.h"
#include "meta/partition.h"
#include "util/buf.h"

/* Whether `name` is one plain path component (see above). */
bool pm_file_name_is_plain(const char *name);

/* 0 when `name` is a plain file name, else PAIMON_ECORRUPT "TABLE: WHAT 'NAME' is not a plain
 * file name".  `what` says what names it ("manifest", "data file"). */
PM_MUST_CHECK int pm_file_name_check(const char *table, const char *what, const char *name,
                                     paimon_error *err);

/* Whether `path` (a URI or an absolute local path) lies strictly under one of the roots of
 * the table option `data-file.external-paths` in `opts` (NULL or unset: no roots).  On
 * success `*local` (may be NULL) receives the offset of the local path within `path` when
 * it is a `file:` URI or scheme-less, else -1 (open the URI as it is). */
bool pm_external_path_allowed(const pm_options *opts, const char *path, ptrdiff_t *local);

/* The one function: appends to `out` the path to open of the file `name` that metadata of
 * `table` places in directory `dir` (derived by paimon-c: the bucket, index or manifest
 * directory) or, when `external` is not NULL, at that `_EXTERNAL_PATH`.  `opts` are the table
 * options whose external roots apply (may be NULL: none).  `out` is appended to; on error
 * its contents are unspecified.  PAIMON_ECORRUPT as described above; PAIMON_EUNSUPPORTED for
 * an allowed external path that the table's file system cannot open (another scheme). */
PM_MUST_CHECK int pm_file_path_resolve(const char *table, const pm_options *opts, const char *dir,
                                       const char *name, const char *external, pm_buf *out,
                                       paimon_error *err);

/* Appends to `out` the directory of `bucket` of partition `row` under `table`:
 * [data-file.path-directory/]<partition path>bucket-<b> ("bucket-postpone" for -2), the
 * partition path as Java names it (meta/partition.h).  A path-directory that is not a plain
 * relative path is PAIMON_ECORRUPT naming the table. */
PM_MUST_CHECK int pm_file_path_bucket_dir(const char *table, const pm_options *opts,
                                          const pm_field *const *parts, size_t part_count,
                                          const pm_binrow *row, const pm_partition_naming *naming,
                                          int32_t bucket, pm_buf *out, paimon_error *err);

/* The check of `create` and `alter`: `data-file.path-directory` a relative path without
 * "." or ".." segments (nor a scheme), each root of `data-file.external-paths` an absolute
 * URI with a scheme (Java's AbstractFileStore refuses roots without one) and without "."
 * or ".." segments.  PAIMON_EINVALID naming the option. */
PM_MUST_CHECK int pm_file_path_check_options(const pm_options *opts, paimon_error *err);

#endif /* PM_META_FILE_PATH_H */
