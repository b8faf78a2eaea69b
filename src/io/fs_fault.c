/*
 * A fault-injecting wrapper: operation number `fail_at` fails (PAIMON_EIO) or ends the
 * process (halt), for crash-consistency tests that try every N over a write and commit.
 *
 * A halt during an output write first writes half of the bytes, then _exit()s without
 * closing anything: what reached the inner file system stays as it is, as after a power
 * cut or kill -9 (for the local backend the bytes are in the kernel and survive).  A halt
 * during an atomic write leaves nothing of it, since a crash before link(2) leaves only the
 * temporary file, which is not the final name.
 *
 * Denial (pm_fs_fault_deny): every change under a path prefix (create, atomic write,
 * remove, mkdirs) fails as a read-only directory would refuse it, with PAIMON_EIO and
 * "Permission denied", while reads and listings go through: the class of failures that are
 * neither a taken name nor a lost race, testable where chmod cannot stop root.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "io/fs.h"
#include "util/alloc.h"
#include "util/error.h"

typedef struct fault_fs {
    pm_fs base;
    pm_fs *inner;
    long fail_at;
    pm_fault_mode mode;
    atomic_long ops;
    char *deny;         /* owned: changes under this prefix are refused; NULL: none */
    atomic_long denied; /* changes refused so far */
} fault_fs;

typedef struct fault_output {
    pm_output base;
    fault_fs *fs;
    pm_output *inner;
} fault_output;

typedef struct fault_input {
    pm_input base;
    fault_fs *fs;
    pm_input *inner;
} fault_input;

/* Counts one operation; returns nonzero when it must fail.  Halts here when asked to and
 * `partial` is NULL (a write halts after writing its half itself). */
PM_MUST_CHECK static int tick(fault_fs *f, const char *what, const char *path, paimon_error *err,
                              bool *halt)
{
    long n = atomic_fetch_add(&f->ops, 1) + 1;
    *halt = false;
    if (f->fail_at == 0 || n != f->fail_at)
        return 0;
    if (f->mode == PM_FAULT_HALT) {
        *halt = true;
        return 1;
    }
    pm_err_set(err, PAIMON_EIO, "%s: injected failure of %s (operation %ld)", path, what, n);
    return 1;
}

/* Refuses a change under the denied prefix. */
PM_MUST_CHECK static int denied(fault_fs *f, const char *what, const char *path, paimon_error *err)
{
    if (f->deny == NULL || strncmp(path, f->deny, strlen(f->deny)) != 0)
        return 0;
    atomic_fetch_add(&f->denied, 1);
    pm_err_set(err, PAIMON_EIO, "%s: %s: Permission denied", path, what);
    return 1;
}

static void halt_now(void)
{
    _exit(PM_FS_HALT_EXIT);
}

#define TICK(f, what, path)                                                                        \
    do {                                                                                           \
        bool halt_;                                                                                \
        if (tick((f), (what), (path), err, &halt_)) {                                              \
            if (halt_)                                                                             \
                halt_now();                                                                        \
            return PAIMON_EIO;                                                                     \
        }                                                                                          \
    } while (0)

PM_MUST_CHECK static int fin_read_at(pm_input *in, uint64_t off, size_t len, uint8_t *dst,
                                     paimon_error *err)
{
    fault_input *fi = (fault_input *)in;
    TICK(fi->fs, "read", in->path);
    return fi->inner->read_at(fi->inner, off, len, dst, err);
}

/* A prefetch is a hint, not an operation: it is forwarded uncounted, so that a table's
 * operation numbers are the same whether or not the backend underneath prefetches (local
 * and memory do not), and the reads it serves are counted as reads. */
PM_MUST_CHECK static int fin_prefetch(pm_input *in, const pm_range *ranges, size_t count,
                                      paimon_error *err)
{
    fault_input *fi = (fault_input *)in;
    return pm_input_prefetch(fi->inner, ranges, count, err);
}

static void fin_close(pm_input *in)
{
    fault_input *fi = (fault_input *)in;
    fi->inner->close(fi->inner);
    pm_free(fi);
}

PM_MUST_CHECK static int f_open(pm_fs *fs, const char *path, pm_input **out, paimon_error *err)
{
    fault_fs *f = (fault_fs *)fs;
    fault_input *fi;
    pm_input *inner = NULL;
    int rc;
    TICK(f, "open", path);
    rc = f->inner->open(f->inner, path, &inner, err);
    if (rc != 0)
        return rc;
    fi = pm_calloc(1, sizeof(*fi));
    if (fi == NULL) {
        inner->close(inner);
        return pm_nomem(err);
    }
    fi->fs = f;
    fi->inner = inner;
    fi->base.read_at = fin_read_at;
    fi->base.prefetch = inner->prefetch != NULL ? fin_prefetch : NULL;
    fi->base.close = fin_close;
    fi->base.size = inner->size;
    fi->base.path = inner->path;
    *out = &fi->base;
    return 0;
}

PM_MUST_CHECK static int fout_write(pm_output *out, const void *data, size_t len, paimon_error *err)
{
    fault_output *fo = (fault_output *)out;
    bool halt;
    int rc;
    if (tick(fo->fs, "write", out->path, err, &halt)) {
        if (halt) {
            /* Push half the bytes through, then vanish without closing anything. */
            fo->inner->write(fo->inner, data, len / 2, NULL);
            fo->inner->close(fo->inner, NULL);
            halt_now();
        }
        return PAIMON_EIO;
    }
    rc = fo->inner->write(fo->inner, data, len, err);
    if (rc == 0)
        out->pos += len;
    return rc;
}

PM_MUST_CHECK static int fout_close(pm_output *out, paimon_error *err)
{
    fault_output *fo = (fault_output *)out;
    bool halt;
    int rc;
    if (tick(fo->fs, "close", out->path, err, &halt)) {
        if (halt) {
            /* The bytes written so far are in the file; the close never happened. */
            halt_now();
        }
        fo->inner->abort(fo->inner);
        pm_free(fo);
        return PAIMON_EIO;
    }
    rc = fo->inner->close(fo->inner, err);
    pm_free(fo);
    return rc;
}

static void fout_abort(pm_output *out)
{
    fault_output *fo = (fault_output *)out;
    fo->inner->abort(fo->inner);
    pm_free(fo);
}

PM_MUST_CHECK static int f_create(pm_fs *fs, const char *path, pm_output **out, paimon_error *err)
{
    fault_fs *f = (fault_fs *)fs;
    fault_output *fo;
    pm_output *inner = NULL;
    int rc;
    TICK(f, "create", path);
    if (denied(f, "create", path, err))
        return PAIMON_EIO;
    rc = f->inner->create(f->inner, path, &inner, err);
    if (rc != 0)
        return rc;
    fo = pm_calloc(1, sizeof(*fo));
    if (fo == NULL) {
        inner->abort(inner);
        return pm_nomem(err);
    }
    fo->fs = f;
    fo->inner = inner;
    fo->base.write = fout_write;
    fo->base.close = fout_close;
    fo->base.abort = fout_abort;
    fo->base.path = inner->path;
    *out = &fo->base;
    return 0;
}

PM_MUST_CHECK static int f_write_atomic(pm_fs *fs, const char *path, const void *data, size_t len,
                                        bool overwrite, paimon_error *err)
{
    fault_fs *f = (fault_fs *)fs;
    TICK(f, "atomic write", path);
    if (denied(f, "create", path, err))
        return PAIMON_EIO;
    return f->inner->write_atomic(f->inner, path, data, len, overwrite, err);
}

PM_MUST_CHECK static int f_list(pm_fs *fs, const char *dir, pm_strlist *names, paimon_error *err)
{
    fault_fs *f = (fault_fs *)fs;
    TICK(f, "list", dir);
    return f->inner->list(f->inner, dir, names, err);
}

PM_MUST_CHECK static int f_remove(pm_fs *fs, const char *path, paimon_error *err)
{
    fault_fs *f = (fault_fs *)fs;
    TICK(f, "remove", path);
    if (denied(f, "remove", path, err))
        return PAIMON_EIO;
    return f->inner->remove(f->inner, path, err);
}

PM_MUST_CHECK static int f_stat(pm_fs *fs, const char *path, int *kind, uint64_t *size,
                                paimon_error *err)
{
    fault_fs *f = (fault_fs *)fs;
    TICK(f, "stat", path);
    return f->inner->stat(f->inner, path, kind, size, err);
}

PM_MUST_CHECK static int f_mkdirs(pm_fs *fs, const char *path, paimon_error *err)
{
    fault_fs *f = (fault_fs *)fs;
    TICK(f, "mkdirs", path);
    if (denied(f, "mkdir", path, err))
        return PAIMON_EIO;
    return f->inner->mkdirs(f->inner, path, err);
}

PM_MUST_CHECK static int f_mtime(pm_fs *fs, const char *path, int64_t *ms, paimon_error *err)
{
    fault_fs *f = (fault_fs *)fs;
    TICK(f, "mtime", path);
    return f->inner->mtime(f->inner, path, ms, err);
}

static void f_destroy(pm_fs *fs)
{
    fault_fs *f = (fault_fs *)fs;
    pm_fs_free(f->inner);
    pm_free(f->deny);
    pm_free(f);
}

pm_fs *pm_fs_fault_new(pm_fs *inner, long fail_at, pm_fault_mode mode)
{
    fault_fs *f = pm_calloc(1, sizeof(*f));
    if (f == NULL) {
        pm_fs_free(inner);
        return NULL;
    }
    f->inner = inner;
    f->fail_at = fail_at;
    f->mode = mode;
    atomic_init(&f->ops, 0);
    atomic_init(&f->denied, 0);
    f->base.name = "fault";
    f->base.open = f_open;
    f->base.create = f_create;
    f->base.write_atomic = f_write_atomic;
    f->base.list = f_list;
    f->base.remove = f_remove;
    f->base.stat = f_stat;
    f->base.mkdirs = f_mkdirs;
    f->base.destroy = f_destroy;
    f->base.mtime = inner->mtime != NULL ? f_mtime : NULL;
    /* remove_many stays NULL: pm_fs_remove_many then removes one by one, one operation
     * each, so that every removal of a batch can be failed in turn. */
    return &f->base;
}

long pm_fs_fault_count(const pm_fs *fs)
{
    const fault_fs *f = (const fault_fs *)fs;
    return atomic_load(&((fault_fs *)f)->ops);
}

int pm_fs_fault_deny(pm_fs *fs, const char *prefix)
{
    fault_fs *f = (fault_fs *)fs;
    char *copy = NULL;
    if (prefix != NULL && (copy = pm_strndup(prefix, strlen(prefix))) == NULL)
        return PAIMON_ENOMEM;
    pm_free(f->deny);
    f->deny = copy;
    return 0;
}

long pm_fs_fault_denied(const pm_fs *fs)
{
    const fault_fs *f = (const fault_fs *)fs;
    return atomic_load(&((fault_fs *)f)->denied);
}
