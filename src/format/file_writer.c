/* Format dispatch for writers: see file_writer.h. */
#include "format/file_writer.h"

#include <strings.h>

#include "util/alloc.h"
#include "util/error.h"
#include "util/progress.h"

/* Adding a format: its pm_file_format, and one line here. */
static const pm_file_format *const FORMATS[] = {
    &pm_parquet_file_format,
    &pm_orc_file_format,
    &pm_avro_file_format,
    NULL,
};

int pm_file_format_find(const char *name, const pm_file_format **out, paimon_error *err)
{
    for (size_t i = 0; FORMATS[i] != NULL; i++)
        if (strcasecmp(FORMATS[i]->name, name) == 0) {
            *out = FORMATS[i];
            return 0;
        }
    *out = NULL;
    return pm_err_set(err, PAIMON_EUNSUPPORTED, "file.format '%s': paimon-c cannot write it yet",
                      name);
}

int pm_file_writer_open(pm_file_writer **out, const pm_file_format *format, pm_fs *fs,
                        const char *path, const pm_type *row, const char *codec,
                        const pm_options *opts, paimon_error *err)
{
    pm_file_writer *w;
    pm_output *o = NULL;
    int rc;
    *out = NULL;
    if ((w = pm_calloc(1, sizeof(*w))) == NULL)
        return pm_nomem(err);
    if ((rc = fs->create(fs, path, &o, err)) != 0 ||
        (rc = format->open(&w->impl, o, row, codec, opts, err)) != 0) {
        pm_free(w);
        return rc;
    }
    w->format = format;
    *out = w;
    return 0;
}

int pm_file_writer_write(pm_file_writer *w, const pm_batch *b, int64_t first, int64_t count,
                         paimon_error *err)
{
    int rc = w->format->write(w->impl, b, first, count, err);
    if (rc == 0)
        w->rows += count;
    return rc;
}

int64_t pm_file_writer_data_size(const pm_file_writer *w)
{
    return w->format->data_size(w->impl);
}

int pm_file_writer_set_pool(pm_file_writer *w, pm_pool *pool, paimon_error *err)
{
    return w->format->set_pool != NULL ? w->format->set_pool(w->impl, pool, err) : 0;
}

bool pm_file_writer_reach_target(pm_file_writer *w, bool suggested, int64_t target)
{
    if (w->format->reach_target != NULL)
        return w->format->reach_target(w->impl, suggested, target);
    return suggested && w->format->data_size(w->impl) >= target;
}

int64_t pm_file_writer_rows_until_check(const pm_file_writer *w)
{
    return w->format->rows_until_check != NULL ? w->format->rows_until_check(w->impl) : 0;
}

int pm_file_writer_close(pm_file_writer *w, uint64_t *size, paimon_error *err)
{
    int rc = w->format->close(w->impl, size, err);
    if (rc == 0 && size != NULL) {
        /* a data file (spill files of the write buffer ask no size): progress lines count it */
        pm_progress_add(PM_PROGRESS_FILES_WRITTEN, 1);
        pm_progress_add(PM_PROGRESS_ROWS_WRITTEN, w->rows);
        pm_progress_add(PM_PROGRESS_BYTES_WRITTEN, (int64_t)*size);
    }
    pm_free(w);
    return rc;
}

void pm_file_writer_abort(pm_file_writer *w)
{
    if (w == NULL)
        return;
    w->format->abort(w->impl);
    pm_free(w);
}
