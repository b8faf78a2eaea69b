/* Partition directory names: see partition.h and metadata.md §12. */
#include "meta/partition.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/canonical.h"
#include "util/error.h"
#include "util/time.h"

int pm_partition_naming_from(const pm_schema *schema, pm_partition_naming *out, paimon_error *err)
{
    const char *name = pm_schema_option(schema, "partition.default-name");
    out->default_name = name != NULL ? name : PM_DEFAULT_PARTITION_NAME;
    return pm_options_get_bool(&schema->options, "partition.legacy-name", true, &out->legacy, err);
}

static bool needs_escape(unsigned char c)
{
    return c < 0x20 || c == 0x7f || (c != 0 && strchr("\"#%'*/:=?\\{}[]^", c) != NULL);
}

int pm_partition_escape(pm_buf *out, const char *s, size_t len)
{
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        rc = needs_escape(c) ? pm_buf_printf(out, "%%%02X", c) : pm_buf_putc(out, c);
    }
    return rc;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int pm_partition_unescape(pm_buf *out, const char *s, size_t len)
{
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < len; i++) {
        if (s[i] == '%' && i + 2 < len && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
            rc = pm_buf_putc(out, (uint8_t)(hexval(s[i + 1]) << 4 | hexval(s[i + 2])));
            i += 2;
        } else {
            rc = pm_buf_putc(out, (uint8_t)s[i]);
        }
    }
    return rc;
}

int pm_java_local_date_time(pm_buf *out, int64_t millis, int32_t nanos_of_milli)
{
    int64_t days = pm_floor_div(millis, 86400000), ms = pm_floor_mod(millis, 86400000);
    int64_t secs = ms / 1000, y;
    int32_t nanos = (int32_t)(ms % 1000) * 1000000 + nanos_of_milli;
    unsigned mo, d;
    int rc;

    pm_civil_from_days(days, &y, &mo, &d);
    /* java.time.LocalDate.toString: 4-digit years, '+' beyond 9999, '-' before year 0. */
    if (y > 9999)
        rc = pm_buf_printf(out, "+%lld-%02u-%02u", (long long)y, mo, d);
    else if (y < 0)
        rc = pm_buf_printf(out, "-%04lld-%02u-%02u", (long long)-y, mo, d);
    else
        rc = pm_buf_printf(out, "%04lld-%02u-%02u", (long long)y, mo, d);
    if (rc != 0)
        return rc;
    rc =
        pm_buf_printf(out, "T%02lld:%02lld", (long long)(secs / 3600), (long long)(secs / 60 % 60));
    if (rc != 0 || (secs % 60 == 0 && nanos == 0))
        return rc;
    rc = pm_buf_printf(out, ":%02lld", (long long)(secs % 60));
    if (rc != 0 || nanos == 0)
        return rc;
    /* LocalTime.toString: 3, 6 or 9 fraction digits, the fewest that show every digit. */
    if (nanos % 1000000 == 0)
        return pm_buf_printf(out, ".%03d", nanos / 1000000);
    if (nanos % 1000 == 0)
        return pm_buf_printf(out, ".%06d", nanos / 1000);
    return pm_buf_printf(out, ".%09d", nanos);
}

/* Shortest decimal digits of v (> 0, finite) and the decimal exponent e such that
 * v = 0.DIGITS x 10^e.  `digits` receives at most 17 characters and a NUL. */
static void shortest_digits(double v, bool is_float, char *digits, int *exp10)
{
    char buf[48];
    int max = is_float ? 9 : 17;
    for (int p = 1; p <= max; p++) {
        snprintf(buf, sizeof(buf), "%.*e", p - 1, v);
        if (is_float ? (float)strtod(buf, NULL) == (float)v : strtod(buf, NULL) == v)
            break;
    }
    /* buf = "d.ddddde[+-]xx" */
    {
        char *e = strchr(buf, 'e');
        size_t n = 0;
        for (char *p = buf; p < e; p++)
            if (*p != '.')
                digits[n++] = *p;
        while (n > 1 && digits[n - 1] == '0')
            n--;
        digits[n] = '\0';
        *exp10 = atoi(e + 1) + 1;
    }
}

/* Double.toString / Float.toString (JDK 19+: the shortest digits that read back). */
static int java_fp_string(pm_buf *out, double v, bool is_float)
{
    char digits[24];
    int e, n, rc = 0;
    if (isnan(v))
        return pm_buf_puts(out, "NaN");
    if (isinf(v))
        return pm_buf_puts(out, v > 0 ? "Infinity" : "-Infinity");
    if (v == 0)
        return pm_buf_puts(out, signbit(v) ? "-0.0" : "0.0");
    if (v < 0 && (rc = pm_buf_putc(out, '-')) != 0)
        return rc;
    v = fabs(v);
    shortest_digits(v, is_float, digits, &e);
    n = (int)strlen(digits);
    if (v >= 1e-3 && v < 1e7) {
        /* Plain notation, at least one digit on each side of the point. */
        if (e <= 0) {
            rc = pm_buf_puts(out, "0.");
            for (int i = 0; rc == 0 && i < -e; i++)
                rc = pm_buf_putc(out, '0');
            if (rc == 0)
                rc = pm_buf_puts(out, digits);
        } else if (e >= n) {
            rc = pm_buf_puts(out, digits);
            for (int i = n; rc == 0 && i < e; i++)
                rc = pm_buf_putc(out, '0');
            if (rc == 0)
                rc = pm_buf_puts(out, ".0");
        } else {
            rc = pm_buf_printf(out, "%.*s.%s", e, digits, digits + e);
        }
        return rc;
    }
    /* Computerized scientific notation: d.dddE<exp>, at least one fraction digit. */
    return pm_buf_printf(out, "%c.%sE%d", digits[0], n > 1 ? digits + 1 : "0", e - 1);
}

int pm_java_double_string(pm_buf *out, double v)
{
    return java_fp_string(out, v, false);
}

int pm_java_float_string(pm_buf *out, float v)
{
    return java_fp_string(out, (double)v, true);
}

/* Appends the partition value text (unescaped) for legacy or cast naming. */
static int value_text(pm_buf *out, const pm_type *t, const pm_datum *d, bool legacy,
                      paimon_error *err)
{
    switch (t->id) {
    case PM_TYPE_BOOLEAN: return pm_buf_puts(out, d->v.b ? "true" : "false");
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_BIGINT: return pm_buf_printf(out, "%lld", (long long)d->v.i);
    case PM_TYPE_DATE:
        return legacy ? pm_buf_printf(out, "%lld", (long long)d->v.i) : pm_format_date(out, d->v.i);
    case PM_TYPE_TIME:
        return legacy ? pm_buf_printf(out, "%lld", (long long)d->v.i)
                      : pm_format_time(out, d->v.i, t->precision);
    case PM_TYPE_TIMESTAMP:
        return legacy ? pm_java_local_date_time(out, d->v.ts.millis, d->v.ts.nanos)
                      : pm_format_timestamp(out, d->v.ts.millis, d->v.ts.nanos, t->precision);
    case PM_TYPE_TIMESTAMP_LTZ:
        if (legacy)
            return pm_java_local_date_time(out, d->v.ts.millis, d->v.ts.nanos);
        /* Java casts to the JVM's default zone here; paimon-c's zone is UTC. */
        return pm_format_timestamp(out, d->v.ts.millis, d->v.ts.nanos, t->precision);
    case PM_TYPE_DECIMAL: return pm_format_decimal(out, d->v.dec, t->scale);
    case PM_TYPE_FLOAT: return pm_java_float_string(out, d->v.f);
    case PM_TYPE_DOUBLE: return pm_java_double_string(out, d->v.d);
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR: return pm_buf_append(out, d->v.s.ptr, d->v.s.len);
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY:
        if (!legacy)
            return pm_buf_append(out, d->v.s.ptr, d->v.s.len);
        return pm_err_set(err, PAIMON_EUNSUPPORTED,
                          "a BINARY partition value has no reproducible directory name "
                          "(Java writes byte[].toString())");
    default: return pm_err_set(err, PAIMON_EUNSUPPORTED, "partition column of a nested type");
    }
}

static bool whitespace_only(const uint8_t *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!isspace(s[i]) && s[i] != 0x1c && s[i] != 0x1d && s[i] != 0x1e && s[i] != 0x1f)
            return false;
    return true;
}

int pm_partition_path(pm_buf *out, const pm_field *const *fields, size_t count,
                      const pm_binrow *row, const pm_partition_naming *naming, paimon_error *err)
{
    pm_buf value;
    int rc = 0;
    if (row->arity != (int32_t)count)
        return pm_corrupt(err, "partition row has %d fields, the table %zu", row->arity, count);
    pm_buf_init(&value, 0);
    for (size_t i = 0; rc == 0 && i < count; i++) {
        pm_datum d;
        pm_buf_reset(&value);
        if ((rc = pm_binrow_get(row, (int32_t)i, fields[i]->type, &d, err)) != 0)
            break;
        if (!d.is_null && (rc = value_text(&value, fields[i]->type, &d, naming->legacy, err)) != 0)
            break;
        /* Java: StringUtils.isNullOrWhitespaceOnly -> the default name. */
        if (d.is_null || whitespace_only(value.data, value.len)) {
            pm_buf_reset(&value);
            rc = pm_buf_puts(&value, naming->default_name);
        }
        if (rc == 0)
            rc = pm_partition_escape(out, fields[i]->name, strlen(fields[i]->name));
        if (rc == 0)
            rc = pm_buf_putc(out, '=');
        if (rc == 0)
            rc = pm_partition_escape(out, (const char *)value.data, value.len);
        if (rc == 0)
            rc = pm_buf_putc(out, '/');
        if (rc == PAIMON_ENOMEM || rc == PAIMON_ELIMIT)
            rc = pm_buf_error(err, rc);
    }
    pm_buf_free(&value);
    return rc;
}

int pm_partition_json(pm_buf *out, const pm_field *const *fields, size_t count,
                      const pm_binrow *row, paimon_error *err)
{
    int rc = pm_buf_putc(out, '{');
    if (row->arity != (int32_t)count)
        return pm_corrupt(err, "partition row has %d fields, the table %zu", row->arity, count);
    for (size_t i = 0; rc == 0 && i < count; i++) {
        pm_datum d;
        if (i > 0 && (rc = pm_buf_putc(out, ',')) != 0)
            break;
        if ((rc = pm_json_quote(out, fields[i]->name, strlen(fields[i]->name))) != 0 ||
            (rc = pm_buf_putc(out, ':')) != 0)
            break;
        if ((rc = pm_binrow_get(row, (int32_t)i, fields[i]->type, &d, err)) != 0)
            return rc;
        rc = pm_canonical_json(out, fields[i]->type, &d, err);
    }
    if (rc == 0)
        rc = pm_buf_putc(out, '}');
    return rc == PAIMON_ENOMEM || rc == PAIMON_ELIMIT ? pm_buf_error(err, rc) : rc;
}
