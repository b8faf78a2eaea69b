/*
 * What the public functions of src/api share: the one rule for versioned option structs, and
 * the one cursor every row source is read through.
 *
 * Option structs (include/paimon.h, "Options").  Every public options struct starts with
 * `unsigned int version`.  A struct grows only at its end, one version at a time, so the
 * struct a caller compiled against version v is a prefix of today's: pm_api_options_get()
 * copies that prefix over the defaults of today's version, and fields the caller's version
 * does not have keep their defaults.  Version 0 and versions above the library's are
 * PAIMON_EINVALID naming the function and both versions.  A NULL struct is all defaults.
 * Each struct is described once, in api/options.c, by the size each of its versions had:
 * the next version of a struct is one more line there.
 *
 * Cursors (include/paimon/cursor.h).  One implementation, api/cursor.c, over any
 * pm_batch_source (data/arrow_stream.h): a scan's splits, one split, a system table, the
 * changes of a snapshot, a data file -- and, later, a streaming read.
 */
#ifndef PM_API_API_H
#define PM_API_API_H

#include <stddef.h>

#include "data/arrow_stream.h"
#include "io/fs.h"
#include "paimon.h"
#include "util/error.h"
#include "util/options.h"

/* ---- option structs ---------------------------------------------------------------------- */

typedef struct pm_api_options_desc {
    const char *name;           /* "paimon_scan_options" */
    size_t size;                /* sizeof the struct of the current version */
    const void *defaults;       /* the current version's defaults (its INIT macro) */
    const size_t *version_size; /* [v - 1]: the bytes version v of the struct has */
    unsigned int current;       /* the current version: the entries of version_size */
} pm_api_options_desc;

extern const pm_api_options_desc pm_api_scan_options;
extern const pm_api_options_desc pm_api_file_read_options;
extern const pm_api_options_desc pm_api_changes_options;
extern const pm_api_options_desc pm_api_create_options;
extern const pm_api_options_desc pm_api_commit_options;
extern const pm_api_options_desc pm_api_compact_options;
extern const pm_api_options_desc pm_api_writer_options;
extern const pm_api_options_desc pm_api_alter;
extern const pm_api_options_desc pm_api_tag_options;
extern const pm_api_options_desc pm_api_orphan_options;
extern const pm_api_options_desc pm_api_stream_options;
extern const pm_api_options_desc pm_api_expire_partitions_options;
extern const pm_api_options_desc pm_api_expire_options;

/* Fills `out` (a struct of the current version, d->size bytes) from the caller's `given`:
 * NULL gives the defaults; version v in 1..current gives the first version_size[v - 1]
 * bytes of `given` over the defaults; out->version is then the current one.  Version 0 or
 * one above the current is PAIMON_EINVALID: "FN: paimon_x_options version 9; this library
 * knows versions 1 to 2". */
PM_MUST_CHECK int pm_api_options_get(const pm_api_options_desc *d, const char *fn,
                                     const void *given, void *out, paimon_error *err);

/* ---- cursors ----------------------------------------------------------------------------- */

/* A cursor over `src`, taking ownership of src->ctx, also on failure.  `kind_column` is the
 * index of the `_ROW_KIND` column of a change source, or -1 (every row is +I).  The column
 * names and types are taken from src->type (copied).  Caller owns `*out`. */
PM_MUST_CHECK int pm_cursor_new(paimon_cursor **out, const pm_batch_source *src, int kind_column,
                                paimon_error *err);

/* The ROW type of the columns `columns[0..count)` of `row`, in that order (clones). */
PM_MUST_CHECK int pm_api_project_type(const pm_type *row, const int *columns, size_t count,
                                      pm_type **out, paimon_error *err);

/* Looks a column up by name: exactly, else ignoring case (Java's catalogs are case
 * insensitive).  PAIMON_ENOTFOUND "NAME: no such column". */
PM_MUST_CHECK int pm_api_find_column(const pm_type *row, const char *name, size_t *idx,
                                     paimon_error *err);

/* The type string of `t` ("DECIMAL(18, 2)"), malloc'ed; NULL when out of memory. */
char *pm_api_type_string(const pm_type *t);

/* ---- storage (api/storage.c) ------------------------------------------------------------ */

/* The file system for `path` (io/fs.h pm_fs_for_path) made with a copy of the process-wide
 * storage settings (paimon_storage_set).  Every public function that takes a path makes its
 * file system here.  Caller owns `*out`; release with pm_fs_free(). */
PM_MUST_CHECK int pm_api_fs_for_path(pm_fs **out, const char *path, bool sync, paimon_error *err);

/* A copy of the storage settings into `out` (initialized here); release with
 * pm_api_settings_free(), which wipes credential values first. */
PM_MUST_CHECK int pm_api_settings_copy(pm_options *out, paimon_error *err);
void pm_api_settings_free(pm_options *o);

#endif /* PM_API_API_H */
