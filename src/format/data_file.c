/* Format dispatch by magic bytes: see data_file.h. */
#include "format/data_file.h"

#include <string.h>

#include "format/compacted_changelog.h"
#include "util/alloc.h"
#include "util/error.h"

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
    const char *named = NULL; /* the format a compacted changelog name says it wraps */
    uint8_t head[8] = {0};
    size_t n;
    int rc;

    *out = NULL;
    /* A compacted changelog name is never read as it is (Java resolves every such name):
     * its bytes are a range of a physical file, read as a file of their own. */
    if (pm_compacted_changelog_is(path))
        rc = pm_compacted_changelog_open(fs, path, &in, &named, err);
    else
        rc = fs->open(fs, path, &in, err);
    if (rc != 0)
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
        if (named != NULL && strcmp(named, fmt->name) != 0) {
            in->close(in);
            return pm_corrupt(err, "%s: named a cc-%s file, its bytes are %s", path, named,
                              fmt->name);
        }
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
    if (named != NULL) /* the name promises a data file */
        return pm_corrupt(err, "%s: not a cc-%s file (unknown magic bytes)", path, named);
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

/* The start nearest `row` (ties: the lower one); `count` > 0. */
static int64_t nearest_start(const int64_t *starts, size_t count, int64_t row)
{
    size_t lo = 0, hi = count; /* the first start >= row lies in [lo, hi] */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (starts[mid] < row)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == count)
        return starts[count - 1];
    if (lo > 0 && row - starts[lo - 1] <= starts[lo] - row)
        return starts[lo - 1];
    return starts[lo];
}

size_t pm_section_bounds(int64_t rows, size_t want, const int64_t *starts, size_t start_count,
                         int64_t *bounds)
{
    int64_t per;
    size_t n = 0;
    if (want < 1)
        want = 1;
    per = rows > 0 ? (rows + (int64_t)want - 1) / (int64_t)want : 1;
    bounds[0] = 0;
    for (size_t i = 1; i < want; i++) {
        int64_t b = (int64_t)i * per;
        if (b >= rows)
            break;
        if (starts != NULL && start_count > 0)
            b = nearest_start(starts, start_count, b);
        if (b > bounds[n] && b < rows)
            bounds[++n] = b;
    }
    bounds[++n] = rows > 0 ? rows : 0;
    return n;
}

int pm_data_file_sections(pm_data_file *f, size_t want, int64_t *bounds, size_t *count,
                          paimon_error *err)
{
    const int64_t *starts = NULL;
    size_t n = 0;
    int rc;
    if (f->format->section_starts != NULL &&
        (rc = f->format->section_starts(f->impl, &starts, &n, err)) != 0)
        return rc;
    *count = pm_section_bounds(f->format->row_count(f->impl), want, starts, n, bounds);
    return 0;
}
