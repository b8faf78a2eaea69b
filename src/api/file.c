/*
 * Single data files: the public API of include/paimon/file.h over format/data_file.h.  A
 * file's rows are a batch source read through the one cursor (api/cursor.c); the source
 * opens the file again on its own handle, so the cursor and its Arrow stream need nothing
 * of the paimon_file they came from.
 *
 * With more than one thread (paimon_file_read_options.threads) a file of more than
 * FILE_SECTION_MIN_ROWS rows is cut into sections of consecutive rows, up to two per thread,
 * each read on its own handle with the section as its row range (every format skips what
 * lies outside a range) on the thread pool, and returned in section order
 * (data/parallel_source.h): the rows are the ones, in the order, that one thread reads.
 * A section begins only where its format lets it begin without decoding again what the
 * section before decodes (pm_data_file_sections(): an ORC stripe's first row).  A file read
 * on one handle (fewer rows, one ORC stripe, or row ranges given) spreads its
 * decompression over the pool instead: Parquet pages decompressed ahead
 * (format/parquet/column.h), the streams of an ORC stripe at once (orc_stream_jobs.h).
 */
#include "paimon/file.h"

#include <string.h>

#include "api/api.h"
#include "data/parallel_source.h"
#include "format/data_file.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/pool.h"

struct paimon_file {
    pm_fs *fs;
    pm_options settings; /* the storage settings it was opened with, for its cursors' fs */
    pm_data_file *df;
    char *path;   /* as given, for messages and reopening */
    char *schema; /* the file type's string */
    char **types; /* per column */
    pm_buf describe;
};

PAIMON_API void paimon_file_free(paimon_file *f)
{
    if (f == NULL)
        return;
    if (f->types != NULL && f->df != NULL) {
        const pm_type *t = f->df->format->type(f->df->impl);
        for (size_t i = 0; i < t->field_count; i++)
            pm_free(f->types[i]);
    }
    pm_free(f->types);
    pm_data_file_free(f->df);
    pm_fs_free(f->fs);
    pm_api_settings_free(&f->settings);
    pm_free(f->schema);
    pm_free(f->path);
    pm_buf_free(&f->describe);
    pm_free(f);
}

PAIMON_API int paimon_file_open(paimon_file **out, const char *path, paimon_error *err)
{
    paimon_file *f = NULL;
    const pm_type *t;
    int rc = 0;

    if (out == NULL || path == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_file_open: NULL argument");
    *out = NULL;
    if ((f = pm_calloc(1, sizeof(*f))) == NULL)
        return pm_nomem(err);
    pm_buf_init(&f->describe, 0);
    pm_options_init(&f->settings);
    if ((f->path = pm_strdup(path)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    PM_TRY(pm_api_settings_copy(&f->settings, err));
    PM_TRY(pm_fs_for_path(&f->fs, path, &f->settings, false, err));
    PM_TRY(pm_data_file_open(&f->df, f->fs, pm_fs_local_path(path), err));
    t = f->df->format->type(f->df->impl);
    if ((f->schema = pm_api_type_string(t)) == NULL ||
        (f->types = pm_calloc(t->field_count + 1, sizeof(char *))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < t->field_count; i++)
        if ((f->types[i] = pm_api_type_string(t->fields[i].type)) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
    *out = f;
    f = NULL;
done:
    paimon_file_free(f);
    return rc;
}

PAIMON_API const char *paimon_file_format(const paimon_file *f)
{
    return f->df->format->name;
}

PAIMON_API const char *paimon_file_schema(const paimon_file *f)
{
    return f->schema;
}

PAIMON_API size_t paimon_file_column_count(const paimon_file *f)
{
    return f->df->format->type(f->df->impl)->field_count;
}

PAIMON_API const char *paimon_file_column_name(const paimon_file *f, size_t i)
{
    const pm_type *t = f->df->format->type(f->df->impl);
    return i < t->field_count ? t->fields[i].name : NULL;
}

PAIMON_API const char *paimon_file_column_type(const paimon_file *f, size_t i)
{
    const pm_type *t = f->df->format->type(f->df->impl);
    return i < t->field_count ? f->types[i] : NULL;
}

PAIMON_API int64_t paimon_file_row_count(const paimon_file *f)
{
    return f->df->format->row_count(f->df->impl);
}

PAIMON_API int paimon_file_describe(paimon_file *f, const char **text, paimon_error *err)
{
    int rc;
    f->describe.len = 0;
    if ((rc = f->df->format->describe(f->df->impl, &f->describe, err)) != 0)
        return rc;
    *text = pm_buf_cstr(&f->describe);
    return 0;
}

/* The ROW type of the selected columns (names looked up in the file's type). */
PM_MUST_CHECK static int select_columns(const pm_type *file_type, const paimon_file_read_options *o,
                                        const char *path, pm_type **out, paimon_error *err)
{
    pm_type *row;
    *out = NULL;
    if (o == NULL || o->columns == NULL)
        return (*out = pm_type_clone(file_type)) != NULL ? 0 : pm_nomem(err);
    if ((row = pm_type_new(PM_TYPE_ROW)) == NULL)
        return pm_nomem(err);
    row->nullable = false;
    for (size_t i = 0; i < o->column_count; i++) {
        const pm_field *f = pm_type_field_by_name(file_type, o->columns[i], NULL);
        if (f == NULL) {
            pm_type_free(row);
            return pm_err_set(err, PAIMON_ENOTFOUND, "%s: no column '%s'", path, o->columns[i]);
        }
        if (pm_type_field_by_name(row, o->columns[i], NULL) != NULL) {
            pm_type_free(row);
            return pm_err_set(err, PAIMON_EINVALID, "%s: column '%s' selected twice", path,
                              o->columns[i]);
        }
        if (pm_type_row_add(row, f->id, f->name, pm_type_clone(f->type)) != 0) {
            pm_type_free(row);
            return pm_nomem(err);
        }
    }
    *out = row;
    return 0;
}

/* ---- reading ------------------------------------------------------------------------------ */

/* A data file's rows: the source of paimon_file_cursor(). */
typedef struct file_source {
    pm_fs *fs;
    pm_data_file *df;
    pm_type *read_type; /* the selected columns */
    int64_t *ranges;    /* the row ranges (a copy: the reader borrows them), or NULL */
} file_source;

PM_MUST_CHECK static int file_next(void *ctx, pm_batch **out, paimon_error *err)
{
    file_source *fs = ctx;
    return fs->df->format->next(fs->df->impl, out, err);
}

static void file_release(void *ctx)
{
    file_source *fs = ctx;
    pm_data_file_free(fs->df);
    pm_fs_free(fs->fs);
    pm_type_free(fs->read_type);
    pm_free(fs->ranges);
    pm_free(fs);
}

/* ---- reading in sections ------------------------------------------------------------------ */

/* The fewest rows a section has: below that the reads are too short to be worth a thread. */
#define FILE_SECTION_MIN_ROWS 65536

/* What every section's source is opened from (owned by the cursor's source). */
typedef struct file_sections {
    char *path;
    pm_options settings;
    pm_type *read_type;
    int64_t batch_rows;
    int64_t bounds[2 * PM_POOL_MAX_THREADS + 1]; /* section i: rows [bounds[i], bounds[i+1]) */
    pm_batch_source inner;                       /* the parallel source over the sections */
} file_sections;

static void sections_free(file_sections *fs)
{
    if (fs == NULL)
        return;
    pm_free(fs->path);
    pm_api_settings_free(&fs->settings);
    pm_type_free(fs->read_type);
    pm_free(fs);
}

/* Opens section `idx` on a pool thread: a handle of its own, its rows as the range. */
PM_MUST_CHECK static int section_open(void *ctx, size_t idx, pm_batch_source *out,
                                      paimon_error *err)
{
    file_sections *ss = ctx;
    file_source *fs = NULL;
    pm_read_options ro;
    int64_t start = ss->bounds[idx], end = ss->bounds[idx + 1];
    int rc = 0;
    if ((fs = pm_calloc(1, sizeof(*fs))) == NULL)
        return pm_nomem(err);
    if ((fs->ranges = pm_malloc(2 * sizeof(int64_t))) == NULL ||
        (fs->read_type = pm_type_clone(ss->read_type)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    fs->ranges[0] = start;
    fs->ranges[1] = end;
    PM_TRY(pm_fs_for_path(&fs->fs, ss->path, &ss->settings, false, err));
    PM_TRY(pm_data_file_open(&fs->df, fs->fs, pm_fs_local_path(ss->path), err));
    memset(&ro, 0, sizeof(ro));
    ro.read_type = fs->read_type;
    ro.batch_rows = ss->batch_rows;
    ro.ranges = fs->ranges;
    ro.range_count = 1;
    PM_TRY(fs->df->format->start(fs->df->impl, &ro, err));
    memset(out, 0, sizeof(*out));
    out->next = file_next;
    out->release = file_release;
    out->ctx = fs;
    out->type = fs->read_type;
    fs = NULL;
done:
    if (fs != NULL)
        file_release(fs);
    return rc;
}

PM_MUST_CHECK static int sections_next(void *ctx, pm_batch **out, paimon_error *err)
{
    file_sections *ss = ctx;
    return ss->inner.next(ss->inner.ctx, out, err);
}

static void sections_release(void *ctx)
{
    file_sections *ss = ctx;
    ss->inner.release(ss->inner.ctx); /* stops and waits for the reads in flight */
    sections_free(ss);
}

/* With more than one thread and enough rows: `*src` becomes a source over the file's
 * sections read in parallel (src->ctx NULL otherwise: the caller reads on its thread).
 * `read_type` is the selection (copied). */
PM_MUST_CHECK static int open_sections(pm_batch_source *src, paimon_file *f,
                                       const pm_type *read_type, int64_t batch_rows,
                                       unsigned int threads, paimon_error *err)
{
    file_sections *ss = NULL;
    size_t n = threads > 0 ? threads : pm_pool_default_threads(), count;
    int64_t rows = f->df->format->row_count(f->df->impl);
    int rc = 0;
    memset(src, 0, sizeof(*src));
    if (n < 2 || rows < 2 * FILE_SECTION_MIN_ROWS)
        return 0;
    count = (size_t)(rows / FILE_SECTION_MIN_ROWS);
    if (n > PM_POOL_MAX_THREADS)
        n = PM_POOL_MAX_THREADS;
    if (count > 2 * n)
        count = 2 * n;
    if ((ss = pm_calloc(1, sizeof(*ss))) == NULL)
        return pm_nomem(err);
    pm_options_init(&ss->settings);
    ss->batch_rows = batch_rows;
    PM_TRY(pm_data_file_sections(f->df, count, ss->bounds, &count, err));
    if (count < 2) /* one ORC stripe: one handle, its streams decompressed on the pool */
        goto done;
    if ((ss->path = pm_strdup(f->path)) == NULL ||
        (ss->read_type = pm_type_clone(read_type)) == NULL ||
        pm_options_copy(&ss->settings, &f->settings) != 0) {
        rc = pm_nomem(err);
        goto done;
    }
    PM_TRY(pm_parallel_source_open(&ss->inner, ss->read_type, count, section_open, ss,
                                   (unsigned int)n, err));
    if (ss->inner.ctx == NULL) /* no pool after all: one thread */
        goto done;
    src->next = sections_next;
    src->release = sections_release;
    src->ctx = ss;
    src->type = ss->read_type;
    ss = NULL;
done:
    sections_free(ss);
    return rc;
}

PAIMON_API int paimon_file_cursor(paimon_cursor **out, paimon_file *f,
                                  const paimon_file_read_options *options, paimon_error *err)
{
    paimon_file_read_options o;
    file_source *fs = NULL;
    pm_batch_source src;
    pm_read_options ro;
    int rc = 0;

    paimon_error_clear(err);
    if (out != NULL)
        *out = NULL;
    if (out == NULL || f == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_file_cursor: file and out are required");
    PM_TRY(pm_api_options_get(&pm_api_file_read_options, "paimon_file_cursor", options, &o, err));
    if ((fs = pm_calloc(1, sizeof(*fs))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    PM_TRY(pm_fs_for_path(&fs->fs, f->path, &f->settings, false, err));
    PM_TRY(pm_data_file_open(&fs->df, fs->fs, pm_fs_local_path(f->path), err));
    PM_TRY(select_columns(fs->df->format->type(fs->df->impl), &o, f->path, &fs->read_type, err));
    if (o.row_ranges == NULL) {
        PM_TRY(open_sections(&src, f, fs->read_type, o.batch_rows, o.threads, err));
        if (src.ctx != NULL) {
            file_release(fs);
            return pm_cursor_new(out, &src, -1, err);
        }
    }
    memset(&ro, 0, sizeof(ro));
    ro.read_type = fs->read_type;
    ro.batch_rows = o.batch_rows;
    /* one handle: its pages decompressed ahead on the pool (Parquet), NULL on one thread */
    ro.pool = pm_pool_shared(o.threads > PM_POOL_MAX_THREADS ? PM_POOL_MAX_THREADS : o.threads);
    if (o.row_ranges != NULL && o.row_range_count > 0) {
        size_t n = o.row_range_count * 2;
        if (n / 2 != o.row_range_count || (fs->ranges = pm_calloc(n, sizeof(int64_t))) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        memcpy(fs->ranges, o.row_ranges, n * sizeof(int64_t));
        ro.ranges = fs->ranges;
        ro.range_count = o.row_range_count;
    }
    PM_TRY(fs->df->format->start(fs->df->impl, &ro, err));
    memset(&src, 0, sizeof(src));
    src.next = file_next;
    src.release = file_release;
    src.ctx = fs;
    src.type = fs->read_type;
    fs = NULL;
    rc = pm_cursor_new(out, &src, -1, err);
done:
    if (fs != NULL)
        file_release(fs);
    return rc;
}
