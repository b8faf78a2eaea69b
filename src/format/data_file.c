/* Format dispatch by magic bytes: see data_file.h. */
#include "format/data_file.h"

#include <string.h>

#include "util/alloc.h"

/* Adding a format: its pm_data_format, and one line here. */
static const pm_data_format *const FORMATS[] = {
    &pm_parquet_format,
    &pm_orc_format,
    &pm_avro_format,
    NULL,
};

int pm_data_file_open(pm_data_file **out, pm_fs *fs, const char *path, paimon_error *err)
{
    pm_input *in = NULL;
    pm_data_file *f = NULL;
    uint8_t head[8] = {0};
    size_t n;
    int rc;

    *out = NULL;
    if ((rc = fs->open(fs, path, &in, err)) != 0)
        return rc;
    n = in->size < sizeof(head) ? (size_t)in->size : sizeof(head);
    if ((rc = in->read_at(in, 0, n, head, err)) != 0) {
        in->close(in);
        return rc;
    }
    for (size_t i = 0; FORMATS[i] != NULL; i++) {
        const pm_data_format *fmt = FORMATS[i];
        if (n < fmt->magic_len || memcmp(head, fmt->magic, fmt->magic_len) != 0)
            continue;
        if ((f = pm_calloc(1, sizeof(*f))) == NULL) {
            in->close(in);
            return pm_nomem(err);
        }
        f->format = fmt;
        if ((rc = fmt->open(&f->impl, in, path, err)) != 0) {
            pm_free(f);
            return rc;
        }
        *out = f;
        return 0;
    }
    in->close(in);
    return pm_err_set(err, PAIMON_EUNSUPPORTED,
                      "%s: not a data file paimon-c can read (unknown magic bytes)", path);
}

void pm_data_file_free(pm_data_file *f)
{
    if (f == NULL)
        return;
    f->format->close(f->impl);
    pm_free(f);
}
