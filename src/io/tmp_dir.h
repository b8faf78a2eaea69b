/*
 * Private local temporary directories ($TMPDIR/<prefix>XXXXXX) that a killed process does
 * not leak for ever: spill files and local lookup files of writers live in one.
 *
 * Ownership protocol (Linux flock(2), which the kernel releases when the process dies,
 * however it dies):
 *   1. mkdtemp makes the directory (mode 0700);
 *   2. the creator makes `.lock-new` inside it (O_EXCL), takes an exclusive flock on it and
 *      only then renames it to `.lock`: whoever finds `.lock` finds it locked while its
 *      owner lives;
 *   3. on release the owner unlinks `.lock` (still holding the lock), removes the
 *      directory, then closes the lock.
 * A directory is stale, and removed by the next pm_tmp_dir_create() with the same prefix
 * in the same base, when all of these hold: its name is <prefix> + 6 characters; it is a
 * directory (not a symbolic link) owned by this user; it holds a regular file `.lock` (not a
 * symbolic link) owned by this user whose flock can be taken at once.  A directory without
 * `.lock` (one being created, or made by an older version) is never touched.  Removal
 * unlinks the entries of the directory without following symbolic links (a link is
 * removed, never its target) and leaves any subdirectory, and then the directory itself,
 * in place.
 *
 * Thread safety: a pm_tmp_dir is used by one thread at a time; creations in several
 * threads or processes at once are safe (the lock decides).
 */
#ifndef PM_IO_TMP_DIR_H
#define PM_IO_TMP_DIR_H

#include <stddef.h>

#include "paimon/error.h"
#include "util/error.h"

typedef struct pm_tmp_dir {
    char *path;  /* owned: the directory, or NULL when none is made */
    int lock_fd; /* the locked `.lock` while path is set (else meaningless: a zeroed struct
                    holds no directory) */
} pm_tmp_dir;

#define PM_TMP_DIR_INIT                                                                            \
    {                                                                                              \
        NULL, -1                                                                                   \
    }

/* Removes the stale directories <prefix>XXXXXX of $TMPDIR (default /tmp), then makes a new
 * one and locks it.  PAIMON_EIO with the path and the reason when it cannot be made. */
PM_MUST_CHECK int pm_tmp_dir_create(pm_tmp_dir *d, const char *prefix, paimon_error *err);

/* Removes the stale directories <prefix>XXXXXX of `base` (see the top); `*removed` (may be
 * NULL) counts them.  Best effort: what cannot be read or removed is left as it is. */
void pm_tmp_dir_sweep(const char *base, const char *prefix, size_t *removed);

/* Removes the directory (its users have removed their files) and releases the lock.
 * Accepts a pm_tmp_dir that holds none, PM_TMP_DIR_INIT or zeroed. */
void pm_tmp_dir_release(pm_tmp_dir *d);

#endif /* PM_IO_TMP_DIR_H */
