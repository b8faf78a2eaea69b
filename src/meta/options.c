/*
 * Typed reads of table options with the catalogue's defaults: see options.h.  Every getter
 * goes through read_option(): find the definition, check the call against it, take the
 * value (or a fallback key's, or the default) and parse it with pm_option_parse.
 */
#include "meta/options.h"

#include "meta/option_catalog.h"
#include "util/error.h"

/* Which catalogue types a getter reads; `kind` names the getter in messages. */
typedef struct getter {
    const char *kind;
    pm_opt_type type, type2; /* type2: a second accepted type (INT and LONG) */
} getter;

static const getter I64 = {"integer", PM_OPT_INT, PM_OPT_LONG};
static const getter BOOL = {"boolean", PM_OPT_BOOL, PM_OPT_BOOL};
static const getter DOUBLE = {"double", PM_OPT_DOUBLE, PM_OPT_DOUBLE};
static const getter MEMORY = {"memory size", PM_OPT_MEMORY, PM_OPT_MEMORY};
static const getter DURATION = {"duration", PM_OPT_DURATION, PM_OPT_DURATION};

/* Reads `key` as `g` into *out.  `fallback` is NULL for the plain getters (the catalogue's
 * default applies) and the call site's value for the `_or` getters. */
PM_MUST_CHECK static int read_option(const pm_options *o, const char *key, const getter *g,
                                     const pm_option_value *fallback, pm_option_value *out,
                                     paimon_error *err)
{
    const pm_option_def *d = pm_option_canonical(key);
    const char *text;
    pm_opt_type type = g->type2; /* keys the catalogue does not know: LONG for integers */
    if (d != NULL) {
        if (d->type != g->type && d->type != g->type2)
            return pm_err_set(err, PAIMON_EINVALID,
                              "option %s: read as a %s, but the option catalogue has another "
                              "type (a paimon-c defect)",
                              key, g->kind);
        if ((fallback == NULL) != (d->dflt != NULL))
            return pm_err_set(err, PAIMON_EINVALID,
                              "option %s: Java declares %s default; read it with %s (a "
                              "paimon-c defect)",
                              key, d->dflt != NULL ? "a" : "no",
                              d->dflt != NULL ? "the plain getter" : "an _or getter");
        key = d->key;
        type = d->type;
    } else if (fallback == NULL) {
        return pm_err_set(err, PAIMON_EINVALID,
                          "option %s: not in the option catalogue; read it with an _or getter "
                          "(a paimon-c defect)",
                          key);
    }
    text = d != NULL ? pm_option_find(o, d) : pm_options_get(o, key);
    if (text != NULL)
        return pm_option_parse(type, key, text, out, err);
    if (fallback != NULL) {
        *out = *fallback;
        return 0;
    }
    return pm_option_parse(type, key, d->dflt, out, err);
}

/* The getters of values held in an int64_t (integers, bytes, milliseconds). */
PM_MUST_CHECK static int read_int(const pm_options *o, const char *key, const getter *g,
                                  const int64_t *fallback, int64_t *out, paimon_error *err)
{
    pm_option_value f = {.i = fallback != NULL ? *fallback : 0}, v;
    int rc = read_option(o, key, g, fallback != NULL ? &f : NULL, &v, err);
    if (rc == 0)
        *out = v.i;
    return rc;
}

PM_MUST_CHECK static int read_bool(const pm_options *o, const char *key, const bool *fallback,
                                   bool *out, paimon_error *err)
{
    pm_option_value f = {.b = fallback != NULL && *fallback}, v;
    int rc = read_option(o, key, &BOOL, fallback != NULL ? &f : NULL, &v, err);
    if (rc == 0)
        *out = v.b;
    return rc;
}

int pm_options_get_i64(const pm_options *o, const char *key, int64_t *out, paimon_error *err)
{
    return read_int(o, key, &I64, NULL, out, err);
}

int pm_options_get_bool(const pm_options *o, const char *key, bool *out, paimon_error *err)
{
    return read_bool(o, key, NULL, out, err);
}

int pm_options_get_double(const pm_options *o, const char *key, double *out, paimon_error *err)
{
    pm_option_value v;
    int rc = read_option(o, key, &DOUBLE, NULL, &v, err);
    if (rc == 0)
        *out = v.d;
    return rc;
}

int pm_options_get_memory(const pm_options *o, const char *key, int64_t *out, paimon_error *err)
{
    return read_int(o, key, &MEMORY, NULL, out, err);
}

int pm_options_get_duration(const pm_options *o, const char *key, int64_t *out_ms,
                            paimon_error *err)
{
    return read_int(o, key, &DURATION, NULL, out_ms, err);
}

const char *pm_options_get_str(const pm_options *o, const char *key)
{
    const pm_option_def *d = pm_option_canonical(key);
    const char *v;
    if (d == NULL)
        return pm_options_get(o, key);
    v = pm_option_find(o, d);
    return v != NULL ? v : d->dflt;
}

int pm_options_get_i64_or(const pm_options *o, const char *key, int64_t fallback, int64_t *out,
                          paimon_error *err)
{
    return read_int(o, key, &I64, &fallback, out, err);
}

int pm_options_get_bool_or(const pm_options *o, const char *key, bool fallback, bool *out,
                           paimon_error *err)
{
    return read_bool(o, key, &fallback, out, err);
}

int pm_options_get_memory_or(const pm_options *o, const char *key, int64_t fallback, int64_t *out,
                             paimon_error *err)
{
    return read_int(o, key, &MEMORY, &fallback, out, err);
}

int pm_options_get_duration_or(const pm_options *o, const char *key, int64_t fallback_ms,
                               int64_t *out_ms, paimon_error *err)
{
    return read_int(o, key, &DURATION, &fallback_ms, out_ms, err);
}
