/* Partition directory names: see partition.h and metadata.md §12. */
#include "meta/partition.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/canonical.h"
#include "data/java_text.h"
#include "util/error.h"
#include "util/time.h"

int pm_partition_naming_from(const pm_schema *schema, pm_partition_naming *out, paimon_error *err)
{
    const char *name = pm_schema_option(schema, "partition.default-name");
    out->default_name = name != NULL ? name : PM_DEFAULT_PARTITION_NAME;
    return pm_options_get_bool(&schema->options, "partition.legacy-name", &out->legacy, err);
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

/* Appends the partition value text (unescaped) for legacy or cast naming. */
PM_MUST_CHECK static int value_text(pm_buf *out, const pm_type *t, const pm_datum *d, bool legacy,
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
        if (!d.is_null &&
            (rc = value_text(&value, fields[i]->type, &d, naming->legacy, err)) != 0) {
            if (rc == PAIMON_ENOMEM || rc == PAIMON_ELIMIT) /* from the buffer: no message */
                rc = pm_buf_error(err, rc);
            break;
        }
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
