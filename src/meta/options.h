/*
 * Table options: an insertion-ordered map of string keys to string values, as a schema's
 * "options" object holds them (Java records only the options given, as strings).
 *
 * Typed reads with Java's defaults come from pm_options_get_*(); the option catalogue and
 * validation belong to the write path.
 */
#ifndef PM_META_OPTIONS_H
#define PM_META_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "paimon/error.h"

typedef struct pm_options {
    char **keys;   /* owned */
    char **values; /* owned */
    size_t count;
    size_t cap;
} pm_options;

void pm_options_init(pm_options *o);
void pm_options_free(pm_options *o);
int pm_options_copy(pm_options *dst, const pm_options *src);

/* Sets (replacing an existing key in place, else appending).  0 or PAIMON_ENOMEM. */
int pm_options_set(pm_options *o, const char *key, const char *value);
/* Removes a key; true if it was present. */
bool pm_options_remove(pm_options *o, const char *key);
/* The value, or NULL when absent.  Borrowed. */
const char *pm_options_get(const pm_options *o, const char *key);
/* Whether the key is present with `value`, compared ignoring case (enum options). */
bool pm_options_is(const pm_options *o, const char *key, const char *value);

/* Typed reads: `fallback` when absent; PAIMON_EINVALID naming the key when malformed. */
int pm_options_get_i64(const pm_options *o, const char *key, int64_t fallback, int64_t *out,
                       paimon_error *err);
int pm_options_get_bool(const pm_options *o, const char *key, bool fallback, bool *out,
                        paimon_error *err);

/* Memory sizes as Java's MemorySize parses them: a number and an optional unit (b, k/kb,
 * m/mb, g/gb, t/tb, any case, spaces allowed), e.g. "128 mb", "64MB", "4096". */
int pm_options_get_memory(const pm_options *o, const char *key, int64_t fallback, int64_t *out,
                          paimon_error *err);

#endif /* PM_META_OPTIONS_H */
