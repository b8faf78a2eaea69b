/*
 * Writing Avro data files from columnar batches (avro_data.h): the schema JSON as Java's
 * AvroSchemaConverter prints it, and rows encoded as Java's FieldWriterFactory encodes them
 * (a nullable value is branch 1 of ["null", T]; arrays and maps as one block and the end
 * marker; decimals as BigInteger.toByteArray(); timestamps in milliseconds or microseconds
 * by precision).
 */
#include <string.h>

#include "format/avro/avro_container.h"
#include "format/avro/avro_data.h"
#include "format/avro/avro_io.h"
#include "format/avro/avro_record.h"
#include "util/alloc.h"
#include "util/json.h"
#include "util/strlist.h"
#include "util/time.h"

/* ---- the schema ------------------------------------------------------------------------ */

static bool string_key(const pm_type *t)
{
    return pm_type_is_string(t);
}

static int schema_of(const pm_type *t, const char *name, pm_buf *out, int depth);

static int record_schema(const pm_type *row, const char *name, bool top, pm_buf *out, int depth)
{
    int rc;
    if (top)
        rc = pm_buf_printf(out,
                           "{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"%s\","
                           "\"fields\":[",
                           PM_AVRO_NAMESPACE);
    else
        rc = pm_buf_printf(out, "{\"type\":\"record\",\"name\":\"%s\",\"fields\":[", name);
    for (size_t i = 0; i < row->field_count && rc == 0; i++) {
        const pm_field *f = &row->fields[i];
        pm_buf child;
        pm_buf_init(&child, 0);
        rc = pm_buf_printf(&child, "%s_%s", name, f->name);
        if (rc == 0 && i > 0)
            rc = pm_buf_putc(out, ',');
        if (rc == 0)
            rc = pm_buf_puts(out, "{\"name\":");
        if (rc == 0)
            rc = pm_json_quote(out, f->name, strlen(f->name));
        if (rc == 0)
            rc = pm_buf_puts(out, ",\"type\":");
        if (rc == 0)
            rc = schema_of(f->type, pm_buf_cstr(&child), out, depth + 1);
        if (rc == 0)
            rc = pm_buf_puts(out, f->type->nullable ? ",\"default\":null}" : "}");
        pm_buf_free(&child);
    }
    return rc != 0 ? rc : pm_buf_puts(out, "]}");
}

/* A type's schema: ["null", T] when nullable.  `name` names records made for it. */
static int schema_of(const pm_type *t, const char *name, pm_buf *out, int depth)
{
    int rc = 0;
    if (depth > PM_MAX_NESTING + 1) /* the top-level columns are depth 1 */
        return PAIMON_ELIMIT;
    if (t->nullable && (rc = pm_buf_puts(out, "[\"null\",")) != 0)
        return rc;
    switch (t->id) {
    case PM_TYPE_BOOLEAN: rc = pm_buf_puts(out, "\"boolean\""); break;
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT: rc = pm_buf_puts(out, "\"int\""); break;
    case PM_TYPE_BIGINT: rc = pm_buf_puts(out, "\"long\""); break;
    case PM_TYPE_FLOAT: rc = pm_buf_puts(out, "\"float\""); break;
    case PM_TYPE_DOUBLE: rc = pm_buf_puts(out, "\"double\""); break;
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR: rc = pm_buf_puts(out, "\"string\""); break;
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY: rc = pm_buf_puts(out, "\"bytes\""); break;
    case PM_TYPE_DATE: rc = pm_buf_puts(out, "{\"type\":\"int\",\"logicalType\":\"date\"}"); break;
    case PM_TYPE_TIME:
        if (t->precision > 3)
            return PAIMON_EUNSUPPORTED;
        rc = pm_buf_puts(out, "{\"type\":\"int\",\"logicalType\":\"time-millis\"}");
        break;
    case PM_TYPE_DECIMAL:
        rc = pm_buf_printf(out,
                           "{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":%d,"
                           "\"scale\":%d}",
                           t->precision, t->scale);
        break;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ:
        if (t->precision > 6)
            return PAIMON_EUNSUPPORTED;
        rc = pm_buf_printf(out, "{\"type\":\"long\",\"logicalType\":\"%stimestamp-%s\"}",
                           t->id == PM_TYPE_TIMESTAMP_LTZ ? "local-" : "",
                           t->precision <= 3 ? "millis" : "micros");
        break;
    case PM_TYPE_ROW: rc = record_schema(t, name, false, out, depth); break;
    case PM_TYPE_ARRAY:
        if ((rc = pm_buf_puts(out, "{\"type\":\"array\",\"items\":")) == 0 &&
            (rc = schema_of(t->element, name, out, depth + 1)) == 0)
            rc = pm_buf_putc(out, '}');
        break;
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET: {
        const pm_type *key = t->element;
        const pm_type *value = t->id == PM_TYPE_MAP ? t->value : &pm_multiset_count_type;
        pm_buf kn, vn;
        if (string_key(key)) {
            if ((rc = pm_buf_puts(out, "{\"type\":\"map\",\"values\":")) == 0 &&
                (rc = schema_of(value, name, out, depth + 1)) == 0)
                rc = pm_buf_putc(out, '}');
            break;
        }
        /* Avro maps have string keys: other keys make an array of key/value records */
        pm_buf_init(&kn, 0);
        pm_buf_init(&vn, 0);
        if ((rc = pm_buf_printf(&kn, "%s_key", name)) == 0 &&
            (rc = pm_buf_printf(&vn, "%s_value", name)) == 0 &&
            (rc = pm_buf_printf(out,
                                "{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":"
                                "\"%s\",\"fields\":[{\"name\":\"key\",\"type\":",
                                name)) == 0 &&
            (rc = schema_of(key, pm_buf_cstr(&kn), out, depth + 1)) == 0 &&
            (rc = pm_buf_puts(out, "},{\"name\":\"value\",\"type\":")) == 0 &&
            (rc = schema_of(value, pm_buf_cstr(&vn), out, depth + 1)) == 0)
            rc = pm_buf_printf(out, "%s}]},\"logicalType\":\"map\"}",
                               value->nullable ? ",\"default\":null" : "");
        pm_buf_free(&kn);
        pm_buf_free(&vn);
        break;
    }
    default: return PAIMON_EUNSUPPORTED;
    }
    if (rc == 0 && t->nullable)
        rc = pm_buf_putc(out, ']');
    return rc;
}

int pm_avro_data_schema_json(const pm_type *row_type, pm_buf *out, paimon_error *err)
{
    int rc = row_type->id == PM_TYPE_ROW ? record_schema(row_type, "record", true, out, 0)
                                         : PAIMON_EINVALID;
    if (rc == PAIMON_EUNSUPPORTED)
        return pm_err_set(err, rc,
                          "a column type Avro cannot hold (TIMESTAMP above 6 or TIME above 3 "
                          "digits, VARIANT, BLOB)");
    return rc != 0 ? pm_buf_error(err, rc) : 0;
}

/* ---- what Avro cannot store ------------------------------------------------------------ */

typedef struct check_ctx {
    pm_strlist records; /* record names given so far */
    paimon_error *err;
} check_ctx;

/* Java's Avro (Schema.validateName): a letter or '_', then letters, digits and '_'.  Bytes
 * of multi-byte UTF-8 characters count as letters (Java's Character.isLetter accepts the
 * letters of every script). */
static bool valid_name(const char *name)
{
    const unsigned char *p = (const unsigned char *)name;
    if (*p == '\0' || (*p >= '0' && *p <= '9'))
        return false;
    for (; *p != '\0'; p++)
        if (!(*p >= 0x80 || *p == '_' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
              (*p >= 'A' && *p <= 'Z')))
            return false;
    return true;
}

static int refuse(check_ctx *c, const char *column, const char *what)
{
    return pm_err_set(c->err, PAIMON_EINVALID, "column %s: %s (file.format avro)", column, what);
}

/* A record named `name` (Java's AvroSchemaConverter names records after their path, and an
 * Avro schema may define a name only once). */
static int record_name(check_ctx *c, const char *name, const char *column)
{
    char what[PAIMON_ERROR_MESSAGE_MAX];
    if (pm_strlist_find(&c->records, name) < 0)
        return pm_strlist_push(&c->records, name) != 0 ? pm_nomem(c->err) : 0;
    snprintf(what, sizeof(what), "Avro record name %s would be defined twice", name);
    return refuse(c, column, what);
}

/* Walks `t` as schema_of() names its records; `column` is its path for messages. */
static int check_type(check_ctx *c, const pm_type *t, const char *name, const char *column,
                      int depth)
{
    char what[96];
    pm_buf kn, vn, path;
    int rc = 0;
    if (depth > PM_MAX_NESTING + 1)
        return refuse(c, column, "type nested too deeply");
    switch (t->id) {
    case PM_TYPE_TIME:
        if (t->precision <= 3)
            return 0;
        snprintf(what, sizeof(what), "Avro keeps TIME to 3 fraction digits, not %d", t->precision);
        return refuse(c, column, what);
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ:
        if (t->precision <= 6)
            return 0;
        snprintf(what, sizeof(what), "Avro keeps TIMESTAMP to 6 fraction digits, not %d",
                 t->precision);
        return refuse(c, column, what);
    case PM_TYPE_VARIANT: return refuse(c, column, "Avro has no form for VARIANT");
    case PM_TYPE_ARRAY: return check_type(c, t->element, name, column, depth + 1);
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET: {
        const pm_type *value = t->id == PM_TYPE_MAP ? t->value : &pm_multiset_count_type;
        if (string_key(t->element))
            return check_type(c, value, name, column, depth + 1);
        pm_buf_init(&kn, 0);
        pm_buf_init(&vn, 0);
        if (pm_buf_printf(&kn, "%s_key", name) != 0 || pm_buf_printf(&vn, "%s_value", name) != 0)
            rc = pm_nomem(c->err);
        if (rc == 0)
            rc = record_name(c, name, column);
        if (rc == 0)
            rc = check_type(c, t->element, pm_buf_cstr(&kn), column, depth + 1);
        if (rc == 0)
            rc = check_type(c, value, pm_buf_cstr(&vn), column, depth + 1);
        pm_buf_free(&kn);
        pm_buf_free(&vn);
        return rc;
    }
    case PM_TYPE_ROW:
        if ((rc = record_name(c, name, column)) != 0)
            return rc;
        for (size_t i = 0; rc == 0 && i < t->field_count; i++) {
            const pm_field *f = &t->fields[i];
            pm_buf_init(&kn, 0);
            pm_buf_init(&path, 0);
            if (pm_buf_printf(&kn, "%s_%s", name, f->name) != 0 ||
                pm_buf_printf(&path, "%s.%s", column, f->name) != 0)
                rc = pm_nomem(c->err);
            else if (!valid_name(f->name))
                rc = refuse(c, pm_buf_cstr(&path),
                            "an Avro name starts with a letter or '_' and holds only letters, "
                            "digits and '_'");
            else
                rc = check_type(c, f->type, pm_buf_cstr(&kn), pm_buf_cstr(&path), depth + 1);
            pm_buf_free(&kn);
            pm_buf_free(&path);
        }
        return rc;
    default: return 0;
    }
}

int pm_avro_data_check(const pm_type *row_type, paimon_error *err)
{
    check_ctx c;
    int rc = 0;
    pm_strlist_init(&c.records);
    c.err = err;
    if (pm_strlist_push(&c.records, "record") != 0)
        rc = pm_nomem(err);
    for (size_t i = 0; rc == 0 && i < row_type->field_count; i++) {
        const pm_field *f = &row_type->fields[i];
        pm_buf name;
        pm_buf_init(&name, 0);
        if (pm_buf_printf(&name, "record_%s", f->name) != 0)
            rc = pm_nomem(err);
        else if (!valid_name(f->name))
            rc = refuse(&c, f->name,
                        "an Avro name starts with a letter or '_' and holds only letters, "
                        "digits and '_'");
        else
            rc = check_type(&c, f->type, pm_buf_cstr(&name), f->name, 1);
        pm_buf_free(&name);
    }
    pm_strlist_free(&c.records);
    return rc;
}

/* ---- values ---------------------------------------------------------------------------- */

/* BigInteger.toByteArray(): the shortest two's complement, big endian. */
static int write_decimal(pm_buf *out, pm_int128 v)
{
    uint8_t be[16];
    size_t n = 16;
    for (int i = 15; i >= 0; i--) {
        be[i] = (uint8_t)v;
        v >>= 8;
    }
    /* drop a leading byte while the next one carries the same sign */
    size_t start = 0;
    while (n - start > 1 && ((be[start] == 0x00 && (be[start + 1] & 0x80) == 0) ||
                             (be[start] == 0xff && (be[start + 1] & 0x80) != 0)))
        start++;
    return pm_avro_write_bytes(out, be + start, n - start);
}

static int encode(const pm_column *c, int64_t i, pm_buf *out, int depth);

static int encode_entries(const pm_column *c, int64_t lo, int64_t hi, pm_buf *out, int depth)
{
    const pm_column *keys = c->children[0], *values = c->children[1];
    bool as_map = string_key(keys->type);
    int rc = 0;
    if (hi > lo)
        rc = pm_avro_write_long(out, hi - lo);
    for (int64_t k = lo; k < hi && rc == 0; k++) {
        if (as_map) {
            /* map keys are bare strings, never null */
            int32_t a = pm_column_offset(keys, k), b = pm_column_offset(keys, k + 1);
            rc = pm_avro_write_bytes(out, keys->values.data + a, (size_t)(b - a));
        } else {
            rc = encode(keys, k, out, depth + 1);
        }
        if (rc == 0)
            rc = encode(values, k, out, depth + 1);
    }
    return rc != 0 ? rc : pm_avro_write_long(out, 0);
}

static int encode(const pm_column *c, int64_t i, pm_buf *out, int depth)
{
    const pm_type *t = c->type;
    pm_datum d;
    int rc;
    if (depth > 64)
        return PAIMON_ELIMIT;
    if (t->nullable) {
        bool valid = pm_column_is_valid(c, i);
        if ((rc = pm_avro_write_long(out, valid ? 1 : 0)) != 0 || !valid)
            return rc;
    }
    switch (t->id) {
    case PM_TYPE_ROW:
        for (size_t k = 0; k < c->child_count; k++)
            if ((rc = encode(c->children[k], i, out, depth + 1)) != 0)
                return rc;
        return 0;
    case PM_TYPE_ARRAY: {
        int32_t lo = pm_column_offset(c, i), hi = pm_column_offset(c, i + 1);
        rc = hi > lo ? pm_avro_write_long(out, hi - lo) : 0;
        for (int32_t k = lo; k < hi && rc == 0; k++)
            rc = encode(c->children[0], k, out, depth + 1);
        return rc != 0 ? rc : pm_avro_write_long(out, 0);
    }
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET:
        return encode_entries(c, pm_column_offset(c, i), pm_column_offset(c, i + 1), out, depth);
    default: break;
    }
    pm_column_get_datum(c, i, &d);
    switch (t->id) {
    case PM_TYPE_BOOLEAN: return pm_buf_putc(out, d.v.b ? 1 : 0);
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_BIGINT:
    case PM_TYPE_DATE:
    case PM_TYPE_TIME: return pm_avro_write_long(out, d.v.i);
    case PM_TYPE_FLOAT: {
        uint8_t b[4];
        uint32_t bits;
        memcpy(&bits, &d.v.f, 4);
        pm_store_le32(b, bits);
        return pm_buf_append(out, b, 4);
    }
    case PM_TYPE_DOUBLE: {
        uint8_t b[8];
        uint64_t bits;
        memcpy(&bits, &d.v.d, 8);
        pm_store_le64(b, bits);
        return pm_buf_append(out, b, 8);
    }
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY: return pm_avro_write_bytes(out, d.v.s.ptr, d.v.s.len);
    case PM_TYPE_DECIMAL: return write_decimal(out, d.v.dec);
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ:
        /* getMillisecond(), or toMicros(): millis * 1000 + nanos / 1000 */
        if (t->precision <= 3)
            return pm_avro_write_long(out, d.v.ts.millis);
        return pm_avro_write_long(out, d.v.ts.millis * 1000 + d.v.ts.nanos / 1000);
    default: return PAIMON_EUNSUPPORTED;
    }
}

/* ---- the writer ------------------------------------------------------------------------ */

struct pm_avro_data_writer {
    pm_avro_writer w;
    bool open;
    pm_output *out;
    pm_type *type;
    int64_t rows;
};

void pm_avro_data_writer_abort(pm_avro_data_writer *w)
{
    if (w == NULL)
        return;
    if (w->open)
        pm_avro_writer_abort(&w->w);
    if (w->out != NULL)
        w->out->abort(w->out);
    pm_type_free(w->type);
    pm_free(w);
}

int pm_avro_data_writer_open(pm_avro_data_writer **out_w, pm_output *out, const pm_type *row_type,
                             const char *compression, int level, paimon_error *err)
{
    pm_avro_data_writer *w = pm_calloc(1, sizeof(*w));
    pm_buf schema;
    const char *codec = pm_avro_codec_for_option(compression);
    int rc = 0;

    *out_w = NULL;
    if (w == NULL) {
        out->abort(out);
        return pm_nomem(err);
    }
    w->out = out;
    pm_buf_init(&schema, 0);
    if (codec == NULL) {
        rc = pm_err_set(err, PAIMON_EINVALID, "compression '%s' is not an Avro codec", compression);
        goto done;
    }
    if ((w->type = pm_type_clone(row_type)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    PM_TRY(pm_avro_data_schema_json(row_type, &schema, err));
    PM_TRY(pm_avro_writer_open(&w->w, pm_buf_cstr(&schema), codec, level, NULL, out, err));
    w->open = true;
done:
    pm_buf_free(&schema);
    if (rc != 0) {
        pm_avro_data_writer_abort(w);
        return rc;
    }
    *out_w = w;
    return 0;
}

int pm_avro_data_writer_write(pm_avro_data_writer *w, const pm_batch *b, paimon_error *err)
{
    return pm_avro_data_writer_write_range(w, b, 0, b->row_count, err);
}

int pm_avro_data_writer_write_range(pm_avro_data_writer *w, const pm_batch *b, int64_t first,
                                    int64_t count, paimon_error *err)
{
    if (b->column_count != w->type->field_count)
        return pm_err_set(err, PAIMON_EINVALID, "Avro writer: a batch of %zu columns for %zu",
                          b->column_count, w->type->field_count);
    if (first < 0 || count < 0 || first > b->row_count - count)
        return pm_err_set(err, PAIMON_EINVALID, "Avro writer: rows %lld..%lld of a batch of %lld",
                          (long long)first, (long long)(first + count), (long long)b->row_count);
    for (size_t k = 0; k < b->column_count; k++) {
        if (w->type->fields[k].type->nullable || b->columns[k]->null_count == 0)
            continue;
        for (int64_t i = first; i < first + count; i++)
            if (!pm_column_is_valid(b->columns[k], i))
                return pm_err_set(err, PAIMON_EINVALID,
                                  "Field '%s' expected not null but found null",
                                  w->type->fields[k].name);
    }
    for (int64_t i = first; i < first + count; i++) {
        pm_buf *o = pm_avro_writer_object(&w->w);
        int rc = 0;
        for (size_t k = 0; k < b->column_count && rc == 0; k++)
            rc = encode(b->columns[k], i, o, 0);
        if (rc == PAIMON_EUNSUPPORTED)
            return pm_err_set(err, rc, "Avro writer: a value Avro cannot hold");
        if (rc != 0)
            return pm_buf_error(err, rc);
        if ((rc = pm_avro_writer_end_object(&w->w, err)) != 0)
            return rc;
        w->rows++;
    }
    return 0;
}

int64_t pm_avro_data_writer_rows(const pm_avro_data_writer *w)
{
    return w->rows;
}

uint64_t pm_avro_data_writer_position(const pm_avro_data_writer *w)
{
    return w->out != NULL ? w->out->pos : 0;
}

int pm_avro_data_writer_close(pm_avro_data_writer *w, uint64_t *file_size, paimon_error *err)
{
    int rc = pm_avro_writer_close(&w->w, err);
    pm_output *out = w->out;
    w->open = false;
    w->out = NULL;
    if (rc != 0) {
        out->abort(out);
    } else {
        uint64_t size = out->pos;
        if ((rc = out->close(out, err)) == 0 && file_size != NULL)
            *file_size = size;
    }
    pm_avro_data_writer_abort(w);
    return rc;
}
