/*
 * An insertion-ordered map of string keys to string values: the options of a table as a
 * schema's "options" object holds them (Java records only the options given, as strings),
 * of a file format, or of one command.  Plain data: what a key means, its type and its
 * default are the option catalogue's business (meta/options.h reads values by their type).
 */
#ifndef PM_UTIL_OPTIONS_H
#define PM_UTIL_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct pm_options {
    char **keys;   /* owned */
    char **values; /* owned */
    size_t count;
    size_t cap;
} pm_options;

void pm_options_init(pm_options *o);
void pm_options_free(pm_options *o);
/* Initializes `dst` as a copy of `src`.  0 or PAIMON_ENOMEM (dst is then empty). */
int pm_options_copy(pm_options *dst, const pm_options *src);

/* Sets (replacing an existing key in place, else appending).  0 or PAIMON_ENOMEM. */
int pm_options_set(pm_options *o, const char *key, const char *value);
/* Removes a key; true if it was present. */
bool pm_options_remove(pm_options *o, const char *key);
/* The value, or NULL when absent.  Borrowed. */
const char *pm_options_get(const pm_options *o, const char *key);
/* Whether the key is present with `value`, compared ignoring case (enum options). */
bool pm_options_is(const pm_options *o, const char *key, const char *value);

#endif /* PM_UTIL_OPTIONS_H */
