/* fastutil-compatible int set: see int_set.h. */
#include "util/int_set.h"

#include <math.h>
#include <string.h>

#include "paimon/error.h"
#include "util/alloc.h"

static uint32_t mix(int32_t x)
{
    uint32_t h = (uint32_t)x * 0x9E3779B9u;
    return h ^ (h >> 16);
}

static size_t next_pow2(uint64_t x)
{
    uint64_t p = 1;
    while (p < x)
        p <<= 1;
    return (size_t)p;
}

/* HashCommon.arraySize(expected, 0.75f) */
static size_t array_size(size_t expected)
{
    size_t s = next_pow2((uint64_t)ceilf((float)expected / 0.75f));
    return s < 2 ? 2 : s;
}

/* HashCommon.maxFill(n, 0.75f) */
static size_t max_fill(size_t n)
{
    size_t f = (size_t)ceilf((float)n * 0.75f);
    return f < n - 1 ? f : n - 1;
}

int pm_int_set_init(pm_int_set *s, size_t expected)
{
    memset(s, 0, sizeof(*s));
    s->n = array_size(expected);
    s->max_fill = max_fill(s->n);
    if ((s->key = pm_calloc(s->n + 1, sizeof(int32_t))) == NULL)
        return PAIMON_ENOMEM;
    return 0;
}

void pm_int_set_free(pm_int_set *s)
{
    pm_free(s->key);
    memset(s, 0, sizeof(*s));
}

static int rehash(pm_int_set *s, size_t new_n)
{
    int32_t *nk = pm_calloc(new_n + 1, sizeof(int32_t));
    size_t mask = new_n - 1, i = s->n, real = s->size - (s->has_zero ? 1 : 0);
    if (nk == NULL)
        return PAIMON_ENOMEM;
    for (size_t j = real; j-- != 0;) {
        size_t pos;
        while (s->key[--i] == 0)
            ;
        pos = mix(s->key[i]) & mask;
        while (nk[pos] != 0)
            pos = (pos + 1) & mask;
        nk[pos] = s->key[i];
    }
    pm_free(s->key);
    s->key = nk;
    s->n = new_n;
    s->max_fill = max_fill(new_n);
    return 0;
}

int pm_int_set_add(pm_int_set *s, int32_t k, bool *added)
{
    if (added != NULL)
        *added = false;
    if (k == 0) {
        if (s->has_zero)
            return 0;
        s->has_zero = true;
    } else {
        size_t mask = s->n - 1, pos = mix(k) & mask;
        while (s->key[pos] != 0) {
            if (s->key[pos] == k)
                return 0;
            pos = (pos + 1) & mask;
        }
        s->key[pos] = k;
    }
    if (added != NULL)
        *added = true;
    if (s->size++ >= s->max_fill)
        return rehash(s, array_size(s->size + 1));
    return 0;
}

bool pm_int_set_contains(const pm_int_set *s, int32_t k)
{
    size_t mask, pos;
    if (k == 0)
        return s->has_zero;
    mask = s->n - 1;
    for (pos = mix(k) & mask; s->key[pos] != 0; pos = (pos + 1) & mask)
        if (s->key[pos] == k)
            return true;
    return false;
}

void pm_int_set_keys(const pm_int_set *s, int32_t *out)
{
    size_t w = 0;
    if (s->has_zero)
        out[w++] = 0;
    for (size_t pos = s->n; pos-- > 0;)
        if (s->key[pos] != 0)
            out[w++] = s->key[pos];
}
