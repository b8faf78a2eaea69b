/*
 * Debezium JSON input: one change event per line, as Debezium's JSON converter writes them
 * (https://debezium.io/documentation/reference/stable/connectors/mysql.html#mysql-events):
 *
 *   {"schema": {...}, "payload": {"before": {...}, "after": {...}, "op": "u", ...}}
 *   {"before": {...}, "after": {...}, "op": "u", ...}        (schemas.enable=false)
 *
 * op "c" (create) and "r" (snapshot read) give +I of `after`; "u" gives -U of `before` and
 * +U of `after` (only +U when `before` is null, as with PostgreSQL's default replica
 * identity; a field missing from `before` takes its value from `after`, as Java's
 * DebeziumJsonRecordParser.mergeOldRecord does); "d" gives -D of `before`.  Tombstones (the
 * line `null`, a null payload) are skipped; other ops ("t" truncate, "m" message) are
 * errors, since a table write cannot express them.  Keys of `before`/`after` are matched to
 * columns by name like JSONL keys; `source`, `ts_ms`, `transaction` and the rest are
 * skipped.
 *
 * Encodings: with the envelope, the schema of the `after` struct (else `before`) names how
 * each field is encoded.  The names understood (Debezium's defaults, and Kafka Connect's
 * when time.precision.mode=connect), and what they are read into:
 *
 *   io.debezium.time.Date, o.a.k.connect.data.Date        int epoch days   DATE, TIMESTAMP
 *   io.debezium.time.Time, o.a.k.connect.data.Time        int millis       TIME
 *   io.debezium.time.MicroTime / NanoTime                 int micros/nanos TIME
 *   io.debezium.time.Timestamp, o.a.k.connect.data.Timestamp  epoch millis TIMESTAMP(_LTZ)
 *   io.debezium.time.MicroTimestamp / NanoTimestamp       epoch micros/nanos  TIMESTAMP(_LTZ)
 *   io.debezium.time.ZonedTimestamp / ZonedTime           ISO text with offset, to UTC
 *   io.debezium.time.IsoDate / IsoTime / IsoTimestamp     ISO text (canonical parsing)
 *   o.a.k.connect.data.Decimal                            base64 big-endian two's complement
 *                                                         unscaled, "scale" parameter
 *   io.debezium.data.VariableScaleDecimal                 {"scale": s, "value": base64}
 *   "bytes" without a name                                bare base64 (BINARY, VARBINARY; a
 *                                                         string column takes the UTF-8)
 *   io.debezium.data.Bits                                 bare base64, little-endian: the
 *                                                         bytes are reversed, as Java does
 *
 * Any other value is read in the canonical form (a Debezium "string" Decimal, IsoDate text
 * and Json/Uuid/Enum strings are canonical already).  Nested arrays, maps and structs carry
 * their items' encodings.  A changed schema is parsed again; an identical one is reused.
 */
#include <jansson.h>
#include <stdlib.h>

#include "data/input_int.h"
#include "util/alloc.h"
#include "util/arena.h"

typedef struct span {
    const uint8_t *p, *end; /* the value's JSON text */
} span;

struct pm_input_dbz {
    pm_buf schema_text;      /* the raw text of the schema `enc` was built from */
    bool has_schema;         /* schema_text is valid */
    pm_arena arena;          /* enc nodes */
    pm_input_enc *enc;       /* per column (fields), or NULL */
    span *before, *after;    /* per column: the value's text in before/after */
    uint32_t *bseen, *aseen; /* per column: the event generation that set the span */
    uint32_t gen;            /* event generation */
    bool half;               /* an update's -U went out; +U is next */
};

void pm_input_debezium_free(pm_input_dbz *d)
{
    if (d == NULL)
        return;
    pm_buf_free(&d->schema_text);
    pm_arena_free(&d->arena);
    pm_free(d->before);
    pm_free(d->after);
    pm_free(d->bseen);
    pm_free(d->aseen);
    pm_free(d);
}

static int dbz_init(pm_row_input *in)
{
    size_t n = in->row_type->field_count > 0 ? in->row_type->field_count : 1;
    pm_input_dbz *d = pm_calloc(1, sizeof(*d));
    if (d == NULL)
        return pm_input_fail_buf(&in->ctx, PAIMON_ENOMEM);
    in->dbz = d;
    pm_buf_init(&d->schema_text, 0);
    pm_arena_init(&d->arena, 4096);
    if ((d->before = pm_calloc(n, sizeof(span))) == NULL ||
        (d->after = pm_calloc(n, sizeof(span))) == NULL ||
        (d->bseen = pm_calloc(n, sizeof(uint32_t))) == NULL ||
        (d->aseen = pm_calloc(n, sizeof(uint32_t))) == NULL)
        return pm_input_fail_buf(&in->ctx, PAIMON_ENOMEM);
    return 0;
}

/* ---- schema -> encodings --------------------------------------------------------------- */

static const struct {
    const char *name;
    pm_input_enc_kind kind;
} NAMES[] = {
    {"io.debezium.time.Date", PM_ENC_DATE_DAYS},
    {"org.apache.kafka.connect.data.Date", PM_ENC_DATE_DAYS},
    {"io.debezium.time.Time", PM_ENC_TIME_MILLIS},
    {"org.apache.kafka.connect.data.Time", PM_ENC_TIME_MILLIS},
    {"io.debezium.time.MicroTime", PM_ENC_TIME_MICROS},
    {"io.debezium.time.NanoTime", PM_ENC_TIME_NANOS},
    {"io.debezium.time.Timestamp", PM_ENC_TS_MILLIS},
    {"org.apache.kafka.connect.data.Timestamp", PM_ENC_TS_MILLIS},
    {"io.debezium.time.MicroTimestamp", PM_ENC_TS_MICROS},
    {"io.debezium.time.NanoTimestamp", PM_ENC_TS_NANOS},
    {"io.debezium.time.ZonedTimestamp", PM_ENC_ZONED},
    {"io.debezium.time.ZonedTime", PM_ENC_ZONED},
    {"org.apache.kafka.connect.data.Decimal", PM_ENC_DECIMAL},
    {"io.debezium.data.VariableScaleDecimal", PM_ENC_VAR_DECIMAL},
    {"io.debezium.data.Bits", PM_ENC_BITS},
};

static pm_input_enc *enc_build(pm_arena *a, const json_t *schema, const pm_type *t);

static pm_input_enc *enc_new(pm_arena *a)
{
    return pm_arena_calloc(a, 1, sizeof(pm_input_enc));
}

/* Encodings of a struct schema's fields, aligned with the fields of `row`; *any tells
 * whether a field has one, *failed an allocation failure. */
static pm_input_enc **fields_build(pm_arena *a, const json_t *fields, const pm_type *row, bool *any,
                                   bool *failed)
{
    pm_input_enc **out;
    size_t i;
    json_t *f;
    *any = false;
    if (!json_is_array(fields) || row->field_count == 0)
        return NULL;
    if ((out = pm_arena_calloc(a, row->field_count, sizeof(*out))) == NULL) {
        *failed = true;
        return NULL;
    }
    json_array_foreach(fields, i, f)
    {
        const char *name = json_string_value(json_object_get(f, "field"));
        long k;
        if (name == NULL)
            continue;
        k = pm_input_field_index(row, (const uint8_t *)name, strlen(name), i);
        if (k < 0)
            continue;
        out[k] = enc_build(a, f, row->fields[k].type);
        if (out[k] != NULL)
            *any = true;
    }
    return out;
}

static pm_input_enc *enc_build(pm_arena *a, const json_t *schema, const pm_type *t)
{
    const char *name = json_string_value(json_object_get(schema, "name"));
    const char *type = json_string_value(json_object_get(schema, "type"));
    pm_input_enc *e = NULL;
    bool any = false, failed = false;

    if (!json_is_object(schema))
        return NULL;
    for (size_t i = 0; name != NULL && i < sizeof(NAMES) / sizeof(NAMES[0]); i++) {
        if (strcmp(name, NAMES[i].name) != 0)
            continue;
        if ((e = enc_new(a)) == NULL)
            return NULL;
        e->kind = NAMES[i].kind;
        e->name = NAMES[i].name;
        if (e->kind == PM_ENC_DECIMAL) {
            const json_t *scale = json_object_get(json_object_get(schema, "parameters"), "scale");
            const char *text = json_string_value(scale);
            e->scale =
                text != NULL ? (int32_t)strtol(text, NULL, 10) : (int32_t)json_integer_value(scale);
        }
        return e;
    }
    if (type != NULL && strcmp(type, "bytes") == 0 && name == NULL) {
        if ((e = enc_new(a)) != NULL) {
            e->kind = PM_ENC_BYTES;
            e->name = "bytes";
        }
        return e;
    }
    if (type == NULL)
        return NULL;
    if (strcmp(type, "array") == 0 && (t->id == PM_TYPE_ARRAY || t->id == PM_TYPE_MULTISET)) {
        pm_input_enc *items = enc_build(a, json_object_get(schema, "items"), t->element);
        if (items == NULL || (e = enc_new(a)) == NULL)
            return NULL;
        e->items = items;
        return e;
    }
    if (strcmp(type, "map") == 0 && t->id == PM_TYPE_MAP) {
        pm_input_enc *k = enc_build(a, json_object_get(schema, "keys"), t->element);
        pm_input_enc *v = enc_build(a, json_object_get(schema, "values"), t->value);
        if ((k == NULL && v == NULL) || (e = enc_new(a)) == NULL)
            return NULL;
        e->items = k;
        e->values = v;
        return e;
    }
    if (strcmp(type, "struct") == 0 && t->id == PM_TYPE_ROW) {
        pm_input_enc **fields =
            fields_build(a, json_object_get(schema, "fields"), t, &any, &failed);
        if (!any || (e = enc_new(a)) == NULL)
            return NULL;
        e->fields = fields;
        return e;
    }
    return NULL;
}

/* Builds the column encodings from the envelope schema at [p, end). */
static int schema_load(pm_row_input *in, const uint8_t *p, const uint8_t *end)
{
    pm_input_dbz *d = in->dbz;
    pm_input_ctx *x = &in->ctx;
    size_t n = (size_t)(end - p), i;
    json_error_t jerr;
    json_t *root, *f, *fields = NULL;
    bool any = false, failed = false;
    int rc;

    if (d->has_schema && d->schema_text.len == n && memcmp(d->schema_text.data, p, n) == 0)
        return 0;
    d->has_schema = false;
    d->enc = NULL;
    pm_arena_reset(&d->arena);
    pm_buf_reset(&d->schema_text);
    if ((rc = pm_buf_append(&d->schema_text, p, n)) != 0)
        return pm_input_fail_buf(x, rc);
    if ((root = json_loadb((const char *)p, n, JSON_ALLOW_NUL, &jerr)) == NULL)
        return pm_input_fail(x, "the envelope's schema: %s", jerr.text);
    if (json_is_object(root)) {
        /* the fields of `after`, else of `before` (Java's DebeziumJsonRecordParser) */
        json_array_foreach(json_object_get(root, "fields"), i, f)
        {
            const char *name = json_string_value(json_object_get(f, "field"));
            if (name != NULL && strcmp(name, "after") == 0) {
                fields = json_object_get(f, "fields");
                break;
            }
            if (name != NULL && strcmp(name, "before") == 0 && fields == NULL)
                fields = json_object_get(f, "fields");
        }
    }
    if (fields != NULL) {
        pm_input_enc **encs = fields_build(&d->arena, fields, in->row_type, &any, &failed);
        if (any && (d->enc = enc_new(&d->arena)) != NULL)
            d->enc->fields = encs;
        failed |= any && d->enc == NULL;
    }
    json_decref(root);
    if (failed)
        return pm_input_fail_buf(x, PAIMON_ENOMEM);
    d->has_schema = true;
    return 0;
}

/* ---- events ---------------------------------------------------------------------------- */

static bool key_is(const uint8_t *s, size_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

static bool is_null(const span *v)
{
    return v->p != NULL && v->end - v->p == 4 && memcmp(v->p, "null", 4) == 0;
}

/* Walks an object at c, calling back for each key with the value's span (already
 * skipped, so syntax-checked). */
typedef int (*member_fn)(pm_row_input *in, const uint8_t *key, size_t klen, span v, void *arg);

typedef struct member_walk {
    pm_row_input *in;
    member_fn fn;
    void *arg;
} member_walk;

static int span_member(void *arg, pm_input_ctx *x, pm_input_cur *c, const uint8_t *key, size_t klen)
{
    member_walk *w = arg;
    span v;
    int rc;
    pm_input_ws(c);
    v.p = c->p;
    if ((rc = pm_input_json_skip(x, c)) != 0)
        return rc;
    v.end = c->p;
    return w->fn(w->in, key, klen, v, w->arg);
}

static int members(pm_row_input *in, pm_input_cur *c, const char *what, member_fn fn, void *arg)
{
    pm_input_ctx *x = &in->ctx;
    member_walk w = {in, fn, arg};
    pm_input_ws(c);
    if (c->p >= c->end || *c->p != '{')
        return pm_input_json_wrong(x, c, what);
    /* an unescaped key stays valid: skipping the value unescapes nothing */
    return pm_input_json_members(x, c, &x->unescaped, "a key", span_member, &w);
}

typedef struct event {
    span schema, payload, op, before, after;
    bool has_payload;
} event;

static int envelope_member(pm_row_input *in, const uint8_t *k, size_t n, span v, void *arg)
{
    event *e = arg;
    if (key_is(k, n, "schema"))
        e->schema = v;
    else if (key_is(k, n, "payload")) {
        e->payload = v;
        e->has_payload = true;
    } else if (key_is(k, n, "op"))
        e->op = v;
    else if (key_is(k, n, "before"))
        e->before = v;
    else if (key_is(k, n, "after"))
        e->after = v;
    return 0;
}

static int payload_member(pm_row_input *in, const uint8_t *k, size_t n, span v, void *arg)
{
    event *e = arg;
    if (key_is(k, n, "op"))
        e->op = v;
    else if (key_is(k, n, "before"))
        e->before = v;
    else if (key_is(k, n, "after"))
        e->after = v;
    return 0;
}

typedef struct image {
    span *spans;
    uint32_t *seen;
    const char *name; /* "before" or "after" */
} image;

static int image_member(pm_row_input *in, const uint8_t *k, size_t n, span v, void *arg)
{
    image *im = arg;
    long col = pm_input_column_index(in, k, n);
    if (col < 0) {
        char shown[PM_INPUT_SHOW_CAP];
        return pm_input_fail(&in->ctx, "unknown column \"%s\" in %s", pm_input_show(shown, k, n),
                             im->name);
    }
    if (im->seen[col] == in->dbz->gen)
        return pm_input_fail(&in->ctx, "column %s appears twice in %s",
                             in->row_type->fields[col].name, im->name);
    im->seen[col] = in->dbz->gen;
    im->spans[col] = v;
    return 0;
}

/* Appends one row from the spans of `primary`, taking columns it lacks from `fallback`. */
static int emit(pm_row_input *in, const image *primary, const image *fallback, int8_t kind)
{
    pm_input_dbz *d = in->dbz;
    pm_input_ctx *x = &in->ctx;
    int rc;
    for (size_t k = 0; k < in->row_type->field_count; k++) {
        const span *v = NULL;
        pm_column *c = in->batch->columns[k];
        if (primary->seen[k] == d->gen)
            v = &primary->spans[k];
        else if (fallback != NULL && fallback->seen[k] == d->gen)
            v = &fallback->spans[k];
        x->column = in->row_type->fields[k].name;
        x->depth = 0;
        if (v == NULL) {
            if (!c->type->nullable)
                return pm_input_fail(x, "missing from %s, but the column is NOT NULL",
                                     primary->name);
            if ((rc = pm_column_append_null(c)) != 0)
                return pm_input_fail_buf(x, rc);
        } else {
            pm_input_cur cur = {v->p, v->end};
            const pm_input_enc *enc =
                d->enc != NULL && d->enc->fields != NULL ? d->enc->fields[k] : NULL;
            if ((rc = pm_input_json_value(x, &cur, c, enc)) != 0)
                return rc;
        }
    }
    x->column = NULL;
    return pm_input_row_done(in, kind);
}

static int load_image(pm_row_input *in, const span *v, image *im)
{
    pm_input_cur c = {v->p, v->end};
    return members(in, &c, "an object of column values", image_member, im);
}

int pm_input_debezium_record(pm_row_input *in)
{
    pm_input_ctx *x = &in->ctx;
    pm_input_dbz *d;
    const uint8_t *line;
    size_t n;
    pm_input_cur c;
    event e;
    image before, after;
    int rc;
    char op;

    if (in->dbz == NULL && (rc = dbz_init(in)) != 0)
        return rc;
    d = in->dbz;
    for (;;) {
        if ((rc = pm_input_next_line(in, &line, &n)) <= 0)
            return rc;
        c.p = line;
        c.end = line + n;
        pm_input_ws(&c);
        if (c.p == c.end)
            continue; /* blank line */
        if (c.end - c.p >= 4 && memcmp(c.p, "null", 4) == 0) {
            c.p += 4;
            pm_input_ws(&c);
            if (c.p == c.end)
                continue; /* a tombstone */
            return pm_input_json_wrong(x, &c, "the end of the line after null");
        }
        memset(&e, 0, sizeof(e));
        if ((rc = members(in, &c, "a Debezium change event (a JSON object)", envelope_member,
                          &e)) != 0)
            return rc;
        pm_input_ws(&c);
        if (c.p != c.end)
            return pm_input_json_wrong(x, &c, "the end of the line after the event");
        if (e.has_payload) {
            pm_input_cur pc = {e.payload.p, e.payload.end};
            if (is_null(&e.payload))
                continue; /* a tombstone with its schema */
            e.op = e.before = e.after = (span){NULL, NULL};
            if ((rc = members(in, &pc, "the payload object", payload_member, &e)) != 0)
                return rc;
        }
        break;
    }
    if (e.schema.p != NULL && !is_null(&e.schema)) {
        if ((rc = schema_load(in, e.schema.p, e.schema.end)) != 0)
            return rc;
    } else {
        d->enc = NULL;
        d->has_schema = false;
    }
    if (e.op.p == NULL)
        return pm_input_fail(x, "no \"op\": not a Debezium change event");
    if (e.op.end - e.op.p != 3 || e.op.p[0] != '"' || e.op.p[2] != '"') {
        char shown[PM_INPUT_SHOW_CAP];
        return pm_input_fail(x, "op %s is not one of \"c\", \"r\", \"u\", \"d\"",
                             pm_input_show(shown, e.op.p, (size_t)(e.op.end - e.op.p)));
    }
    op = (char)e.op.p[1];

    if (++d->gen == 0) {
        memset(d->bseen, 0, in->row_type->field_count * sizeof(uint32_t));
        memset(d->aseen, 0, in->row_type->field_count * sizeof(uint32_t));
        d->gen = 1;
    }
    before = (image){d->before, d->bseen, "before"};
    after = (image){d->after, d->aseen, "after"};
    if (e.before.p != NULL && !is_null(&e.before) && (rc = load_image(in, &e.before, &before)) != 0)
        return rc;
    if (e.after.p != NULL && !is_null(&e.after) && (rc = load_image(in, &e.after, &after)) != 0)
        return rc;
    switch (op) {
    case 'c':
    case 'r':
        if (e.after.p == NULL || is_null(&e.after))
            return pm_input_fail(x, "op \"%c\" without \"after\"", op);
        return (rc = emit(in, &after, NULL, PM_INPUT_KIND_INSERT)) != 0 ? rc : 1;
    case 'u':
        if (e.after.p == NULL || is_null(&e.after))
            return pm_input_fail(x, "op \"u\" without \"after\"");
        if (!d->half && e.before.p != NULL && !is_null(&e.before)) {
            if ((rc = emit(in, &before, &after, PM_INPUT_KIND_UPDATE_BEFORE)) != 0)
                return rc;
            if (in->rows == in->batch_rows) {
                /* the batch is full: read this event again for its +U next time */
                d->half = true;
                in->pos = (size_t)(line - in->data);
                in->line = x->line;
                return 1;
            }
        }
        d->half = false;
        return (rc = emit(in, &after, NULL, PM_INPUT_KIND_UPDATE_AFTER)) != 0 ? rc : 1;
    case 'd':
        if (e.before.p == NULL || is_null(&e.before))
            return pm_input_fail(x, "op \"d\" without \"before\"");
        return (rc = emit(in, &before, NULL, PM_INPUT_KIND_DELETE)) != 0 ? rc : 1;
    case 't': return pm_input_fail(x, "op \"t\" (truncate) cannot be written to a table");
    default: {
        char shown[PM_INPUT_SHOW_CAP];
        return pm_input_fail(x, "op %s is not one of \"c\", \"r\", \"u\", \"d\"",
                             pm_input_show(shown, e.op.p, (size_t)(e.op.end - e.op.p)));
    }
    }
}
