/* Ordered string options: see options.h. */
#include "meta/options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/alloc.h"
#include "util/error.h"

void pm_options_init(pm_options *o)
{
    o->keys = NULL;
    o->values = NULL;
    o->count = 0;
    o->cap = 0;
}

void pm_options_free(pm_options *o)
{
    for (size_t i = 0; i < o->count; i++) {
        pm_free(o->keys[i]);
        pm_free(o->values[i]);
    }
    pm_free(o->keys);
    pm_free(o->values);
    pm_options_init(o);
}

int pm_options_copy(pm_options *dst, const pm_options *src)
{
    pm_options_init(dst);
    for (size_t i = 0; i < src->count; i++) {
        if (pm_options_set(dst, src->keys[i], src->values[i]) != 0) {
            pm_options_free(dst);
            return PAIMON_ENOMEM;
        }
    }
    return 0;
}

static long find(const pm_options *o, const char *key)
{
    for (size_t i = 0; i < o->count; i++)
        if (strcmp(o->keys[i], key) == 0)
            return (long)i;
    return -1;
}

int pm_options_set(pm_options *o, const char *key, const char *value)
{
    long idx = find(o, key);
    char *v = pm_strdup(value), *k;
    if (v == NULL)
        return PAIMON_ENOMEM;
    if (idx >= 0) {
        pm_free(o->values[idx]);
        o->values[idx] = v;
        return 0;
    }
    if (o->count == o->cap) {
        size_t cap = o->cap == 0 ? 8 : o->cap * 2;
        char **keys = pm_realloc(o->keys, cap * sizeof(char *));
        char **values;
        if (keys == NULL) {
            pm_free(v);
            return PAIMON_ENOMEM;
        }
        o->keys = keys;
        values = pm_realloc(o->values, cap * sizeof(char *));
        if (values == NULL) {
            pm_free(v);
            return PAIMON_ENOMEM;
        }
        o->values = values;
        o->cap = cap;
    }
    k = pm_strdup(key);
    if (k == NULL) {
        pm_free(v);
        return PAIMON_ENOMEM;
    }
    o->keys[o->count] = k;
    o->values[o->count] = v;
    o->count++;
    return 0;
}

bool pm_options_remove(pm_options *o, const char *key)
{
    long idx = find(o, key);
    if (idx < 0)
        return false;
    pm_free(o->keys[idx]);
    pm_free(o->values[idx]);
    memmove(&o->keys[idx], &o->keys[idx + 1], (o->count - (size_t)idx - 1) * sizeof(char *));
    memmove(&o->values[idx], &o->values[idx + 1], (o->count - (size_t)idx - 1) * sizeof(char *));
    o->count--;
    return true;
}

const char *pm_options_get(const pm_options *o, const char *key)
{
    long idx = find(o, key);
    return idx < 0 ? NULL : o->values[idx];
}

bool pm_options_is(const pm_options *o, const char *key, const char *value)
{
    const char *v = pm_options_get(o, key);
    return v != NULL && strcasecmp(v, value) == 0;
}

int pm_options_get_i64(const pm_options *o, const char *key, int64_t fallback, int64_t *out,
                       paimon_error *err)
{
    const char *v = pm_options_get(o, key);
    char *end = NULL;
    long long n;
    if (v == NULL) {
        *out = fallback;
        return 0;
    }
    errno = 0;
    n = strtoll(v, &end, 10);
    while (end != NULL && (*end == ' ' || *end == '\t'))
        end++;
    if (errno != 0 || end == v || *end != '\0')
        return pm_err_set(err, PAIMON_EINVALID, "option %s: '%s' is not an integer", key, v);
    *out = n;
    return 0;
}

int pm_options_get_bool(const pm_options *o, const char *key, bool fallback, bool *out,
                        paimon_error *err)
{
    const char *v = pm_options_get(o, key);
    if (v == NULL) {
        *out = fallback;
        return 0;
    }
    if (strcasecmp(v, "true") == 0)
        *out = true;
    else if (strcasecmp(v, "false") == 0)
        *out = false;
    else
        return pm_err_set(err, PAIMON_EINVALID, "option %s: '%s' is not true or false", key, v);
    return 0;
}

int pm_options_get_memory(const pm_options *o, const char *key, int64_t fallback, int64_t *out,
                          paimon_error *err)
{
    static const struct {
        const char *unit;
        int64_t factor;
    } units[] = {{"b", 1},
                 {"bytes", 1},
                 {"k", 1LL << 10},
                 {"kb", 1LL << 10},
                 {"kibibytes", 1LL << 10},
                 {"m", 1LL << 20},
                 {"mb", 1LL << 20},
                 {"mebibytes", 1LL << 20},
                 {"g", 1LL << 30},
                 {"gb", 1LL << 30},
                 {"gibibytes", 1LL << 30},
                 {"t", 1LL << 40},
                 {"tb", 1LL << 40},
                 {"tebibytes", 1LL << 40}};
    const char *v = pm_options_get(o, key), *p;
    char *end = NULL;
    long long n;
    if (v == NULL) {
        *out = fallback;
        return 0;
    }
    errno = 0;
    n = strtoll(v, &end, 10);
    if (errno != 0 || end == v || n < 0)
        return pm_err_set(err, PAIMON_EINVALID, "option %s: '%s' is not a memory size", key, v);
    p = end;
    while (*p == ' ')
        p++;
    if (*p == '\0') {
        *out = n;
        return 0;
    }
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        if (strcasecmp(p, units[i].unit) == 0) {
            if (__builtin_mul_overflow((int64_t)n, units[i].factor, out))
                break;
            return 0;
        }
    }
    return pm_err_set(err, PAIMON_EINVALID, "option %s: '%s' is not a memory size", key, v);
}
