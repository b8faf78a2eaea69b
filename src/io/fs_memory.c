/*
 * An in-memory file system for tests: a flat list of (path, bytes) under a mutex.
 * Directories exist implicitly (a prefix of some file's path) or explicitly (mkdirs).
 * A created file exists, empty, from create() on and gets its bytes at close(), which is
 * what a local file looks like to a reader that does not wait for the commit.
 */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "io/fs.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/error.h"

typedef struct mem_file {
    char *path;    /* owned */
    uint8_t *data; /* owned; NULL when empty */
    size_t len;
    bool is_dir;      /* an explicit directory (mkdirs) */
    int64_t mtime_ms; /* wall clock when added or last written */
} mem_file;

typedef struct mem_fs {
    pm_fs base;
    pthread_mutex_t lock;
    mem_file *files; /* unsorted */
    size_t count, cap;
} mem_fs;

typedef struct mem_input {
    pm_input base;
    uint8_t *data; /* a private copy: the file may be replaced while we read */
    char *path;
} mem_input;

typedef struct mem_output {
    pm_output base;
    mem_fs *fs;
    pm_buf bytes;
    char *path;
} mem_output;

static long find(mem_fs *m, const char *path)
{
    for (size_t i = 0; i < m->count; i++)
        if (strcmp(m->files[i].path, path) == 0)
            return (long)i;
    return -1;
}

/* True when some entry lies below `dir`. */
static bool has_children(mem_fs *m, const char *dir)
{
    size_t dl = strlen(dir);
    for (size_t i = 0; i < m->count; i++)
        if (strncmp(m->files[i].path, dir, dl) == 0 && m->files[i].path[dl] == '/')
            return true;
    return false;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int add(mem_fs *m, const char *path, const uint8_t *data, size_t len, bool is_dir)
{
    mem_file *f;
    if (m->count == m->cap) {
        size_t cap = m->cap == 0 ? 16 : m->cap * 2;
        mem_file *grown = pm_realloc(m->files, cap * sizeof(*grown));
        if (grown == NULL)
            return PAIMON_ENOMEM;
        m->files = grown;
        m->cap = cap;
    }
    f = &m->files[m->count];
    f->path = pm_strdup(path);
    f->data = len > 0 ? pm_malloc(len) : NULL;
    if (f->path == NULL || (len > 0 && f->data == NULL)) {
        pm_free(f->path);
        pm_free(f->data);
        return PAIMON_ENOMEM;
    }
    if (len > 0)
        memcpy(f->data, data, len);
    f->len = len;
    f->is_dir = is_dir;
    f->mtime_ms = now_ms();
    m->count++;
    return 0;
}

static void drop(mem_fs *m, size_t idx)
{
    pm_free(m->files[idx].path);
    pm_free(m->files[idx].data);
    m->files[idx] = m->files[--m->count];
}

PM_MUST_CHECK static int input_read_at(pm_input *in, uint64_t off, size_t len, uint8_t *dst,
                                       paimon_error *err)
{
    mem_input *mi = (mem_input *)in;
    if (off > in->size || len > in->size - off)
        return pm_corrupt(err, "%s: read of %zu bytes at offset %llu beyond the end (%llu bytes)",
                          mi->path, len, (unsigned long long)off, (unsigned long long)in->size);
    if (len > 0)
        memcpy(dst, mi->data + off, len);
    return 0;
}

static void input_close(pm_input *in)
{
    mem_input *mi = (mem_input *)in;
    pm_free(mi->data);
    pm_free(mi->path);
    pm_free(mi);
}

PM_MUST_CHECK static int mem_open(pm_fs *fs, const char *path, pm_input **out, paimon_error *err)
{
    mem_fs *m = (mem_fs *)fs;
    mem_input *mi = pm_calloc(1, sizeof(*mi));
    long idx;
    int rc = 0;
    if (mi == NULL)
        return pm_nomem(err);
    pthread_mutex_lock(&m->lock);
    idx = find(m, path);
    if (idx < 0 || m->files[idx].is_dir) {
        rc = idx < 0 ? pm_err_set(err, PAIMON_ENOTFOUND, "%s: no such file or directory", path)
                     : pm_err_set(err, PAIMON_EINVALID, "%s: is a directory", path);
    } else {
        mem_file *f = &m->files[idx];
        mi->data = pm_malloc(f->len + 1);
        mi->path = pm_strdup(path);
        if (mi->data == NULL || mi->path == NULL)
            rc = pm_nomem(err);
        else {
            if (f->len > 0)
                memcpy(mi->data, f->data, f->len);
            mi->base.size = f->len;
        }
    }
    pthread_mutex_unlock(&m->lock);
    if (rc != 0) {
        input_close(&mi->base);
        return rc;
    }
    mi->base.read_at = input_read_at;
    mi->base.close = input_close;
    mi->base.path = mi->path;
    *out = &mi->base;
    return 0;
}

PM_MUST_CHECK static int output_write(pm_output *out, const void *data, size_t len,
                                      paimon_error *err)
{
    mem_output *mo = (mem_output *)out;
    int rc = pm_buf_append(&mo->bytes, data, len);
    if (rc != 0)
        return pm_buf_error(err, rc);
    out->pos += len;
    return 0;
}

static void output_release(mem_output *mo)
{
    pm_buf_free(&mo->bytes);
    pm_free(mo->path);
    pm_free(mo);
}

static void output_abort(pm_output *out)
{
    mem_output *mo = (mem_output *)out;
    long idx;
    pthread_mutex_lock(&mo->fs->lock);
    idx = find(mo->fs, mo->path);
    if (idx >= 0)
        drop(mo->fs, (size_t)idx);
    pthread_mutex_unlock(&mo->fs->lock);
    output_release(mo);
}

PM_MUST_CHECK static int output_close(pm_output *out, paimon_error *err)
{
    mem_output *mo = (mem_output *)out;
    long idx;
    int rc = 0;
    pthread_mutex_lock(&mo->fs->lock);
    idx = find(mo->fs, mo->path);
    if (idx < 0) {
        rc = pm_err_set(err, PAIMON_EIO, "%s: removed while being written", mo->path);
    } else {
        mem_file *f = &mo->fs->files[idx];
        pm_free(f->data);
        f->data = pm_buf_detach(&mo->bytes, &f->len);
        f->mtime_ms = now_ms();
    }
    pthread_mutex_unlock(&mo->fs->lock);
    output_release(mo);
    return rc;
}

PM_MUST_CHECK static int mem_create(pm_fs *fs, const char *path, pm_output **out, paimon_error *err)
{
    mem_fs *m = (mem_fs *)fs;
    mem_output *mo = pm_calloc(1, sizeof(*mo));
    int rc = 0;
    if (mo == NULL || (mo->path = pm_strdup(path)) == NULL) {
        pm_free(mo);
        return pm_nomem(err);
    }
    pm_buf_init(&mo->bytes, 0);
    pthread_mutex_lock(&m->lock);
    if (find(m, path) >= 0)
        rc = pm_err_set(err, PAIMON_EEXISTS, "%s: already exists", path);
    else if (add(m, path, NULL, 0, false) != 0)
        rc = pm_nomem(err);
    pthread_mutex_unlock(&m->lock);
    if (rc != 0) {
        output_release(mo);
        return rc;
    }
    mo->fs = m;
    mo->base.write = output_write;
    mo->base.close = output_close;
    mo->base.abort = output_abort;
    mo->base.path = mo->path;
    *out = &mo->base;
    return 0;
}

PM_MUST_CHECK static int mem_write_atomic(pm_fs *fs, const char *path, const void *data, size_t len,
                                          bool overwrite, paimon_error *err)
{
    mem_fs *m = (mem_fs *)fs;
    long idx;
    int rc = 0;
    pthread_mutex_lock(&m->lock);
    idx = find(m, path);
    if (idx >= 0 && !overwrite)
        rc = pm_err_set(err, PAIMON_EEXISTS, "%s: already exists", path);
    else {
        if (idx >= 0)
            drop(m, (size_t)idx);
        if (add(m, path, data, len, false) != 0)
            rc = pm_nomem(err);
    }
    pthread_mutex_unlock(&m->lock);
    return rc;
}

PM_MUST_CHECK static int mem_list(pm_fs *fs, const char *dir, pm_strlist *names, paimon_error *err)
{
    mem_fs *m = (mem_fs *)fs;
    size_t dl = strlen(dir);
    bool found = false;
    int rc = 0;
    while (dl > 1 && dir[dl - 1] == '/')
        dl--;
    pthread_mutex_lock(&m->lock);
    for (size_t i = 0; i < m->count && rc == 0; i++) {
        const char *p = m->files[i].path, *name, *slash;
        size_t nl;
        if (strncmp(p, dir, dl) != 0)
            continue;
        if (p[dl] == '\0' && m->files[i].is_dir)
            found = true;
        if (p[dl] != '/')
            continue;
        found = true;
        name = p + dl + 1;
        slash = strchr(name, '/');
        nl = slash == NULL ? strlen(name) : (size_t)(slash - name);
        {
            bool dup = false;
            for (size_t j = 0; j < names->count && !dup; j++)
                dup = strlen(names->items[j]) == nl && memcmp(names->items[j], name, nl) == 0;
            if (!dup && pm_strlist_pushn(names, name, nl) != 0)
                rc = pm_nomem(err);
        }
    }
    pthread_mutex_unlock(&m->lock);
    if (rc == 0 && !found)
        rc = pm_err_set(err, PAIMON_ENOTFOUND, "%s: no such file or directory", dir);
    return rc;
}

PM_MUST_CHECK static int mem_remove(pm_fs *fs, const char *path, paimon_error *err)
{
    mem_fs *m = (mem_fs *)fs;
    long idx;
    int rc = 0;
    pthread_mutex_lock(&m->lock);
    idx = find(m, path);
    if ((idx < 0 || m->files[idx].is_dir) && has_children(m, path))
        rc = pm_err_set(err, PAIMON_EIO, "%s: remove: Directory not empty", path);
    else if (idx < 0)
        rc = pm_err_set(err, PAIMON_ENOTFOUND, "%s: no such file or directory", path);
    else
        drop(m, (size_t)idx);
    pthread_mutex_unlock(&m->lock);
    return rc;
}

PM_MUST_CHECK static int mem_stat(pm_fs *fs, const char *path, int *kind, uint64_t *size,
                                  paimon_error *err)
{
    mem_fs *m = (mem_fs *)fs;
    long idx;
    (void)err;
    pthread_mutex_lock(&m->lock);
    idx = find(m, path);
    *size = 0;
    if (idx >= 0) {
        *kind = m->files[idx].is_dir ? 2 : 1;
        *size = m->files[idx].len;
    } else {
        *kind = has_children(m, path) ? 2 : 0;
    }
    pthread_mutex_unlock(&m->lock);
    return 0;
}

PM_MUST_CHECK static int mem_mtime(pm_fs *fs, const char *path, int64_t *ms, paimon_error *err)
{
    mem_fs *m = (mem_fs *)fs;
    long idx;
    int rc = 0;
    pthread_mutex_lock(&m->lock);
    idx = find(m, path);
    if (idx < 0)
        rc = pm_err_set(err, PAIMON_ENOTFOUND, "%s: no such file or directory", path);
    else
        *ms = m->files[idx].mtime_ms;
    pthread_mutex_unlock(&m->lock);
    return rc;
}

PM_MUST_CHECK static int mem_mkdirs(pm_fs *fs, const char *path, paimon_error *err)
{
    mem_fs *m = (mem_fs *)fs;
    int rc = 0;
    pthread_mutex_lock(&m->lock);
    if (find(m, path) < 0 && add(m, path, NULL, 0, true) != 0)
        rc = pm_nomem(err);
    pthread_mutex_unlock(&m->lock);
    return rc;
}

static void mem_destroy(pm_fs *fs)
{
    mem_fs *m = (mem_fs *)fs;
    while (m->count > 0)
        drop(m, m->count - 1);
    pm_free(m->files);
    pthread_mutex_destroy(&m->lock);
    pm_free(m);
}

pm_fs *pm_fs_memory_new(void)
{
    mem_fs *m = pm_calloc(1, sizeof(*m));
    if (m == NULL)
        return NULL;
    pthread_mutex_init(&m->lock, NULL);
    m->base.name = "memory";
    m->base.open = mem_open;
    m->base.create = mem_create;
    m->base.write_atomic = mem_write_atomic;
    m->base.list = mem_list;
    m->base.remove = mem_remove;
    m->base.stat = mem_stat;
    m->base.mkdirs = mem_mkdirs;
    m->base.destroy = mem_destroy;
    m->base.mtime = mem_mtime;
    return &m->base;
}
