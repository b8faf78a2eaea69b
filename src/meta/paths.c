/* Table layout and versioned file names: see paths.h. */
#include "meta/paths.h"

#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/json.h"

char *pm_table_file(const char *table, const char *dir, const char *name)
{
    char *d = pm_path_join(table, dir), *f;
    if (d == NULL || name == NULL)
        return d;
    f = pm_path_join(d, name);
    pm_free(d);
    return f;
}

bool pm_parse_versioned_name(const char *name, const char *prefix, int64_t *id)
{
    size_t pl = strlen(prefix);
    const char *p = name + pl;
    int64_t v = 0;
    if (strncmp(name, prefix, pl) != 0 || *p == '\0')
        return false;
    for (; *p != '\0'; p++) {
        if (*p < '0' || *p > '9')
            return false;
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *p - '0', &v))
            return false;
    }
    *id = v;
    return true;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

int pm_list_versioned(pm_fs *fs, const char *dir, const char *prefix, int64_t **ids, size_t *count,
                      paimon_error *err)
{
    pm_strlist names;
    int64_t *out = NULL;
    size_t n = 0;
    int rc;

    *ids = NULL;
    *count = 0;
    pm_strlist_init(&names);
    /* a missing directory lists as PAIMON_ENOTFOUND (io/fs.h): no entries.  Not asked
     * first: on S3 that question costs a HEAD and a LIST of its own */
    if ((rc = fs->list(fs, dir, &names, err)) == PAIMON_ENOTFOUND) {
        paimon_error_clear(err);
        rc = 0;
        goto done;
    }
    if (rc != 0)
        goto done;
    out = pm_malloc((names.count + 1) * sizeof(int64_t));
    if (out == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < names.count; i++) {
        int64_t id;
        if (pm_parse_versioned_name(names.items[i], prefix, &id))
            out[n++] = id;
    }
    qsort(out, n, sizeof(int64_t), cmp_i64);
    *ids = out;
    *count = n;
    out = NULL;
done:
    pm_free(out);
    pm_strlist_free(&names);
    return rc;
}

int pm_metadata_create_json(pm_fs *fs, char *path, json_t *root, paimon_error *err)
{
    pm_buf b;
    int rc;
    if (path == NULL) {
        json_decref(root);
        return pm_nomem(err);
    }
    pm_buf_init(&b, 0);
    rc = pm_json_write_jackson_owned(&b, root);
    if (rc != 0)
        rc = pm_buf_error(err, rc);
    else
        rc = fs->write_atomic(fs, path, b.data, b.len, false, err);
    pm_buf_free(&b);
    pm_free(path);
    return rc;
}
