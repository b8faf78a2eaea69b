/*
 * Option catalogue and Java's option checks (option_catalog.h).  The rules follow
 * release-1.4.2 SchemaValidation.validateTableSchema, TableSchema's bucket-key checks and
 * SchemaManager.checkAlterTableOption; messages keep Java's wording where it names the
 * rule, so a user can search for it.
 */
#include "meta/option_catalog.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/alloc.h"
#include "util/error.h"
#include "util/strlist.h"
#include "util/units.h"

static const pm_option_def CATALOG[] = {
#include "meta/option_catalog_table.inc"
};
#define CATALOG_COUNT (sizeof(CATALOG) / sizeof(CATALOG[0]))

static int def_cmp(const void *key, const void *elem)
{
    return strcmp((const char *)key, ((const pm_option_def *)elem)->key);
}

const pm_option_def *pm_option_catalogue(size_t *count)
{
    *count = CATALOG_COUNT;
    return CATALOG;
}

const pm_option_def *pm_option_lookup(const char *key)
{
    return bsearch(key, CATALOG, CATALOG_COUNT, sizeof(CATALOG[0]), def_cmp);
}

const pm_option_def *pm_option_canonical(const char *key)
{
    const pm_option_def *d = pm_option_lookup(key);
    if (d != NULL && d->alias_of != NULL)
        d = pm_option_lookup(d->alias_of);
    return d;
}

const char *pm_option_find(const pm_options *o, const pm_option_def *d)
{
    const char *v = pm_options_get(o, d->key);
    if (v != NULL)
        return v;
    for (size_t i = 0; i < o->count; i++) {
        const pm_option_def *a = pm_option_lookup(o->keys[i]);
        if (a != NULL && a->alias_of != NULL && strcmp(a->alias_of, d->key) == 0)
            return o->values[i];
    }
    return NULL;
}

/* ---- value parsing --------------------------------------------------------------------- */

/* Values of numeric options that paimon-c can never use, though their type allows them:
 * refused at create and alter (pm_options_validate) and by every getter (meta/options.h),
 * so a table written by others with such a value fails with this message, not later.
 * PAIMON_EINVALID where Java fails on the value too, PAIMON_EUNSUPPORTED where Java accepts
 * it and paimon-c cannot.  Sorted by key. */
typedef struct option_limit {
    const char *key;
    double lo, hi;         /* inclusive bounds... */
    bool lo_open, hi_open; /* ...or exclusive */
    int code;
    const char *range; /* the message's "must be ..." */
} option_limit;

/* No upper bound for LONG and MemorySize options (their parsers bound them to int64_t). */
#define NO_MAX ((double)INT64_MAX)

static const option_limit LIMITS[] = {
    /* the pages of lookup files (lsm/lookup_file.h) */
    {"cache-page-size", 64, 1 << 30, false, false, PAIMON_EUNSUPPORTED,
     "paimon-c's lookup files take pages of 64 b to 1 gb"},
    /* ChangelogCompactTask buffers it in one byte array */
    {"changelog.precommit-compact.buffer-size", 0, INT32_MAX, false, false, PAIMON_EINVALID,
     "at most 2147483647 bytes"},
    {"dynamic-bucket.target-row-num", 1, NO_MAX, false, false, PAIMON_EINVALID, "at least 1"},
    /* zstd's levels; the writers of all three formats take 1 to 22 */
    {"file.compression.zstd-level", 1, 22, false, false, PAIMON_EUNSUPPORTED,
     "paimon-c writes zstd levels 1 to 22"},
    {"full-compaction.delta-commits", 0, INT32_MAX, false, false, PAIMON_EINVALID, "at least 0"},
    {"lookup.cache.bloom.filter.fpp", 0, 1, true, true, PAIMON_EINVALID,
     "a probability above 0 and below 1"},
    {"lookup.hash-load-factor", 0, 1, true, true, PAIMON_EINVALID, "above 0 and below 1"},
    /* ManifestFileMerger: "Manifest full compaction size trigger cannot be zero." */
    {"manifest.full-compaction-threshold-size", 1, NO_MAX, false, false, PAIMON_EINVALID,
     "at least 1 byte"},
    {"manifest.target-file-size", 1, NO_MAX, false, false, PAIMON_EINVALID, "at least 1 byte"},
    /* level 0 plus at least one sorted level; paimon-c keeps at most 1000 levels */
    {"num-levels", 2, 1000, false, false, PAIMON_EINVALID, "2 to 1000"},
    {"num-sorted-run.compaction-trigger", 1, INT32_MAX, false, false, PAIMON_EINVALID,
     "at least 1"},
    {"target-file-size", 1, NO_MAX, false, false, PAIMON_EINVALID, "at least 1 byte"},
    {"write-buffer-size", 1, NO_MAX, false, false, PAIMON_EINVALID, "at least 1 byte"},
};

static int limit_cmp(const void *key, const void *elem)
{
    return strcmp((const char *)key, ((const option_limit *)elem)->key);
}

PM_MUST_CHECK static int check_limit(pm_opt_type type, const char *key, const char *text,
                                     const pm_option_value *v, paimon_error *err)
{
    const option_limit *l =
        bsearch(key, LIMITS, sizeof(LIMITS) / sizeof(LIMITS[0]), sizeof(LIMITS[0]), limit_cmp);
    double x = type == PM_OPT_DOUBLE ? v->d : (double)v->i;
    if (l == NULL || type == PM_OPT_BOOL)
        return 0;
    if (isnan(x) || (l->lo_open ? x <= l->lo : x < l->lo) || (l->hi_open ? x >= l->hi : x > l->hi))
        return pm_err_set(err, l->code, "option %s: '%s' is out of range: %s", key, text, l->range);
    return 0;
}

int pm_option_parse(pm_opt_type type, const char *key, const char *text, pm_option_value *out,
                    paimon_error *err)
{
    static const char *const WHAT[] = {
        [PM_OPT_INT] = "an integer",
        [PM_OPT_LONG] = "a long integer",
        [PM_OPT_BOOL] = "true or false",
        [PM_OPT_DOUBLE] = "a number",
        [PM_OPT_STRING] = "a string",
        [PM_OPT_MEMORY] = "a memory size (e.g. '64 mb')",
        [PM_OPT_DURATION] = "a duration (e.g. '10 s', '1 h')",
        [PM_OPT_ENUM] = "a name",
        [PM_OPT_MAP] = "a map (e.g. 'k1:v1,k2:v2')",
    };
    pm_strlist pairs;
    int32_t i32;
    int rc = 0;
    memset(out, 0, sizeof(*out));
    switch (type) {
    case PM_OPT_INT:
        if ((rc = pm_parse_int32(text, &i32)) == 0)
            out->i = i32;
        break;
    case PM_OPT_LONG: rc = pm_parse_int64(text, &out->i); break;
    case PM_OPT_BOOL: rc = pm_parse_bool(text, &out->b); break;
    case PM_OPT_DOUBLE: rc = pm_parse_double(text, &out->d); break;
    case PM_OPT_MEMORY: rc = pm_parse_memory_size(text, &out->i); break;
    case PM_OPT_DURATION: rc = pm_parse_duration_ms(text, &out->i); break;
    case PM_OPT_MAP:
        pm_strlist_init(&pairs);
        rc = pm_parse_map(text, &pairs);
        pm_strlist_free(&pairs);
        break;
    case PM_OPT_STRING:
    case PM_OPT_ENUM: return 0;
    }
    if (rc == PAIMON_ENOMEM)
        return pm_nomem(err);
    if (rc == PAIMON_ELIMIT)
        return pm_err_set(err, PAIMON_EINVALID, "option %s: '%s' is out of range for %s", key, text,
                          type == PM_OPT_DURATION ? "milliseconds in a long" : WHAT[type]);
    if (rc != 0)
        return pm_err_set(err, PAIMON_EINVALID, "option %s: '%s' is not %s", key, text, WHAT[type]);
    return check_limit(type, key, text, out, err);
}

static bool enum_has(const char *values, const char *v)
{
    size_t vlen = strlen(v);
    for (const char *p = values; *p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar != NULL ? (size_t)(bar - p) : strlen(p);
        if (len == vlen && strncasecmp(p, v, len) == 0)
            return true;
        p += len + (bar != NULL);
    }
    return false;
}

int pm_option_check_value(const pm_option_def *d, const char *key, const char *value,
                          paimon_error *err)
{
    pm_option_value v;
    if (d->type == PM_OPT_ENUM && d->values != NULL && !enum_has(d->values, value))
        return pm_err_set(err, PAIMON_EINVALID, "option %s: '%s' is not one of %s", key, value,
                          d->values);
    return pm_option_parse(d->type, key, value, &v, err);
}

/* ---- validation at create -------------------------------------------------------------- */

/* The value of `key` or of one of its aliases (Java's fallback keys). */
static const char *opt(const pm_options *o, const char *key)
{
    const pm_option_def *d = pm_option_lookup(key);
    return d != NULL ? pm_option_find(o, d) : pm_options_get(o, key);
}

/* Whether option `key` (or its default) is `want`, ignoring case (enums, booleans). */
static bool opt_is(const pm_options *o, const char *key, const char *want)
{
    const char *v = pm_options_get_str(o, key);
    return v != NULL && strcasecmp(v, want) == 0;
}

/* An integer option whose value check_keys_and_values has accepted, or its default. */
static int64_t opt_i64(const pm_options *o, const char *key)
{
    int64_t n = 0;
    PM_IGNORE(pm_options_get_i64(o, key, &n, NULL)); /* checked: see above */
    return n;
}

static bool has_name(const pm_strlist *l, const char *name)
{
    return pm_strlist_find(l, name) >= 0;
}

/* Splits a comma list (Java's String.split(",") with trimming as CoreOptions does). */
static int split_list(const char *text, pm_strlist *out)
{
    const char *p = text;
    while (*p) {
        const char *comma = strchr(p, ',');
        const char *end = comma != NULL ? comma : p + strlen(p);
        const char *a = p, *b = end;
        while (a < b && isspace((unsigned char)*a))
            a++;
        while (b > a && isspace((unsigned char)b[-1]))
            b--;
        if (b > a && pm_strlist_pushn(out, a, (size_t)(b - a)) != 0)
            return PAIMON_ENOMEM;
        p = comma != NULL ? comma + 1 : end;
    }
    return 0;
}

static const pm_field *field(const pm_schema *s, const char *name)
{
    return pm_type_field_by_name(s->row, name, NULL);
}

static bool is_format_prefix(const char *key)
{
    static const char *const P[] = {"parquet.", "orc.", "avro.", "csv.", "json.", NULL};
    for (size_t i = 0; P[i] != NULL; i++)
        if (strncmp(key, P[i], strlen(P[i])) == 0)
            return true;
    return false;
}

static const char *const AGG_FUNCTIONS[] = {"sum",
                                            "product",
                                            "max",
                                            "min",
                                            "last_value",
                                            "last_non_null_value",
                                            "last_not_null_value",
                                            "first_value",
                                            "first_non_null_value",
                                            "first_not_null_value",
                                            "listagg",
                                            "bool_or",
                                            "bool_and",
                                            "collect",
                                            "merge_map",
                                            "merge_map_with_keytime",
                                            "nested_update",
                                            "nested_partial_update",
                                            "hll_sketch",
                                            "theta_sketch",
                                            "rbm32",
                                            "rbm64",
                                            "primary-key",
                                            NULL};

/* `fields.<f>[,<g>].<setting>`: the fields must exist (validateFieldsPrefix); aggregate
 * function names must be known (validateMergeFunctionFactory). */
PM_MUST_CHECK static int check_fields_option(const pm_schema *s, const char *key, const char *value,
                                             paimon_error *err)
{
    const char *names = key + strlen("fields.");
    const char *dot = strchr(names, '.');
    char buf[512];
    size_t len = dot != NULL ? (size_t)(dot - names) : strlen(names);
    if (dot == NULL || len == 0 || len >= sizeof(buf) || dot[1] == '\0')
        return pm_err_set(err, PAIMON_EINVALID, "option %s: expected fields.<column>.<setting>",
                          key);
    memcpy(buf, names, len);
    buf[len] = '\0';
    /* comma-separated names (fields.a,b.sequence-group); empty names are skipped */
    for (char *tok = buf, *next; tok != NULL; tok = next) {
        char *comma = strchr(tok, ',');
        next = comma != NULL ? comma + 1 : NULL;
        if (comma != NULL)
            *comma = '\0';
        if (*tok == '\0' || strcmp(tok, "default-aggregate-function") == 0)
            continue;
        if (field(s, tok) == NULL)
            return pm_err_set(err, PAIMON_EINVALID,
                              "option %s: Field %s can not be found in table schema.", key, tok);
    }
    if (strcmp(dot + 1, "aggregate-function") == 0 ||
        strcmp(key, "fields.default-aggregate-function") == 0) {
        for (size_t i = 0; AGG_FUNCTIONS[i] != NULL; i++)
            if (strcmp(value, AGG_FUNCTIONS[i]) == 0)
                return 0;
        return pm_err_set(err, PAIMON_EINVALID, "option %s: unknown aggregate function '%s'", key,
                          value);
    }
    return 0;
}

PM_MUST_CHECK static int check_keys_and_values(const pm_schema *s, paimon_error *err)
{
    const pm_options *o = &s->options;
    for (size_t i = 0; i < o->count; i++) {
        const char *key = o->keys[i], *value = o->values[i];
        const pm_option_def *d = pm_option_lookup(key);
        int rc;
        if (d != NULL) {
            if ((rc = pm_option_check_value(d, key, value, err)) != 0)
                return rc;
        } else if (strncmp(key, "fields.", 7) == 0) {
            if ((rc = check_fields_option(s, key, value, err)) != 0)
                return rc;
        } else if (strncmp(key, "file-index.", 11) == 0 || is_format_prefix(key)) {
            continue;
        } else {
            return pm_err_set(err, PAIMON_EINVALID, "option %s: unknown option", key);
        }
    }
    return 0;
}

/* Java's PRIMARY_KEY_UNSUPPORTED_LOGICAL_TYPES: no nested, variant or blob keys. */
PM_MUST_CHECK static int check_primitive_keys(const pm_schema *s, const pm_strlist *keys,
                                              const char *what, paimon_error *err)
{
    for (size_t i = 0; i < keys->count; i++) {
        const pm_field *f = field(s, keys->items[i]);
        if (f == NULL)
            return pm_err_set(err, PAIMON_EINVALID, "Cannot find field: %s", keys->items[i]);
        if (pm_type_is_nested(f->type) || f->type->id == PM_TYPE_VARIANT ||
            f->type->id == PM_TYPE_BLOB)
            return pm_err_set(err, PAIMON_EINVALID, "%s field %s: nested types are unsupported",
                              what, keys->items[i]);
    }
    return 0;
}

PM_MUST_CHECK static int check_bucket(const pm_schema *s, paimon_error *err)
{
    const pm_options *o = &s->options;
    int64_t bucket = opt_i64(o, "bucket");
    pm_strlist bkeys;
    int rc = 0;
    bool pk = s->primary_keys.count > 0;

    pm_strlist_init(&bkeys);
    if (opt(o, "bucket-key") != NULL && split_list(opt(o, "bucket-key"), &bkeys) != 0) {
        rc = pm_nomem(err);
        goto done;
    }
    /* TableSchema.originalBucketKeys */
    for (size_t i = 0; i < bkeys.count; i++) {
        if (field(s, bkeys.items[i]) == NULL) {
            rc = pm_err_set(err, PAIMON_EINVALID, "bucket-key %s is not a column", bkeys.items[i]);
            goto done;
        }
        if (has_name(&s->partition_keys, bkeys.items[i])) {
            rc = pm_err_set(err, PAIMON_EINVALID, "Bucket key %s should not be a partition key",
                            bkeys.items[i]);
            goto done;
        }
        if (pk && !has_name(&s->primary_keys, bkeys.items[i])) {
            rc = pm_err_set(err, PAIMON_EINVALID,
                            "Primary keys should contain all bucket keys (%s is not one)",
                            bkeys.items[i]);
            goto done;
        }
    }
    if (bucket == -1) {
        if (bkeys.count > 0) {
            rc = pm_err_set(err, PAIMON_EINVALID,
                            "Cannot define 'bucket-key' with bucket = -1, please remove the "
                            "'bucket-key' setting or specify a bucket number.");
            goto done;
        }
        if (!pk && opt(o, "full-compaction.delta-commits") != NULL) {
            rc = pm_err_set(err, PAIMON_EINVALID,
                            "AppendOnlyTable of unaware or dynamic bucket does not support "
                            "'full-compaction.delta-commits'");
            goto done;
        }
    } else if (bucket < 1 && !(pk && bucket == -2)) {
        rc = pm_err_set(err, PAIMON_EINVALID, "The number of buckets needs to be greater than 0.");
        goto done;
    } else {
        if (!pk && bkeys.count == 0) {
            rc = pm_err_set(err, PAIMON_EINVALID,
                            "You should define a 'bucket-key' for bucketed append mode.");
            goto done;
        }
        for (size_t i = 0; i < bkeys.count; i++) {
            if (pm_type_is_nested(field(s, bkeys.items[i])->type)) {
                rc = pm_err_set(err, PAIMON_EINVALID,
                                "nested type can not in bucket-key, in your table these key are "
                                "[%s]",
                                bkeys.items[i]);
                goto done;
            }
        }
    }
done:
    pm_strlist_free(&bkeys);
    return rc;
}

/* CoreOptions.startupMode(): DEFAULT resolves by which scan options are set. */
static const char *startup_mode(const pm_options *o)
{
    const char *m = opt(o, "scan.mode");
    if (m == NULL || strcasecmp(m, "default") == 0) {
        if (opt(o, "scan.timestamp-millis") || opt(o, "scan.timestamp"))
            return "from-timestamp";
        if (opt(o, "scan.snapshot-id") || opt(o, "scan.tag-name") || opt(o, "scan.watermark"))
            return "from-snapshot";
        if (opt(o, "scan.file-creation-time-millis"))
            return "from-file-creation-time";
        if (opt(o, "incremental-between") || opt(o, "incremental-between-timestamp") ||
            opt(o, "incremental-to-auto-tag"))
            return "incremental";
        return "latest-full";
    }
    if (strcasecmp(m, "full") == 0)
        return "latest-full";
    return m;
}

PM_MUST_CHECK static int check_startup_mode(const pm_options *o, paimon_error *err)
{
    static const char *const ALL[] = {"scan.timestamp-millis",   "scan.timestamp",
                                      "scan.snapshot-id",        "scan.tag-name",
                                      "scan.watermark",          "scan.file-creation-time-millis",
                                      "incremental-between",     "incremental-between-timestamp",
                                      "incremental-to-auto-tag", NULL};
    static const struct {
        const char *mode;
        const char *one_of[4]; /* exactly one must be set */
        bool exactly_one;
    } MODES[] = {
        {"from-timestamp", {"scan.timestamp-millis", "scan.timestamp"}, true},
        {"from-snapshot", {"scan.snapshot-id", "scan.tag-name", "scan.watermark"}, true},
        {"incremental",
         {"incremental-between", "incremental-between-timestamp", "incremental-to-auto-tag"},
         true},
        {"from-snapshot-full", {"scan.snapshot-id"}, false},
        {"from-file-creation-time", {"scan.file-creation-time-millis"}, false},
    };
    const char *mode = startup_mode(o);
    for (size_t m = 0; m < sizeof(MODES) / sizeof(MODES[0]); m++) {
        int set = 0;
        if (strcasecmp(mode, MODES[m].mode) != 0)
            continue;
        for (size_t i = 0; i < 4 && MODES[m].one_of[i] != NULL; i++)
            set += opt(o, MODES[m].one_of[i]) != NULL;
        if (set != 1)
            return pm_err_set(
                err, PAIMON_EINVALID,
                "must set only one of %s%s%s%s%s when you use %s for scan.mode", MODES[m].one_of[0],
                MODES[m].one_of[1] ? ", " : "", MODES[m].one_of[1] ? MODES[m].one_of[1] : "",
                MODES[m].one_of[2] ? ", " : "", MODES[m].one_of[2] ? MODES[m].one_of[2] : "", mode);
        for (size_t k = 0; ALL[k] != NULL; k++) {
            bool legal = false;
            for (size_t i = 0; i < 4 && MODES[m].one_of[i] != NULL; i++)
                legal |= strcmp(ALL[k], MODES[m].one_of[i]) == 0;
            /* scan.watermark is allowed beside snapshot options (Java lists it only among
             * the from-snapshot choices). */
            if (!legal && opt(o, ALL[k]) != NULL && strcmp(ALL[k], "scan.watermark") != 0)
                return pm_err_set(err, PAIMON_EINVALID,
                                  "[%s] must be null when you use %s for scan.mode", ALL[k], mode);
        }
        return 0;
    }
    for (size_t k = 0; ALL[k] != NULL; k++)
        if (opt(o, ALL[k]) != NULL && strcmp(ALL[k], "scan.watermark") != 0)
            return pm_err_set(err, PAIMON_EINVALID, "%s must be null when you use %s for scan.mode",
                              ALL[k], mode);
    return 0;
}

PM_MUST_CHECK static int check_sequence_fields(const pm_schema *s, bool cross_partition,
                                               paimon_error *err)
{
    const pm_options *o = &s->options;
    pm_strlist seq;
    int rc = 0;
    pm_strlist_init(&seq);
    if (opt(o, "sequence.field") == NULL)
        return 0;
    if (split_list(opt(o, "sequence.field"), &seq) != 0)
        return pm_nomem(err);
    for (size_t i = 0; i < seq.count; i++) {
        char key[600];
        if (field(s, seq.items[i]) == NULL) {
            rc = pm_err_set(err, PAIMON_EINVALID,
                            "Sequence field: '%s' can not be found in table schema.", seq.items[i]);
            goto done;
        }
        snprintf(key, sizeof(key), "fields.%s.aggregate-function", seq.items[i]);
        if (pm_options_get(o, key) != NULL) {
            rc = pm_err_set(err, PAIMON_EINVALID,
                            "Should not define aggregation on sequence field: '%s'.", seq.items[i]);
            goto done;
        }
        for (size_t j = 0; j < i; j++)
            if (strcmp(seq.items[i], seq.items[j]) == 0) {
                rc = pm_err_set(err, PAIMON_EINVALID, "Sequence field '%s' is defined repeatedly.",
                                seq.items[i]);
                goto done;
            }
    }
    if (opt_is(o, "merge-engine", "first-row")) {
        rc = pm_err_set(err, PAIMON_EINVALID,
                        "Do not support use sequence field on FIRST_ROW merge engine.");
        goto done;
    }
    if (cross_partition)
        rc = pm_err_set(err, PAIMON_EINVALID,
                        "You can not use sequence.field in cross partition update case (Primary "
                        "key constraint does not include all partition fields).");
done:
    pm_strlist_free(&seq);
    return rc;
}

int pm_options_validate(const pm_schema *s, paimon_error *err)
{
    const pm_options *o = &s->options;
    bool pk = s->primary_keys.count > 0;
    bool cross_partition = false;
    const char *v;
    int rc;

    if ((rc = check_keys_and_values(s, err)) != 0 || (rc = pm_options_check_formats(o, err)) != 0)
        return rc;
    if ((rc = check_primitive_keys(s, &s->primary_keys, "primary key", err)) != 0 ||
        (rc = check_primitive_keys(s, &s->partition_keys, "partition", err)) != 0)
        return rc;
    for (size_t i = 0; pk && i < s->partition_keys.count; i++)
        cross_partition |= !has_name(&s->primary_keys, s->partition_keys.items[i]);
    if ((rc = check_bucket(s, err)) != 0 || (rc = check_startup_mode(o, err)) != 0 ||
        (rc = check_sequence_fields(s, cross_partition, err)) != 0)
        return rc;

    if (!pk && !opt_is(o, "changelog-producer", "none"))
        return pm_err_set(err, PAIMON_EINVALID,
                          "Can not set changelog-producer on table without primary keys, please "
                          "define primary keys.");
    if (!pk && opt_is(o, "table-read.sequence-number.enabled", "true"))
        return pm_err_set(err, PAIMON_EINVALID,
                          "Cannot enable 'table-read.sequence-number.enabled' for non-primary-key "
                          "table. Sequence number is only available for primary key tables.");
    if (opt_is(o, "streaming-read-overwrite", "true")) {
        if (opt_is(o, "changelog-producer", "full-compaction") ||
            opt_is(o, "changelog-producer", "lookup"))
            return pm_err_set(err, PAIMON_EINVALID,
                              "Cannot set streaming-read-overwrite to true when changelog "
                              "producer is full-compaction or lookup because it will read "
                              "duplicated changes.");
        if (!pk)
            return pm_err_set(err, PAIMON_EINVALID,
                              "Doesn't support streaming read the changes from overwrite when "
                              "the primary keys are not defined.");
    }
    {
        int64_t smin = opt_i64(o, "snapshot.num-retained.min");
        int64_t smax = opt_i64(o, "snapshot.num-retained.max"), cmin = smin, cmax = smax;
        /* CoreOptions.changelogNumRetainMin/Max: the snapshot settings when unset */
        /* both values were checked with the others (check_keys_and_values) */
        PM_IGNORE(pm_options_get_i64_or(o, "changelog.num-retained.min", smin, &cmin, NULL));
        PM_IGNORE(pm_options_get_i64_or(o, "changelog.num-retained.max", smax, &cmax, NULL));
        if (smin <= 0)
            return pm_err_set(err, PAIMON_EINVALID,
                              "snapshot.num-retained.min should be at least 1");
        if (smin > smax)
            return pm_err_set(err, PAIMON_EINVALID,
                              "snapshot.num-retained.min should not be "
                              "larger than snapshot.num-retained.max");
        if (cmin <= 0)
            return pm_err_set(err, PAIMON_EINVALID,
                              "changelog.num-retained.min should be at least 1");
        if (cmin > cmax)
            return pm_err_set(err, PAIMON_EINVALID,
                              "changelog.num-retained.min should not be "
                              "larger than changelog.num-retained.max");
    }
    for (size_t i = 0; i < s->row->field_count; i++) {
        const char *name = s->row->fields[i].name;
        static const char *const SYS[] = {"_SEQUENCE_NUMBER", "_VALUE_KIND", "_LEVEL",
                                          "rowkind",          "_ROW_ID",     NULL};
        for (size_t k = 0; SYS[k] != NULL; k++)
            if (strcmp(name, SYS[k]) == 0)
                return pm_err_set(err, PAIMON_EINVALID,
                                  "Field name[%s] in schema cannot be a system field name", name);
        if (strncmp(name, "_KEY_", 5) == 0)
            return pm_err_set(err, PAIMON_EINVALID,
                              "Field name[%s] in schema cannot start with [_KEY_]", name);
    }
    if (opt(o, "partition.expiration-time") != NULL && s->partition_keys.count == 0)
        return pm_err_set(err, PAIMON_EINVALID,
                          "Can not set 'partition.expiration-time' for non-partitioned table.");
    if ((v = opt(o, "record-level.time-field")) != NULL) {
        const pm_field *f = field(s, v);
        if (f == NULL)
            return pm_err_set(err, PAIMON_EINVALID,
                              "Can not find time field %s for record level expire.", v);
        if (f->type->id != PM_TYPE_INT && f->type->id != PM_TYPE_BIGINT &&
            f->type->id != PM_TYPE_TIMESTAMP && f->type->id != PM_TYPE_TIMESTAMP_LTZ)
            return pm_err_set(err, PAIMON_EINVALID,
                              "The record level time field type should be one of INT, BIGINT, "
                              "or TIMESTAMP");
    }
    if (opt_is(o, "merge-engine", "first-row") && !opt_is(o, "changelog-producer", "none") &&
        !opt_is(o, "changelog-producer", "lookup"))
        return pm_err_set(err, PAIMON_EINVALID,
                          "Only support 'none' and 'lookup' changelog-producer on FIRST_ROW merge "
                          "engine");
    if ((v = opt(o, "rowkind.field")) != NULL && field(s, v) == NULL)
        return pm_err_set(err, PAIMON_EINVALID,
                          "Rowkind field: '%s' can not be found in table schema.", v);
    if (opt_is(o, "deletion-vectors.enabled", "true")) {
        if (opt_is(o, "changelog-producer", "full-compaction"))
            return pm_err_set(err, PAIMON_EINVALID,
                              "Deletion vectors mode is only supported for NONE/INPUT/LOOKUP "
                              "changelog producer now.");
        if (opt_is(o, "merge-engine", "first-row") && !opt_is(o, "pk-clustering-override", "true"))
            return pm_err_set(err, PAIMON_EINVALID,
                              "First row merge engine does not need deletion vectors because "
                              "there is no deletion of old data in this merge engine.");
    }
    if (pk && opt_is(o, "merge-engine", "aggregation")) {
        /* validateMergeFunctionFactory: each column's function must exist; checked per key
         * above.  An aggregation table with no function at all is still valid (last non-null
         * value is the default). */
    }
    return 0;
}

/* ---- alter ----------------------------------------------------------------------------- */

int pm_option_check_alter(const pm_options *old, const char *key, const char *new_value,
                          bool has_snapshots, paimon_error *err)
{
    const pm_option_def *d = pm_option_lookup(key);
    const char *old_value = pm_options_get(old, key);
    if (strcasecmp(key, "path") == 0)
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "Change path is not supported yet.");
    if (!has_snapshots)
        return 0;
    if (d != NULL && (d->flags & PM_OPT_IMMUTABLE) != 0)
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "Change '%s' is not supported yet.", key);
    if (new_value == NULL) {
        if (strcmp(key, "bucket") == 0)
            return pm_err_set(err, PAIMON_EUNSUPPORTED, "Cannot reset bucket.");
        if (strcmp(key, "clustering.columns") == 0 &&
            pm_options_get(old, "pk-clustering-override") != NULL)
            return pm_err_set(err, PAIMON_EUNSUPPORTED,
                              "Cannot reset clustering.columns when pk-clustering-override "
                              "enabled.");
        return 0;
    }
    if (strcmp(key, "bucket") == 0) {
        int64_t ob = opt_i64(old, "bucket");
        int32_t nb = 0;
        (void)pm_parse_int32(new_value, &nb);
        if (ob == -1)
            return pm_err_set(err, PAIMON_EUNSUPPORTED, "Cannot change bucket when it is -1.");
        if (nb == -1)
            return pm_err_set(err, PAIMON_EUNSUPPORTED, "Cannot change bucket to -1.");
    }
    if (strcmp(key, "deletion-vectors.enabled") == 0 &&
        !opt_is(old, "deletion-vectors.modifiable", "true")) {
        bool o = old_value != NULL && strcasecmp(old_value, "true") == 0;
        bool n = strcasecmp(new_value, "true") == 0;
        if (o != n)
            return pm_err_set(err, PAIMON_EUNSUPPORTED,
                              "Cannot change deletion vectors mode from %s to %s. If you are "
                              "confident, set 'deletion-vectors.modifiable' = 'true'.",
                              o ? "true" : "false", n ? "true" : "false");
    }
    if (strcmp(key, "ignore-delete") == 0 || strcmp(key, "ignore-update-before") == 0) {
        bool o = old_value != NULL && strcasecmp(old_value, "true") == 0;
        if (o && strcasecmp(new_value, "true") != 0)
            return pm_err_set(err, PAIMON_EUNSUPPORTED, "Cannot change %s from true to false.",
                              key);
    }
    if (strcmp(key, "clustering.columns") == 0 &&
        pm_options_get(old, "pk-clustering-override") != NULL)
        return pm_err_set(err, PAIMON_EUNSUPPORTED,
                          "Cannot change clustering.columns when pk-clustering-override enabled.");
    return 0;
}
