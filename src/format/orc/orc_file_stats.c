/*
 * The column statistics Java Paimon 1.4.2 records for an ORC data file: it reads the
 * finished file back and turns the footer's file-level ColumnStatistics of each top-level
 * field into SimpleColStats (OrcSimpleStatsExtractor), before the collector's conversion.
 * Reading the footer rather than accumulating rows again means every quirk of ORC's own
 * statistics (row-group then stripe merges, sticky NaN, 1024-byte string bounds, CHAR
 * padding) carries over exactly as the writer produced it (format/orc/orc_stats.h).
 *
 * The rules, per Paimon type of the field (the ORC column is found by field name):
 *
 *   every field     null count = rows in the file - numberOfValues; a field absent from
 *                   the file has no statistics at all; a field that is null in every row
 *                   has a null count and no bounds
 *   BOOLEAN         min = (falseCount == 0), max = (trueCount != 0)
 *   TINYINT..BIGINT integer min, max (narrowed as Java casts); TIME the same as INT
 *   FLOAT, DOUBLE   double min, max (FLOAT narrowed); NaN kept as ORC kept it
 *   DECIMAL(p, s)   min, max text rescaled to s (HALF_UP); a bound of more than p digits
 *                   is null (Decimal.fromBigDecimal)
 *   CHAR, VARCHAR   string minimum, maximum; a bound ORC truncated (lowerBound/upperBound
 *                   only, a value over 1024 bytes) is null on its own
 *   DATE            days
 *   TIMESTAMP,      minimumUtc/maximumUtc milliseconds plus nanoseconds of the millisecond
 *   ..LOCAL TIME    (stored + 1; absent means 0 for the minimum and 999,999 for the
 *   ZONE            maximum), read as a JVM in UTC reads them (Timestamp.fromSQLTimestamp);
 *                   legacy and non-legacy LTZ agree in UTC
 *   other types     BINARY, VARBINARY, ARRAY, MAP, MULTISET, ROW: null count only
 *
 * A statistics message of the wrong kind (Java's assertStatsClass fails and the extractor
 * logs it) leaves the null count only, as Java does.
 */
#include <string.h>

#include "format/orc/orc_format.h"
#include "format/orc/orc_reader.h"
#include "util/alloc.h"
#include "util/error.h"

/* Decimal text ("-77.022", "0.02") at `scale`, rounded HALF_UP; false when it does not
 * parse or needs more than `precision` digits. */
static bool decimal_of(const pm_orc_bytes *text, int32_t precision, int32_t scale, pm_int128 *out)
{
    const uint8_t *p = text->ptr, *end = text->ptr + text->len;
    bool neg = false, seen_digit = false, round_up = false;
    pm_int128 v = 0, limit = 1;
    int32_t frac = -1; /* digits after the point; -1 before the point */
    if (p == NULL || p == end)
        return false;
    if (*p == '-' || *p == '+')
        neg = *p++ == '-';
    for (; p < end; p++) {
        if (*p == '.' && frac < 0) {
            frac = 0;
            continue;
        }
        if (*p < '0' || *p > '9')
            return false;
        seen_digit = true;
        if (frac >= scale) { /* beyond the scale: only the first dropped digit matters */
            if (frac == scale)
                round_up = *p >= '5';
            frac++;
            continue;
        }
        if (v > ((pm_int128)1 << 120))
            return false;
        v = v * 10 + (*p - '0');
        if (frac >= 0)
            frac++;
    }
    if (!seen_digit)
        return false;
    if (frac > scale)
        frac = scale;
    for (int32_t i = frac < 0 ? 0 : frac; i < scale; i++)
        v *= 10;
    if (round_up)
        v += 1;
    for (int32_t i = 0; i < precision; i++)
        limit *= 10;
    if (v >= limit)
        return false;
    *out = neg ? -v : v;
    return true;
}

static pm_datum dec_datum(pm_int128 v)
{
    pm_datum d;
    d.is_null = false;
    d.v.dec = v;
    return d;
}

static pm_datum ts_datum(int64_t millis, int32_t nanos)
{
    pm_datum d;
    d.is_null = false;
    d.v.ts.millis = millis;
    d.v.ts.nanos = nanos;
    return d;
}

static int copy_bound(pm_arena *arena, const pm_orc_bytes *b, pm_datum *out, bool *has)
{
    uint8_t *p = pm_arena_alloc(arena, b->len + 1);
    if (p == NULL)
        return PAIMON_ENOMEM;
    if (b->len > 0)
        memcpy(p, b->ptr, b->len);
    *out = pm_datum_bytes(p, b->len);
    *has = true;
    return 0;
}

/* The bounds of one field whose statistics are `s` (some values non-null). */
static int bounds_of(const pm_type *t, const pm_orc_stats *s, pm_arena *arena, pm_file_col_stats *o)
{
    bool has_min = (s->has & PM_OS_MIN) != 0, has_max = (s->has & PM_OS_MAX) != 0;
    switch (t->id) {
    case PM_TYPE_BOOLEAN:
        if (s->kind != PM_OSK_BUCKET || s->bucket_count < 1)
            return 0;
        o->min.is_null = o->max.is_null = false;
        o->min.v.b = s->number_of_values - s->buckets[0] == 0;
        o->max.v.b = s->buckets[0] != 0;
        o->has_min = o->has_max = true;
        return 0;
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_TIME:
    case PM_TYPE_BIGINT: {
        int64_t lo = s->i_min, hi = s->i_max;
        if (s->kind != PM_OSK_INT || !has_min || !has_max)
            return 0;
        if (t->id == PM_TYPE_TINYINT) { /* Java's (byte), (short), intValue() */
            lo = (int8_t)lo;
            hi = (int8_t)hi;
        } else if (t->id == PM_TYPE_SMALLINT) {
            lo = (int16_t)lo;
            hi = (int16_t)hi;
        } else if (t->id != PM_TYPE_BIGINT) {
            lo = (int32_t)lo;
            hi = (int32_t)hi;
        }
        o->min = pm_datum_int(lo);
        o->max = pm_datum_int(hi);
        o->has_min = o->has_max = true;
        return 0;
    }
    case PM_TYPE_FLOAT:
    case PM_TYPE_DOUBLE:
        if (s->kind != PM_OSK_DOUBLE || !has_min || !has_max)
            return 0;
        o->min.is_null = o->max.is_null = false;
        if (t->id == PM_TYPE_FLOAT) {
            o->min.v.f = (float)s->d_min;
            o->max.v.f = (float)s->d_max;
        } else {
            o->min.v.d = s->d_min;
            o->max.v.d = s->d_max;
        }
        o->has_min = o->has_max = true;
        return 0;
    case PM_TYPE_DECIMAL: {
        pm_int128 lo, hi;
        if (s->kind != PM_OSK_DECIMAL)
            return 0;
        if (has_min && decimal_of(&s->s_min, t->precision, t->scale, &lo)) {
            o->min = dec_datum(lo);
            o->has_min = true;
        }
        if (has_max && decimal_of(&s->s_max, t->precision, t->scale, &hi)) {
            o->max = dec_datum(hi);
            o->has_max = true;
        }
        return 0;
    }
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR: {
        int rc;
        if (s->kind != PM_OSK_STRING)
            return 0;
        /* getMinimum()/getMaximum() are null when only a truncated bound was kept */
        if (has_min && s->s_min.ptr != NULL &&
            (rc = copy_bound(arena, &s->s_min, &o->min, &o->has_min)) != 0)
            return rc;
        if (has_max && s->s_max.ptr != NULL &&
            (rc = copy_bound(arena, &s->s_max, &o->max, &o->has_max)) != 0)
            return rc;
        return 0;
    }
    case PM_TYPE_DATE:
        if (s->kind != PM_OSK_DATE || !has_min || !has_max)
            return 0;
        o->min = pm_datum_int((int32_t)s->i_min);
        o->max = pm_datum_int((int32_t)s->i_max);
        o->has_min = o->has_max = true;
        return 0;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: {
        int32_t lo_ns = 0, hi_ns = 999999;
        if (s->kind != PM_OSK_TIMESTAMP || !(s->has & PM_OS_MIN_UTC) || !(s->has & PM_OS_MAX_UTC))
            return 0;
        if (s->has & PM_OS_MIN_NANOS)
            lo_ns = s->ts_min_nanos - 1;
        if (s->has & PM_OS_MAX_NANOS)
            hi_ns = s->ts_max_nanos - 1;
        if (lo_ns < 0 || lo_ns > 999999 || hi_ns < 0 || hi_ns > 999999)
            return 0; /* not a nanosecond of a millisecond: no bounds */
        o->min = ts_datum(s->ts_min_utc, lo_ns);
        o->max = ts_datum(s->ts_max_utc, hi_ns);
        o->has_min = o->has_max = true;
        return 0;
    }
    default: return 0;
    }
}

int pm_orc_footer_col_stats(const pm_orc_footer *f, const char *path, const pm_type *row,
                            pm_arena *arena, pm_file_col_stats *out, paimon_error *err)
{
    const pm_orc_type *root = f->type_count > 0 ? &f->types[0] : NULL;
    for (size_t i = 0; i < row->field_count; i++) {
        const pm_field *field = &row->fields[i];
        pm_file_col_stats *o = &out[i];
        const pm_orc_stats *s;
        uint32_t col = 0;
        bool found = false;
        int rc;
        memset(o, 0, sizeof(*o));
        o->min = o->max = pm_datum_null();
        for (size_t k = 0; root != NULL && k < root->field_name_count && k < root->subtype_count;
             k++)
            if (strcmp(root->field_names[k], field->name) == 0) {
                col = root->subtypes[k];
                found = true;
                break;
            }
        if (!found)
            continue; /* SimpleColStats(null, null, null) */
        if (col >= f->statistics_count)
            return pm_err_set(err, PAIMON_ECORRUPT, "%s: no statistics for column %u", path, col);
        s = &f->statistics[col];
        if (s->number_of_values > f->number_of_rows)
            return pm_err_set(err, PAIMON_ECORRUPT, "%s: column %u has %llu values in %llu rows",
                              path, col, (unsigned long long)s->number_of_values,
                              (unsigned long long)f->number_of_rows);
        o->has_null_count = true;
        o->null_count = (int64_t)(f->number_of_rows - s->number_of_values);
        if (s->number_of_values == 0)
            continue; /* all null */
        if ((rc = bounds_of(field->type, s, arena, o)) != 0)
            return pm_nomem(err);
    }
    return 0;
}

int pm_orc_file_col_stats(pm_fs *fs, const char *path, const pm_type *row, pm_arena *arena,
                          pm_file_col_stats *out, paimon_error *err)
{
    pm_input *in = NULL;
    pm_orc_reader *r = NULL;
    int rc;
    if ((rc = fs->open(fs, path, &in, err)) != 0)
        return rc;
    if ((rc = pm_orc_reader_open(&r, in, path, err)) != 0)
        return rc;
    rc = pm_orc_footer_col_stats(pm_orc_reader_footer(r), path, row, arena, out, err);
    pm_orc_reader_free(r);
    return rc;
}
