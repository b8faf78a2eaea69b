/*
 * The local file system backend.
 *
 * Atomic create-if-absent (DESIGN.md invariant 1): the bytes go to a temporary file in the
 * same directory whose name starts with '.' (never "snapshot-" or "schema-": Java 1.x parses
 * every such name as an id, metadata.md §1), are fsynced, and then link(2) gives them the
 * final name; link fails with EEXIST if another process won the name, which no rename(2)
 * would.  Where the file system refuses hard links, renameat2(RENAME_NOREPLACE) is the
 * fallback.  The temporary file is always removed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "io/fs.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/uuid.h"

#define OUTPUT_BUFFER (256 * 1024)

typedef struct local_fs {
    pm_fs base;
    bool sync; /* fsync outputs and atomic writes */
} local_fs;

typedef struct local_input {
    pm_input base;
    int fd;
    char path[]; /* the path, for messages */
} local_input;

typedef struct local_output {
    pm_output base;
    int fd;
    bool sync;
    size_t used;     /* bytes in buffer */
    uint8_t *buffer; /* OUTPUT_BUFFER bytes */
    char path[];
} local_output;

/* The one mapping from errno to codes: EEXIST alone is PAIMON_EEXISTS (a commit retries
 * only that: another writer took the name); a missing file or directory is
 * PAIMON_ENOTFOUND; everything else (permission, I/O, no space, ...) is PAIMON_EIO with the
 * system's reason. */
PM_MUST_CHECK static int os_error(paimon_error *err, const char *path, const char *what, int e)
{
    if (e == ENOENT)
        return pm_err_set(err, PAIMON_ENOTFOUND, "%s: no such file or directory", path);
    if (e == ENOTDIR)
        return pm_err_set(err, PAIMON_ENOTFOUND, "%s: %s", path, strerror(e));
    if (e == EEXIST)
        return pm_err_set(err, PAIMON_EEXISTS, "%s: already exists", path);
    if (e == ENOMEM)
        return pm_nomem(err);
    return pm_err_set(err, PAIMON_EIO, "%s: %s: %s", path, what, strerror(e));
}

/* ---- input ----------------------------------------------------------------------------- */

PM_MUST_CHECK static int input_read_at(pm_input *in, uint64_t off, size_t len, uint8_t *dst,
                                       paimon_error *err)
{
    local_input *li = (local_input *)in;
    size_t done = 0;
    if (off > in->size || len > in->size - off)
        return pm_corrupt(err, "%s: read of %zu bytes at offset %llu beyond the end (%llu bytes)",
                          li->path, len, (unsigned long long)off, (unsigned long long)in->size);
    while (done < len) {
        ssize_t n = pread(li->fd, dst + done, len - done, (off_t)(off + done));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return os_error(err, li->path, "read", errno);
        }
        if (n == 0)
            return pm_corrupt(err, "%s: unexpected end of file at offset %llu", li->path,
                              (unsigned long long)(off + done));
        done += (size_t)n;
    }
    return 0;
}

static void input_close(pm_input *in)
{
    local_input *li = (local_input *)in;
    close(li->fd);
    pm_free(li);
}

PM_MUST_CHECK static int local_open(pm_fs *fs, const char *path, pm_input **out, paimon_error *err)
{
    size_t pl = strlen(path);
    struct stat st;
    local_input *li;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    (void)fs;
    if (fd < 0)
        return os_error(err, path, "open", errno);
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return os_error(err, path, "stat", e);
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return pm_err_set(err, PAIMON_EINVALID, "%s: is a directory", path);
    }
    li = pm_malloc(sizeof(*li) + pl + 1);
    if (li == NULL) {
        close(fd);
        return pm_nomem(err);
    }
    memcpy(li->path, path, pl + 1);
    li->fd = fd;
    li->base.read_at = input_read_at;
    li->base.prefetch = NULL; /* the page cache does it */
    li->base.close = input_close;
    li->base.size = (uint64_t)st.st_size;
    li->base.path = li->path;
    *out = &li->base;
    return 0;
}

/* ---- directories ----------------------------------------------------------------------- */

PM_MUST_CHECK static int mkdirs_path(const char *path, paimon_error *err)
{
    size_t len = strlen(path);
    char *copy = pm_strndup(path, len);
    int rc = 0;
    if (copy == NULL)
        return pm_nomem(err);
    for (size_t i = 1; i <= len; i++) {
        if (copy[i] == '/' || copy[i] == '\0') {
            char saved = copy[i];
            copy[i] = '\0';
            if (mkdir(copy, 0755) != 0 && errno != EEXIST) {
                rc = os_error(err, copy, "mkdir", errno);
                break;
            }
            copy[i] = saved;
        }
    }
    pm_free(copy);
    return rc;
}

PM_MUST_CHECK static int mkdirs_parent(const char *path, paimon_error *err)
{
    const char *slash = strrchr(path, '/');
    char *parent;
    struct stat st;
    int rc;
    if (slash == NULL || slash == path)
        return 0;
    parent = pm_strndup(path, (size_t)(slash - path));
    if (parent == NULL)
        return pm_nomem(err);
    rc = stat(parent, &st) == 0 ? 0 : mkdirs_path(parent, err);
    pm_free(parent);
    return rc;
}

PM_MUST_CHECK static int local_mkdirs(pm_fs *fs, const char *path, paimon_error *err)
{
    (void)fs;
    return mkdirs_path(path, err);
}

/* ---- output ---------------------------------------------------------------------------- */

PM_MUST_CHECK static int write_fully(int fd, const uint8_t *data, size_t len, const char *path,
                                     paimon_error *err)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return os_error(err, path, "write", errno);
        }
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

PM_MUST_CHECK static int output_write(pm_output *out, const void *data, size_t len,
                                      paimon_error *err)
{
    local_output *lo = (local_output *)out;
    const uint8_t *p = data;
    int rc;
    if (lo->used + len <= OUTPUT_BUFFER) {
        memcpy(lo->buffer + lo->used, p, len);
        lo->used += len;
        out->pos += len;
        return 0;
    }
    rc = write_fully(lo->fd, lo->buffer, lo->used, lo->path, err);
    if (rc != 0)
        return rc;
    lo->used = 0;
    if (len >= OUTPUT_BUFFER) {
        rc = write_fully(lo->fd, p, len, lo->path, err);
        if (rc != 0)
            return rc;
    } else {
        memcpy(lo->buffer, p, len);
        lo->used = len;
    }
    out->pos += len;
    return 0;
}

static void output_release(local_output *lo, bool remove)
{
    if (lo->fd >= 0)
        close(lo->fd);
    if (remove)
        unlink(lo->path);
    pm_free(lo->buffer);
    pm_free(lo);
}

PM_MUST_CHECK static int output_close(pm_output *out, paimon_error *err)
{
    local_output *lo = (local_output *)out;
    int rc = write_fully(lo->fd, lo->buffer, lo->used, lo->path, err);
    if (rc == 0 && lo->sync && fsync(lo->fd) != 0)
        rc = os_error(err, lo->path, "fsync", errno);
    if (rc == 0) {
        int fd = lo->fd;
        lo->fd = -1;
        if (close(fd) != 0)
            rc = os_error(err, lo->path, "close", errno);
    }
    output_release(lo, rc != 0);
    return rc;
}

static void output_abort(pm_output *out)
{
    output_release((local_output *)out, true);
}

PM_MUST_CHECK static int local_create(pm_fs *fs, const char *path, pm_output **out,
                                      paimon_error *err)
{
    local_fs *lf = (local_fs *)fs;
    size_t pl = strlen(path);
    local_output *lo;
    int fd, rc = mkdirs_parent(path, err);
    if (rc != 0)
        return rc;
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return os_error(err, path, "create", errno);
    lo = pm_malloc(sizeof(*lo) + pl + 1);
    if (lo == NULL || (lo->buffer = pm_malloc(OUTPUT_BUFFER)) == NULL) {
        pm_free(lo);
        close(fd);
        unlink(path);
        return pm_nomem(err);
    }
    memcpy(lo->path, path, pl + 1);
    lo->fd = fd;
    lo->sync = lf->sync;
    lo->used = 0;
    lo->base.write = output_write;
    lo->base.close = output_close;
    lo->base.abort = output_abort;
    lo->base.segments_begin = NULL; /* in order: the Parquet writer keeps a row group's pages */
    lo->base.segment_write = NULL;
    lo->base.segments_end = NULL;
    lo->base.pos = 0;
    lo->base.path = lo->path;
    *out = &lo->base;
    return 0;
}

/* ---- atomic writes --------------------------------------------------------------------- */

static int rename_noreplace(const char *from, const char *to)
{
#ifdef SYS_renameat2
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 1 /* RENAME_NOREPLACE */);
#else
    errno = ENOSYS;
    return -1;
#endif
}

PM_MUST_CHECK static int local_write_atomic(pm_fs *fs, const char *path, const void *data,
                                            size_t len, bool overwrite, paimon_error *err)
{
    local_fs *lf = (local_fs *)fs;
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash == NULL ? 0 : (size_t)(slash - path + 1);
    char uuid[PM_UUID_STRLEN + 1];
    char *tmp = NULL;
    int fd = -1, rc;

    rc = mkdirs_parent(path, err);
    if (rc != 0)
        return rc;
    if (pm_uuid_v4(uuid) != 0)
        return pm_err_set(err, PAIMON_EIO, "%s: no random source for a temporary name", path);
    /* "<dir>/.<name>.<uuid>.tmp": hidden, and never starting with snapshot- or schema-. */
    tmp = pm_malloc(strlen(path) + PM_UUID_STRLEN + 8);
    if (tmp == NULL)
        return pm_nomem(err);
    memcpy(tmp, path, dir_len);
    snprintf(tmp + dir_len, strlen(path) - dir_len + PM_UUID_STRLEN + 8, ".%s.%s.tmp",
             path + dir_len, uuid);

    /* Failures on the temporary file name the final path: that is what the caller knows.
     * None of them is PAIMON_EEXISTS (the temporary name is fresh): only link() below can
     * say that the name was taken. */
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        int e = errno;
        rc = os_error(err, path, "create", e == EEXIST ? EIO : e);
        tmp[0] = '\0'; /* not ours to remove */
        goto done;
    }
    rc = write_fully(fd, data, len, path, err);
    if (rc == 0 && lf->sync && fsync(fd) != 0)
        rc = os_error(err, path, "fsync", errno);
    if (close(fd) != 0 && rc == 0)
        rc = os_error(err, path, "close", errno);
    fd = -1;
    if (rc != 0)
        goto done;

    if (overwrite) {
        if (rename(tmp, path) != 0)
            rc = os_error(err, path, "rename", errno);
        else
            tmp[0] = '\0'; /* nothing left to remove */
        goto done;
    }
    if (link(tmp, path) != 0) {
        int e = errno;
        if (e == EEXIST) {
            rc = pm_err_set(err, PAIMON_EEXISTS, "%s: already exists", path);
        } else if (e == EPERM || e == ENOTSUP || e == EOPNOTSUPP || e == EXDEV) {
            if (rename_noreplace(tmp, path) == 0)
                tmp[0] = '\0';
            else
                rc = os_error(err, path, "rename", errno);
        } else {
            rc = os_error(err, path, "link", e);
        }
    }
done:
    if (tmp != NULL && tmp[0] != '\0')
        unlink(tmp);
    pm_free(tmp);
    return rc;
}

/* ---- listing, removal, stat ------------------------------------------------------------ */

PM_MUST_CHECK static int local_list(pm_fs *fs, const char *dir, pm_strlist *names,
                                    paimon_error *err)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int rc = 0;
    (void)fs;
    if (d == NULL)
        return os_error(err, dir, "list", errno);
    errno = 0;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (pm_strlist_push(names, e->d_name) != 0) {
            rc = pm_nomem(err);
            break;
        }
    }
    closedir(d);
    return rc;
}

PM_MUST_CHECK static int local_remove(pm_fs *fs, const char *path, paimon_error *err)
{
    (void)fs;
    if (unlink(path) == 0)
        return 0;
    if (errno == EISDIR && rmdir(path) == 0)
        return 0;
    return os_error(err, path, "remove", errno);
}

PM_MUST_CHECK static int local_stat(pm_fs *fs, const char *path, int *kind, uint64_t *size,
                                    paimon_error *err)
{
    struct stat st;
    (void)fs;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR) {
            *kind = 0;
            *size = 0;
            return 0;
        }
        return os_error(err, path, "stat", errno);
    }
    *kind = S_ISDIR(st.st_mode) ? 2 : 1;
    *size = (uint64_t)st.st_size;
    return 0;
}

PM_MUST_CHECK static int local_mtime(pm_fs *fs, const char *path, int64_t *ms, paimon_error *err)
{
    struct stat st;
    (void)fs;
    if (stat(path, &st) != 0)
        return os_error(err, path, "stat", errno);
    *ms = (int64_t)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
    return 0;
}

static void local_destroy(pm_fs *fs)
{
    pm_free(fs);
}

pm_fs *pm_fs_local_new(bool sync)
{
    local_fs *lf = pm_calloc(1, sizeof(*lf));
    if (lf == NULL)
        return NULL;
    lf->sync = sync;
    lf->base.name = "local";
    lf->base.open = local_open;
    lf->base.create = local_create;
    lf->base.write_atomic = local_write_atomic;
    lf->base.list = local_list;
    lf->base.remove = local_remove;
    lf->base.stat = local_stat;
    lf->base.mkdirs = local_mkdirs;
    lf->base.destroy = local_destroy;
    lf->base.mtime = local_mtime;
    return &lf->base;
}
