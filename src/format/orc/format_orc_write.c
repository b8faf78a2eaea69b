/*
 * Writing ORC data files from columnar batches (orc_format.h): the ORC schema Java Paimon
 * derives from a row type, batches turned into the writer's column views (orc_writer.h),
 * and the table options that configure ORC.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "format/orc/orc_format.h"
#include "util/alloc.h"
#include "util/time.h"
#include "util/units.h"

#define ID_BASE   536870911 /* Integer.MAX_VALUE / 4: SpecialFields.STRUCTURED_TYPE_FIELD_ID_BASE */
#define MAX_TYPES 100000

/* ---- the schema ------------------------------------------------------------------------ */

typedef struct tb {
    pm_orc_type *types;
    size_t count, cap;
    pm_arena *arena;
} tb;

static int set_id(tb *b, uint32_t col, int32_t id)
{
    char buf[16];
    pm_orc_type *t = &b->types[col];
    snprintf(buf, sizeof(buf), "%d", id);
    if (t->attrs == NULL && (t->attrs = pm_arena_alloc(b->arena, sizeof(pm_orc_attr))) == NULL)
        return PAIMON_ENOMEM;
    if ((t->attrs[0].key = pm_arena_strndup(b->arena, "paimon.id", 9)) == NULL ||
        (t->attrs[0].value = pm_arena_strndup(b->arena, buf, strlen(buf))) == NULL)
        return PAIMON_ENOMEM;
    t->attr_count = 1;
    return 0;
}

static int new_type(tb *b, pm_orc_kind kind, uint32_t *col)
{
    if (b->count == b->cap) {
        size_t cap = b->cap == 0 ? 32 : b->cap * 2;
        pm_orc_type *g;
        if (cap > MAX_TYPES)
            return PAIMON_ELIMIT;
        if ((g = pm_arena_calloc(b->arena, cap, sizeof(*g))) == NULL)
            return PAIMON_ENOMEM;
        if (b->count > 0)
            memcpy(g, b->types, b->count * sizeof(*g));
        b->types = g;
        b->cap = cap;
    }
    *col = (uint32_t)b->count++;
    memset(&b->types[*col], 0, sizeof(pm_orc_type));
    b->types[*col].kind = kind;
    return 0;
}

static int32_t java_int(int64_t v)
{
    return (int32_t)(uint32_t)(uint64_t)v; /* Java's int arithmetic wraps */
}

static int add_row(tb *b, const pm_type *row, int level, uint32_t *col);

/* OrcTypeUtil.convertToOrcType(type, fieldId, depth): `depth` counts from the last ROW, as
 * Java's ids do; `level` is the nesting below the file's root row (a column's type is at
 * level 0), bounded by PM_MAX_NESTING. */
static int add_type(tb *b, const pm_type *t, int32_t id, int depth, int level, uint32_t *col)
{
    pm_orc_kind kind;
    int rc;
    if (level > PM_MAX_NESTING)
        return PAIMON_ELIMIT;
    switch (t->id) {
    case PM_TYPE_BOOLEAN: kind = PM_ORC_BOOLEAN; break;
    case PM_TYPE_TINYINT: kind = PM_ORC_BYTE; break;
    case PM_TYPE_SMALLINT: kind = PM_ORC_SHORT; break;
    case PM_TYPE_INT:
    case PM_TYPE_TIME: kind = PM_ORC_INT; break;
    case PM_TYPE_BIGINT: kind = PM_ORC_LONG; break;
    case PM_TYPE_FLOAT: kind = PM_ORC_FLOAT; break;
    case PM_TYPE_DOUBLE: kind = PM_ORC_DOUBLE; break;
    case PM_TYPE_DECIMAL: kind = PM_ORC_DECIMAL; break;
    case PM_TYPE_CHAR: kind = PM_ORC_CHAR; break;
    case PM_TYPE_VARCHAR: kind = t->length == PM_MAX_LENGTH ? PM_ORC_STRING : PM_ORC_VARCHAR; break;
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY: kind = PM_ORC_BINARY; break; /* refineDataType: BYTES */
    case PM_TYPE_DATE: kind = PM_ORC_DATE; break;
    case PM_TYPE_TIMESTAMP: kind = PM_ORC_TIMESTAMP; break;
    case PM_TYPE_TIMESTAMP_LTZ: kind = PM_ORC_TIMESTAMP_INSTANT; break;
    case PM_TYPE_ARRAY: kind = PM_ORC_LIST; break;
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET: kind = PM_ORC_MAP; break;
    case PM_TYPE_ROW:
        if ((rc = add_row(b, t, level + 1, col)) != 0)
            return rc;
        return set_id(b, *col, id);
    default: return PAIMON_EUNSUPPORTED;
    }
    if ((rc = new_type(b, kind, col)) != 0)
        return rc;
    if (kind == PM_ORC_CHAR || kind == PM_ORC_VARCHAR) {
        b->types[*col].max_length = (uint32_t)t->length;
        b->types[*col].has_max_length = true;
    } else if (kind == PM_ORC_DECIMAL) {
        b->types[*col].precision = (uint32_t)t->precision;
        b->types[*col].scale = (uint32_t)t->scale;
        b->types[*col].has_precision = b->types[*col].has_scale = true;
    }
    if ((rc = set_id(b, *col, id)) != 0)
        return rc;
    if (kind == PM_ORC_LIST || kind == PM_ORC_MAP) {
        uint32_t parent = *col, sub[2];
        size_t n = kind == PM_ORC_LIST ? 1 : 2;
        /* MULTISET is MAP<element, INT NOT NULL> (refineDataType) */
        const pm_type *ct[2] = {t->element,
                                t->id == PM_TYPE_MAP ? t->value : &pm_multiset_count_type};
        for (size_t i = 0; i < n; i++) {
            int32_t cid = kind == PM_ORC_MAP && i == 0
                              ? java_int((int64_t)ID_BASE - (int64_t)id * 1024 - (depth + 1))
                              : java_int((int64_t)ID_BASE + (int64_t)id * 1024 + (depth + 1));
            if ((rc = add_type(b, ct[i], id, depth + 1, level + 1, &sub[i])) != 0 ||
                (rc = set_id(b, sub[i], cid)) != 0)
                return rc;
        }
        if ((b->types[parent].subtypes = pm_arena_alloc(b->arena, n * sizeof(uint32_t))) == NULL)
            return PAIMON_ENOMEM;
        memcpy(b->types[parent].subtypes, sub, n * sizeof(uint32_t));
        b->types[parent].subtype_count = n;
    }
    return 0;
}

/* OrcTypeUtil.convertToOrcSchema: a struct of the row's fields (no attribute), at `level`. */
static int add_row(tb *b, const pm_type *row, int level, uint32_t *col)
{
    uint32_t me, *subs;
    char **names;
    int rc;
    if ((rc = new_type(b, PM_ORC_STRUCT, &me)) != 0)
        return rc;
    subs = pm_arena_calloc(b->arena, row->field_count + 1, sizeof(uint32_t));
    names = pm_arena_calloc(b->arena, row->field_count + 1, sizeof(char *));
    if (subs == NULL || names == NULL)
        return PAIMON_ENOMEM;
    for (size_t i = 0; i < row->field_count; i++) {
        const pm_field *f = &row->fields[i];
        if ((names[i] = pm_arena_strndup(b->arena, f->name, strlen(f->name))) == NULL)
            return PAIMON_ENOMEM;
        if ((rc = add_type(b, f->type, f->id, 0, level, &subs[i])) != 0)
            return rc;
    }
    b->types[me].subtypes = subs;
    b->types[me].subtype_count = row->field_count;
    b->types[me].field_names = names;
    b->types[me].field_name_count = row->field_count;
    *col = me;
    return 0;
}

int pm_orc_schema_of(const pm_type *row_type, pm_arena *arena, pm_orc_type **types, size_t *count,
                     paimon_error *err)
{
    tb b = {NULL, 0, 0, arena};
    uint32_t root;
    int rc;
    if (row_type->id != PM_TYPE_ROW)
        return pm_err_set(err, PAIMON_EINVALID, "ORC files hold rows");
    if ((rc = add_row(&b, row_type, 0, &root)) != 0)
        return rc == PAIMON_EUNSUPPORTED
                   ? pm_err_set(err, rc, "a column type cannot be written to ORC")
               : rc == PAIMON_ELIMIT
                   ? pm_err_set(err, rc, "a column type nests deeper than %d levels",
                                PM_MAX_NESTING)
                   : pm_buf_error(err, rc);
    *types = b.types;
    *count = b.count;
    return 0;
}

/* ---- options --------------------------------------------------------------------------- */

PM_MUST_CHECK static int parse_i64(const char *key, const char *v, int64_t lo, int64_t hi,
                                   int64_t *out, paimon_error *err)
{
    char *end;
    long long x = strtoll(v, &end, 10);
    if (*v == '\0' || *end != '\0' || x < lo || x > hi)
        return pm_err_set(err, PAIMON_EINVALID, "option %s: '%s' is not a valid number", key, v);
    *out = x;
    return 0;
}

/* A memory size as Java's MemorySize reads it (util/units.h), more than 0 bytes. */
PM_MUST_CHECK static int parse_size(const char *key, const char *v, int64_t *out, paimon_error *err)
{
    int64_t x;
    if (pm_parse_memory_size(v, &x) != 0 || x <= 0)
        return pm_err_set(err, PAIMON_EINVALID, "option %s: '%s' is not a memory size", key, v);
    *out = x;
    return 0;
}

PM_MUST_CHECK static int parse_kind(const char *key, const char *v, pm_orc_compression *out,
                                    paimon_error *err)
{
    static const struct {
        const char *name;
        pm_orc_compression kind;
    } KINDS[] = {{"zstd", PM_ORC_ZSTD}, {"snappy", PM_ORC_SNAPPY}, {"lz4", PM_ORC_LZ4},
                 {"zlib", PM_ORC_ZLIB}, {"none", PM_ORC_NONE},     {"lzo", PM_ORC_LZO}};
    for (size_t i = 0; i < sizeof(KINDS) / sizeof(KINDS[0]); i++) {
        if (strcasecmp(v, KINDS[i].name) == 0) {
            *out = KINDS[i].kind;
            return 0;
        }
    }
    return pm_err_set(err, PAIMON_EINVALID, "option %s: '%s' is not an ORC compression kind", key,
                      v);
}

int pm_orc_writer_options_parse(pm_orc_writer_options *o, const char *const *keys,
                                const char *const *values, size_t count, paimon_error *err)
{
    const char *file_comp = NULL, *orc_comp = NULL, *file_level = NULL, *orc_level = NULL;
    int64_t x;
    int rc;
    for (size_t i = 0; i < count; i++) {
        const char *k = keys[i], *v = values[i];
        if (strcmp(k, "file.compression") == 0)
            file_comp = v;
        else if (strcmp(k, "orc.compress") == 0)
            orc_comp = v;
        else if (strcmp(k, "file.compression.zstd-level") == 0)
            file_level = v;
        else if (strcmp(k, "orc.compression.zstd.level") == 0)
            orc_level = v;
        else if (strcmp(k, "file.block-size") == 0 || strcmp(k, "orc.stripe.size") == 0) {
            if ((rc = parse_size(k, v, &x, err)) != 0)
                return rc;
            o->stripe_size = (uint64_t)x;
        } else if (strcmp(k, "orc.row.index.stride") == 0) {
            if ((rc = parse_i64(k, v, 1000, INT32_MAX, &x, err)) != 0)
                return rc;
            o->row_index_stride = (uint32_t)x;
        } else if (strcmp(k, "orc.compress.size") == 0) {
            if ((rc = parse_i64(k, v, 1, (1 << 23) - 1, &x, err)) != 0)
                return rc;
            o->block_size = (size_t)x;
        } else if (strcmp(k, "write-batch-size") == 0) {
            if ((rc = parse_i64(k, v, 1, INT32_MAX, &x, err)) != 0)
                return rc;
            o->batch_rows = x;
        } else if (strcmp(k, "orc.dictionary.key.threshold") == 0) {
            char *end;
            double d = strtod(v, &end);
            if (*v == '\0' || *end != '\0' || d < 0 || d > 1)
                return pm_err_set(err, PAIMON_EINVALID, "option %s: '%s' is not in [0, 1]", k, v);
            /* 0 turns dictionaries off, as in Java */
            o->dictionary_threshold = d == 0 ? -1 : d;
        }
    }
    /* orc.compress wins over the table's file.compression (OrcWriterFactory.create) */
    if (orc_comp != NULL || file_comp != NULL) {
        if ((rc = parse_kind(orc_comp != NULL ? "orc.compress" : "file.compression",
                             orc_comp != NULL ? orc_comp : file_comp, &o->compression, err)) != 0)
            return rc;
        o->compression_set = true;
    }
    if (orc_level != NULL || file_level != NULL) {
        const char *k =
            orc_level != NULL ? "orc.compression.zstd.level" : "file.compression.zstd-level";
        if ((rc = parse_i64(k, orc_level != NULL ? orc_level : file_level, 1, 22, &x, err)) != 0)
            return rc;
        o->level = (int)x;
    }
    return 0;
}

/* ---- batches into column views --------------------------------------------------------- */

struct pm_orc_file_writer {
    pm_orc_writer *w;
    pm_output *out;
    pm_type *type;
    pm_arena arena;   /* the schema */
    pm_arena scratch; /* converted values of the batch being written */
    int64_t rows;
    int64_t batch_rows; /* Paimon's row batch (write-batch-size) */
};

/* The view of column `c`, whose rows [lo, hi) are to be written: values the writer takes in
 * another unit (TIME in milliseconds, timestamps as milliseconds plus nanoseconds) are
 * converted for those rows only, at their own indexes, so a large batch written in chunks
 * costs no more than written at once. */
static int view_of(pm_orc_file_writer *fw, const pm_column *c, int64_t lo, int64_t hi,
                   pm_orc_colview *v, int depth)
{
    memset(v, 0, sizeof(*v));
    if (depth > PM_MAX_NESTING) /* the writer's types were built by add_type() */
        return PAIMON_ELIMIT;
    v->validity = c->validity.len > 0 ? c->validity.data : NULL;
    v->values = c->values.data;
    v->offsets = (const int32_t *)(const void *)c->offsets.data;
    switch (c->type->id) {
    case PM_TYPE_TIME:
        if (c->width == 8) {
            int32_t *ms = pm_arena_alloc(&fw->scratch, (size_t)hi * 4 + 4);
            int64_t div = pm_time_units_per_second(c->type->precision) / 1000;
            if (ms == NULL)
                return PAIMON_ENOMEM;
            for (int64_t i = lo; i < hi; i++) {
                int64_t x;
                memcpy(&x, c->values.data + 8 * i, 8);
                ms[i] = (int32_t)pm_floor_div(x, div);
            }
            v->values = ms;
        }
        break;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: {
        /* the precision's unit into milliseconds and nanoseconds of the millisecond */
        int64_t *ms = pm_arena_alloc(&fw->scratch, (size_t)hi * 8 + 8);
        int32_t *ns = pm_arena_alloc(&fw->scratch, (size_t)hi * 4 + 4);
        int64_t per_s = pm_timestamp_units_per_second(c->type->precision);
        if (ms == NULL || ns == NULL)
            return PAIMON_ENOMEM;
        for (int64_t i = lo; i < hi; i++) {
            int64_t x;
            memcpy(&x, c->values.data + 8 * i, 8);
            if (per_s == 1) {
                ms[i] = x * 1000;
                ns[i] = 0;
            } else if (per_s == 1000) {
                ms[i] = x;
                ns[i] = 0;
            } else {
                int64_t per_ms = per_s / 1000;
                ms[i] = pm_floor_div(x, per_ms);
                ns[i] = (int32_t)(pm_floor_mod(x, per_ms) * (1000000 / per_ms));
            }
        }
        v->values = ms;
        v->nanos = ns;
        break;
    }
    default: break;
    }
    if (c->child_count > 0) {
        pm_orc_colview *ch = pm_arena_calloc(&fw->scratch, c->child_count, sizeof(*ch));
        int64_t clo = lo, chi = hi;
        if (ch == NULL)
            return PAIMON_ENOMEM;
        if (c->layout != PM_LAYOUT_STRUCT) {
            clo = pm_column_offset(c, lo);
            chi = pm_column_offset(c, hi);
        }
        for (size_t i = 0; i < c->child_count; i++) {
            int rc = view_of(fw, c->children[i], clo, chi, &ch[i], depth + 1);
            if (rc != 0)
                return rc;
        }
        v->children = ch;
    }
    return 0;
}

int pm_orc_file_writer_open(pm_orc_file_writer **w, pm_output *out, const pm_type *row_type,
                            const pm_orc_writer_options *o, paimon_error *err)
{
    pm_orc_file_writer *fw = pm_calloc(1, sizeof(*fw));
    pm_orc_writer_options opts;
    pm_orc_type *types;
    size_t count;
    int rc = 0;

    *w = NULL;
    if (fw == NULL) {
        out->abort(out);
        return pm_nomem(err);
    }
    fw->out = out;
    pm_arena_init(&fw->arena, 1 << 12);
    pm_arena_init(&fw->scratch, 1 << 16);
    if ((fw->type = pm_type_clone(row_type)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    PM_TRY(pm_orc_schema_of(row_type, &fw->arena, &types, &count, err));
    memset(&opts, 0, sizeof(opts));
    if (o != NULL)
        opts = *o;
    opts.timezone = "UTC";
    fw->batch_rows = opts.batch_rows > 0 ? opts.batch_rows : 1024;
    PM_TRY(pm_orc_writer_new(&fw->w, types, count, &opts, NULL, out, err));
done:
    if (rc != 0) {
        pm_orc_file_writer_abort(fw);
        return rc;
    }
    *w = fw;
    return 0;
}

int pm_orc_file_writer_write(pm_orc_file_writer *fw, const pm_batch *b, paimon_error *err)
{
    return pm_orc_file_writer_write_range(fw, b, 0, b->row_count, err);
}

int pm_orc_file_writer_write_range(pm_orc_file_writer *fw, const pm_batch *b, int64_t first,
                                   int64_t count, paimon_error *err)
{
    pm_orc_colview root;
    pm_orc_colview *cols;
    int rc = 0;

    if (b->column_count != fw->type->field_count)
        return pm_err_set(err, PAIMON_EINVALID, "ORC writer: a batch of %zu columns for %zu",
                          b->column_count, fw->type->field_count);
    if (first < 0 || count < 0 || first > b->row_count - count)
        return pm_err_set(err, PAIMON_EINVALID, "ORC writer: rows %lld..%lld of a batch of %lld",
                          (long long)first, (long long)(first + count), (long long)b->row_count);
    /* RowDataVectorizer: a null in a NOT NULL field is refused */
    for (size_t i = 0; i < b->column_count; i++) {
        if (fw->type->fields[i].type->nullable || b->columns[i]->null_count == 0)
            continue;
        for (int64_t r = first; r < first + count; r++)
            if (!pm_column_is_valid(b->columns[i], r))
                return pm_err_set(err, PAIMON_EINVALID,
                                  "Field '%s' expected not null but found null value",
                                  fw->type->fields[i].name);
    }
    pm_arena_reset(&fw->scratch);
    if ((cols = pm_arena_calloc(&fw->scratch, b->column_count + 1, sizeof(*cols))) == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < b->column_count && rc == 0; i++)
        rc = view_of(fw, b->columns[i], first, first + count, &cols[i], 0);
    if (rc != 0)
        return pm_buf_error(err, rc);
    memset(&root, 0, sizeof(root));
    root.children = cols;
    if ((rc = pm_orc_writer_write_range(fw->w, &root, first, count, err)) != 0)
        return rc;
    fw->rows += count;
    return 0;
}

int64_t pm_orc_file_writer_rows(const pm_orc_file_writer *w)
{
    return w->rows;
}

uint64_t pm_orc_file_writer_position(const pm_orc_file_writer *w)
{
    return pm_orc_writer_position(w->w);
}

uint64_t pm_orc_file_writer_buffered(const pm_orc_file_writer *w)
{
    return pm_orc_writer_buffered(w->w);
}

int64_t pm_orc_file_writer_batch_rows(const pm_orc_file_writer *w)
{
    return w->batch_rows;
}

int pm_orc_file_writer_close(pm_orc_file_writer *fw, uint64_t *file_size, paimon_error *err)
{
    int rc = pm_orc_writer_close(fw->w, err);
    pm_output *out = fw->out;
    uint64_t size = pm_orc_writer_position(fw->w);
    fw->out = NULL;
    if (rc != 0) {
        out->abort(out);
    } else if ((rc = out->close(out, err)) == 0 && file_size != NULL) {
        *file_size = size;
    }
    pm_orc_file_writer_abort(fw);
    return rc;
}

void pm_orc_file_writer_abort(pm_orc_file_writer *fw)
{
    if (fw == NULL)
        return;
    if (fw->out != NULL)
        fw->out->abort(fw->out);
    pm_orc_writer_free(fw->w);
    pm_type_free(fw->type);
    pm_arena_free(&fw->arena);
    pm_arena_free(&fw->scratch);
    pm_free(fw);
}
