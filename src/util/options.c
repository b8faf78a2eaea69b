/* The plain options map: see options.h. */
#include "util/options.h"

#include <string.h>
#include <strings.h>

#include "paimon/error.h"
#include "util/alloc.h"

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
