/* Private temporary directories with an owner lock: see tmp_dir.h. */
#include "io/tmp_dir.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/error.h"

#define LOCK_NAME     ".lock"
#define LOCK_NEW_NAME ".lock-new"
#define SUFFIX_LEN    6 /* mkdtemp's XXXXXX */

/* Unlinks the entries of the directory `dfd` without following links; subdirectories are
 * removed only when empty (none of ours has any). */
static void remove_entries(int dfd)
{
    int fd = dup(dfd);
    DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
    struct dirent *e;
    if (dir == NULL) {
        if (fd >= 0)
            close(fd);
        return;
    }
    while ((e = readdir(dir)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (unlinkat(dfd, e->d_name, 0) != 0 && (errno == EISDIR || errno == EPERM))
            (void)unlinkat(dfd, e->d_name, AT_REMOVEDIR);
    }
    closedir(dir);
}

/* Is the entry `name` of `base_fd` a stale directory of ours?  Then remove it: true. */
static bool remove_if_stale(int base_fd, const char *name)
{
    struct stat st, opened, lock;
    int dfd = -1, lfd = -1;
    bool removed = false;

    if (fstatat(base_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
        st.st_uid != geteuid())
        return false;
    dfd = openat(base_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0)
        return false;
    /* the directory opened is the one checked (not swapped in between) */
    if (fstat(dfd, &opened) != 0 || opened.st_dev != st.st_dev || opened.st_ino != st.st_ino)
        goto done;
    lfd = openat(dfd, LOCK_NAME, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (lfd < 0 || fstat(lfd, &lock) != 0 || !S_ISREG(lock.st_mode) || lock.st_uid != geteuid())
        goto done;
    if (flock(lfd, LOCK_EX | LOCK_NB) != 0)
        goto done; /* its owner lives */
    remove_entries(dfd);
    removed = unlinkat(base_fd, name, AT_REMOVEDIR) == 0;
done:
    if (lfd >= 0)
        close(lfd); /* after the removal: no other sweeper takes the lock meanwhile */
    close(dfd);
    return removed;
}

void pm_tmp_dir_sweep(const char *base, const char *prefix, size_t *removed)
{
    size_t plen = strlen(prefix), n = 0;
    DIR *dir = opendir(base);
    struct dirent *e;
    if (removed != NULL)
        *removed = 0;
    if (dir == NULL)
        return;
    while ((e = readdir(dir)) != NULL)
        if (strlen(e->d_name) == plen + SUFFIX_LEN && strncmp(e->d_name, prefix, plen) == 0 &&
            remove_if_stale(dirfd(dir), e->d_name))
            n++;
    closedir(dir);
    if (removed != NULL)
        *removed = n;
}

int pm_tmp_dir_create(pm_tmp_dir *d, const char *prefix, paimon_error *err)
{
    const char *base = getenv("TMPDIR");
    char *path = NULL, *lock_new = NULL, *lock = NULL;
    size_t n;
    int fd = -1, rc = 0;

    if (base == NULL || base[0] == '\0')
        base = "/tmp";
    pm_tmp_dir_sweep(base, prefix, NULL);
    n = strlen(base) + strlen(prefix) + sizeof(LOCK_NEW_NAME) + SUFFIX_LEN + 4;
    if ((path = pm_malloc(n)) == NULL || (lock_new = pm_malloc(n)) == NULL ||
        (lock = pm_malloc(n)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    snprintf(path, n, "%s/%sXXXXXX", base, prefix);
    if (mkdtemp(path) == NULL) {
        rc = pm_err_set(err, PAIMON_EIO, "%s: cannot create a temporary directory: %s", path,
                        strerror(errno));
        goto done;
    }
    snprintf(lock_new, n, "%s/%s", path, LOCK_NEW_NAME);
    snprintf(lock, n, "%s/%s", path, LOCK_NAME);
    /* locked before it has the name sweepers look for */
    fd = open(lock_new, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) != 0 || rename(lock_new, lock) != 0) {
        rc = pm_err_set(err, PAIMON_EIO, "%s: cannot lock the temporary directory: %s", path,
                        strerror(errno));
        if (fd >= 0)
            close(fd);
        (void)unlink(lock_new);
        (void)rmdir(path);
        goto done;
    }
    d->path = path;
    d->lock_fd = fd;
    path = NULL;
done:
    pm_free(path);
    pm_free(lock_new);
    pm_free(lock);
    return rc;
}

void pm_tmp_dir_release(pm_tmp_dir *d)
{
    int dfd;
    if (d->path == NULL)
        return; /* none made (a zeroed struct too: its lock_fd is no descriptor of ours) */
    dfd = open(d->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd >= 0) {
        (void)unlinkat(dfd, LOCK_NAME, 0); /* still locked: no sweeper takes it */
        close(dfd);
    }
    (void)rmdir(d->path);
    pm_free(d->path);
    close(d->lock_fd);
    d->path = NULL;
    d->lock_fd = -1;
}
