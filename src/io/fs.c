/* Helpers over the pm_fs primitives: see fs.h. */
#include "io/fs.h"

#include <string.h>

#include "util/alloc.h"
#include "util/error.h"

void pm_fs_free(pm_fs *fs)
{
    if (fs == NULL)
        return;
    if (fs->memo != NULL && fs->memo_free != NULL)
        fs->memo_free(fs->memo);
    fs->memo = NULL;
    fs->destroy(fs);
}

int pm_fs_read_all(pm_fs *fs, const char *path, size_t max, uint8_t **out, size_t *len,
                   paimon_error *err)
{
    pm_input *in = NULL;
    uint8_t *data = NULL;
    int rc;

    *out = NULL;
    *len = 0;
    rc = fs->open(fs, path, &in, err);
    if (rc != 0)
        return rc;
    if (max != 0 && in->size > max) {
        rc = pm_err_set(err, PAIMON_ELIMIT, "%s: file of %llu bytes exceeds the limit of %zu", path,
                        (unsigned long long)in->size, max);
        goto done;
    }
    if (in->size >= SIZE_MAX) {
        rc = pm_err_set(err, PAIMON_ELIMIT, "%s: file too large", path);
        goto done;
    }
    data = pm_malloc((size_t)in->size + 1);
    if (data == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    rc = in->read_at(in, 0, (size_t)in->size, data, err);
    if (rc != 0)
        goto done;
    data[in->size] = '\0';
    *len = (size_t)in->size;
    *out = data;
    data = NULL;
done:
    pm_free(data);
    in->close(in);
    return rc;
}

int pm_input_prefetch(pm_input *in, const pm_range *ranges, size_t count, paimon_error *err)
{
    if (in->prefetch == NULL || count == 0)
        return 0;
    return in->prefetch(in, ranges, count, err);
}

int pm_fs_remove_many(pm_fs *fs, const char *const *paths, size_t count, paimon_error *err)
{
    if (count == 0)
        return 0;
    if (fs->remove_many != NULL)
        return fs->remove_many(fs, paths, count, err);
    for (size_t i = 0; i < count; i++) {
        int rc = fs->remove(fs, paths[i], err);
        if (rc != 0 && rc != PAIMON_ENOTFOUND)
            return rc;
    }
    return 0;
}

int pm_fs_read_range(pm_fs *fs, const char *path, uint64_t off, size_t len, uint8_t *dst,
                     paimon_error *err)
{
    pm_input *in = NULL;
    int rc = fs->open(fs, path, &in, err);
    if (rc != 0)
        return rc;
    rc = in->read_at(in, off, len, dst, err);
    in->close(in);
    return rc;
}

int pm_fs_write_file(pm_fs *fs, const char *path, const void *data, size_t len, paimon_error *err)
{
    pm_output *out = NULL;
    int rc = fs->create(fs, path, &out, err);
    if (rc != 0)
        return rc;
    rc = out->write(out, data, len, err);
    if (rc != 0) {
        out->abort(out);
        return rc;
    }
    return out->close(out, err);
}

int pm_fs_exists(pm_fs *fs, const char *path, bool *exists, paimon_error *err)
{
    int kind = 0;
    uint64_t size = 0;
    int rc = fs->stat(fs, path, &kind, &size, err);
    *exists = rc == 0 && kind != 0;
    return rc;
}

int pm_fs_exists_file(pm_fs *fs, const char *path, bool *exists, paimon_error *err)
{
    int kind = 0;
    uint64_t size = 0;
    int rc;
    *exists = false;
    if (fs->file_exists != NULL)
        return fs->file_exists(fs, path, exists, err);
    rc = fs->stat(fs, path, &kind, &size, err);
    *exists = rc == 0 && kind == 1;
    return rc;
}

int pm_fs_size(pm_fs *fs, const char *path, uint64_t *size, paimon_error *err)
{
    int kind = 0;
    int rc = fs->stat(fs, path, &kind, size, err);
    if (rc != 0)
        return rc;
    if (kind != 1)
        return pm_err_set(err, PAIMON_ENOTFOUND, "%s: no such file", path);
    return 0;
}

char *pm_path_join(const char *dir, const char *name)
{
    size_t dl = strlen(dir), nl = strlen(name);
    char *out;
    while (dl > 1 && dir[dl - 1] == '/')
        dl--;
    while (nl > 0 && name[0] == '/') {
        name++;
        nl--;
    }
    out = pm_malloc(dl + 1 + nl + 1);
    if (out == NULL)
        return NULL;
    memcpy(out, dir, dl);
    if (dl > 0 && dir[dl - 1] != '/')
        out[dl++] = '/';
    memcpy(out + dl, name, nl);
    out[dl + nl] = '\0';
    return out;
}
