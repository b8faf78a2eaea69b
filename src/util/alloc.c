/* Allocation wrapper with an injectable failure point: see alloc.h. */
#include "util/alloc.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static atomic_long fail_at; /* 0: never fail; else the allocation number that fails */
static atomic_long counter; /* allocations since the hook was last set */

static int should_fail(void)
{
    long limit = atomic_load_explicit(&fail_at, memory_order_relaxed);
    if (limit == 0)
        return 0;
    return atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed) + 1 >= limit;
}

long pm_alloc_fail_after(long n)
{
    long seen = atomic_exchange(&counter, 0);
    atomic_store(&fail_at, n);
    return seen;
}

void *pm_malloc(size_t size)
{
    if (should_fail())
        return NULL;
    return malloc(size == 0 ? 1 : size);
}

void *pm_calloc(size_t count, size_t size)
{
    if (should_fail())
        return NULL;
    if (count == 0 || size == 0)
        return calloc(1, 1);
    return calloc(count, size);
}

void *pm_realloc(void *ptr, size_t size)
{
    if (should_fail())
        return NULL;
    return realloc(ptr, size == 0 ? 1 : size);
}

void pm_free(void *ptr)
{
    free(ptr);
}

char *pm_strndup(const char *s, size_t len)
{
    char *out = pm_malloc(len + 1);
    if (out == NULL)
        return NULL;
    memcpy(out, s, len);
    out[len] = '\0';
    return out;
}

char *pm_strdup(const char *s)
{
    return pm_strndup(s, strlen(s));
}
