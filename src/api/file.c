/* Single data files: the public API of include/paimon/file.h over format/data_file.h. */
#include "paimon/file.h"

#include <errno.h>
#include <string.h>

#include "data/arrow.h"
#include "data/canonical.h"
#include "format/data_file.h"
#include "util/alloc.h"
#include "util/error.h"

struct paimon_file {
    pm_fs *fs;
    pm_data_file *df;
    char *path;
    char *schema; /* the file type's string */
    char **types; /* per column */
    pm_buf describe;
    pm_type *read_type; /* the selected columns */
    pm_batch *batch;    /* current batch */
    int64_t row;        /* current row in it */
    bool reading, done;
    pm_buf text; /* row JSON or value text */
};

static char *type_string(const pm_type *t)
{
    pm_buf b;
    pm_buf_init(&b, 0);
    if (pm_type_format(t, &b) != 0) {
        pm_buf_free(&b);
        return NULL;
    }
    pm_buf_cstr(&b);
    return (char *)pm_buf_detach(&b, NULL);
}

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
    pm_batch_free(f->batch);
    pm_type_free(f->read_type);
    pm_data_file_free(f->df);
    pm_fs_free(f->fs);
    pm_free(f->schema);
    pm_free(f->path);
    pm_buf_free(&f->describe);
    pm_buf_free(&f->text);
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
    pm_buf_init(&f->text, 0);
    if ((f->fs = pm_fs_local_new(false)) == NULL || (f->path = pm_strdup(path)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    PM_TRY(pm_data_file_open(&f->df, f->fs, path, err));
    t = f->df->format->type(f->df->impl);
    if ((f->schema = type_string(t)) == NULL ||
        (f->types = pm_calloc(t->field_count + 1, sizeof(char *))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < t->field_count; i++)
        if ((f->types[i] = type_string(t->fields[i].type)) == NULL) {
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
static int select_columns(const pm_type *file_type, const paimon_file_read_options *o,
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

static void read_options(const paimon_file_read_options *o, const pm_type *t, pm_read_options *ro)
{
    memset(ro, 0, sizeof(*ro));
    ro->read_type = t;
    if (o != NULL) {
        ro->batch_rows = o->batch_rows;
        ro->ranges = o->row_ranges;
        ro->range_count = o->row_range_count;
    }
}

PAIMON_API int paimon_file_read(paimon_file *f, const paimon_file_read_options *o,
                                paimon_error *err)
{
    pm_read_options ro;
    int rc;
    if (o != NULL && o->version != PAIMON_FILE_READ_OPTIONS_VERSION)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_file_read: options version %u", o->version);
    pm_batch_free(f->batch);
    f->batch = NULL;
    pm_type_free(f->read_type);
    f->read_type = NULL;
    f->reading = false;
    if ((rc = select_columns(f->df->format->type(f->df->impl), o, f->path, &f->read_type, err)) !=
        0)
        return rc;
    read_options(o, f->read_type, &ro);
    if ((rc = f->df->format->start(f->df->impl, &ro, err)) != 0)
        return rc;
    f->reading = true;
    f->done = false;
    f->row = 0;
    return 0;
}

PAIMON_API size_t paimon_file_read_column_count(const paimon_file *f)
{
    return f->read_type != NULL ? f->read_type->field_count : 0;
}

PAIMON_API const char *paimon_file_read_column_name(const paimon_file *f, size_t i)
{
    return f->read_type != NULL && i < f->read_type->field_count ? f->read_type->fields[i].name
                                                                 : NULL;
}

PAIMON_API int paimon_file_next_row(paimon_file *f, paimon_error *err)
{
    int rc;
    if (!f->reading && (rc = paimon_file_read(f, NULL, err)) != 0)
        return rc;
    if (f->done)
        return PAIMON_ITEROVER;
    if (f->batch != NULL && f->row + 1 < f->batch->row_count) {
        f->row++;
        return 0;
    }
    for (;;) {
        pm_batch_free(f->batch);
        f->batch = NULL;
        rc = f->df->format->next(f->df->impl, &f->batch, err);
        if (rc == PAIMON_ITEROVER)
            f->done = true;
        if (rc != 0)
            return rc;
        if (f->batch->row_count > 0)
            break;
    }
    f->row = 0;
    return 0;
}

PAIMON_API int paimon_file_row_json(paimon_file *f, const char **json, size_t *len,
                                    paimon_error *err)
{
    int rc;
    if (f->batch == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_file_row_json: no current row");
    f->text.len = 0;
    if ((rc = pm_batch_row_json(&f->text, f->batch, f->row, err)) != 0)
        return rc;
    *json = pm_buf_cstr(&f->text);
    if (len != NULL)
        *len = f->text.len;
    return 0;
}

PAIMON_API int paimon_file_value_text(paimon_file *f, size_t column, const char **text, size_t *len,
                                      paimon_error *err)
{
    const pm_column *c;
    bool is_null;
    int rc;
    if (f->batch == NULL || column >= f->batch->column_count)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_file_value_text: no such value");
    c = f->batch->columns[column];
    f->text.len = 0;
    if ((rc = pm_column_text(&f->text, c, f->row, &is_null, err)) != 0)
        return rc;
    *text = is_null ? NULL : pm_buf_cstr(&f->text);
    if (len != NULL)
        *len = f->text.len;
    return 0;
}

/* ---- Arrow stream ---------------------------------------------------------------------- */

typedef struct file_stream {
    paimon_file *file;
    paimon_error err;
} file_stream;

static int errno_of(int code)
{
    switch (code) {
    case PAIMON_ENOMEM: return ENOMEM;
    case PAIMON_EINVALID: return EINVAL;
    case PAIMON_EUNSUPPORTED: return ENOSYS;
    case PAIMON_ENOTFOUND: return ENOENT;
    default: return EIO;
    }
}

static int stream_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    file_stream *fs = s->private_data;
    int rc = pm_arrow_export_schema(fs->file->read_type, out, &fs->err);
    return rc != 0 ? errno_of(rc) : 0;
}

static int stream_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    file_stream *fs = s->private_data;
    pm_batch *b = NULL;
    int rc;
    memset(out, 0, sizeof(*out));
    rc = fs->file->df->format->next(fs->file->df->impl, &b, &fs->err);
    if (rc == PAIMON_ITEROVER)
        return 0; /* out->release == NULL: the end */
    if (rc != 0)
        return errno_of(rc);
    rc = pm_arrow_export_batch(b, out, &fs->err);
    return rc != 0 ? errno_of(rc) : 0;
}

static const char *stream_error(struct ArrowArrayStream *s)
{
    file_stream *fs = s->private_data;
    return fs->err.message[0] != '\0' ? fs->err.message : NULL;
}

static void stream_release(struct ArrowArrayStream *s)
{
    file_stream *fs = s->private_data;
    paimon_file_free(fs->file);
    pm_free(fs);
    s->release = NULL;
}

PAIMON_API int paimon_file_stream(const char *path, const paimon_file_read_options *o,
                                  struct ArrowArrayStream *out, paimon_error *err)
{
    file_stream *fs;
    int rc;
    memset(out, 0, sizeof(*out));
    if ((fs = pm_calloc(1, sizeof(*fs))) == NULL)
        return pm_nomem(err);
    if ((rc = paimon_file_open(&fs->file, path, err)) != 0 ||
        (rc = paimon_file_read(fs->file, o, err)) != 0) {
        paimon_file_free(fs->file);
        pm_free(fs);
        return rc;
    }
    out->get_schema = stream_schema;
    out->get_next = stream_next;
    out->get_last_error = stream_error;
    out->release = stream_release;
    out->private_data = fs;
    return 0;
}
