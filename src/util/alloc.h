/*
 * The one allocator wrapper of the library.  Every allocation of libpaimon goes through
 * these functions so that tests can fail the Nth allocation (curl's torture tests) and
 * check that each error path releases what it took.
 *
 * Thread safety: the failure countdown is an atomic counter; the functions are as
 * thread-safe as malloc itself.
 */
#ifndef PM_UTIL_ALLOC_H
#define PM_UTIL_ALLOC_H

#include <stddef.h>

void *pm_malloc(size_t size);
void *pm_calloc(size_t count, size_t size);
void *pm_realloc(void *ptr, size_t size);
void pm_free(void *ptr);

/* Duplicates a NUL-terminated string / `len` bytes plus a NUL.  NULL on failure. */
char *pm_strdup(const char *s);
char *pm_strndup(const char *s, size_t len);

/* Test hook: make allocation number `n` (1-based, counted from now) and every later one
 * fail; 0 disables.  Returns how many allocations happened since the last call. */
long pm_alloc_fail_after(long n);

#endif /* PM_UTIL_ALLOC_H */
