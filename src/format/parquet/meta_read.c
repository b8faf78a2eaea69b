/*
 * Decoding of the parquet.thrift structs (see meta.h for the field numbers' source).  Each
 * reader loops over field headers, decodes the fields it knows when their wire type is the
 * expected one, and skips everything else.  Lists are allocated in the arena only after
 * pm_thrift_list() has bounded their count by the remaining bytes.
 */
#include "format/parquet/meta.h"

#include <string.h>

#define FIELD_LOOP_BEGIN                                                                           \
    int16_t last_ = 0, id;                                                                         \
    int t;                                                                                         \
    int rc;                                                                                        \
    bool ok = false;                                                                               \
    if ((rc = pm_thrift_struct_begin(r)) != 0)                                                     \
        return rc;                                                                                 \
    for (;;) {                                                                                     \
        if ((rc = pm_thrift_field(r, &last_, &t, &id)) != 0 || t == PM_TT_STOP)                    \
            break;                                                                                 \
        switch (id) {

#define FIELD_LOOP_END                                                                             \
    default: rc = pm_thrift_skip(r, t); break;                                                     \
        }                                                                                          \
        if (rc != 0)                                                                               \
            break;                                                                                 \
        }                                                                                          \
        pm_thrift_struct_end(r);                                                                   \
        (void)ok;

/* Reads a struct-typed field with `fn`, or skips the value when the wire type differs. */
#define STRUCT_FIELD(call, flag)                                                                   \
    if (t != PM_TT_STRUCT) {                                                                       \
        rc = pm_thrift_skip(r, t);                                                                 \
    } else {                                                                                       \
        rc = (call);                                                                               \
        if (rc == 0)                                                                               \
            flag;                                                                                  \
    }

static int skip_elems(pm_thrift_reader *r, int et, uint32_t n)
{
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < n; i++) {
        bool b;
        rc = (et == PM_TT_TRUE || et == PM_TT_FALSE) ? pm_thrift_bool_elem(r, &b)
                                                     : pm_thrift_skip(r, et);
    }
    return rc;
}

/* A list header whose elements must have type `want`; a list of another type is skipped
 * and reported as absent (*n = 0, *ok false). */
static int list_of(pm_thrift_reader *r, int t, int want, uint32_t *n, bool *ok)
{
    int et, rc;
    *n = 0;
    *ok = false;
    if (t != PM_TT_LIST && t != PM_TT_SET)
        return pm_thrift_skip(r, t);
    if ((rc = pm_thrift_list(r, &et, n)) != 0)
        return rc;
    if (et != want && !(want == PM_TT_I32 && (et == PM_TT_I16 || et == PM_TT_I8)) &&
        !(want == PM_TT_TRUE && et == PM_TT_FALSE)) {
        rc = skip_elems(r, et, *n);
        *n = 0;
        return rc;
    }
    *ok = true;
    return 0;
}

static void *arena_array(pm_thrift_reader *r, pm_arena *a, uint32_t n, size_t size, int *rc)
{
    void *p = pm_arena_calloc(a, n == 0 ? 1 : n, size);
    if (p == NULL)
        *rc = pm_nomem(r->err);
    return p;
}

static const char *arena_str(pm_thrift_reader *r, pm_arena *a, const uint8_t *s, uint32_t n,
                             int *rc)
{
    char *p = pm_arena_strndup(a, (const char *)s, n);
    if (p == NULL)
        *rc = pm_nomem(r->err);
    return p;
}

/* ---- Statistics ------------------------------------------------------------------------ */

static int read_bytes_field(pm_thrift_reader *r, int t, pq_bytes *b, bool *has)
{
    bool ok;
    int rc = pm_thrift_read_binary(r, t, &b->ptr, &b->len, &ok);
    if (rc == 0 && ok)
        *has = true;
    return rc;
}

static int read_stats(pm_thrift_reader *r, pq_stats *s)
{
    memset(s, 0, sizeof(*s));
    FIELD_LOOP_BEGIN
case 1: rc = read_bytes_field(r, t, &s->max, &s->has_max); break;
case 2: rc = read_bytes_field(r, t, &s->min, &s->has_min); break;
case 3:
    rc = pm_thrift_read_i64(r, t, &s->null_count, &ok);
    s->has_null_count = ok;
    break;
case 4:
    rc = pm_thrift_read_i64(r, t, &s->distinct_count, &ok);
    s->has_distinct_count = ok;
    break;
case 5: rc = read_bytes_field(r, t, &s->max_value, &s->has_max_value); break;
case 6: rc = read_bytes_field(r, t, &s->min_value, &s->has_min_value); break;
case 7:
    if (pm_thrift_is_bool(t)) {
        s->has_max_exact = true;
        s->is_max_exact = t == PM_TT_TRUE;
    } else {
        rc = pm_thrift_skip(r, t);
    }
    break;
case 8:
    if (pm_thrift_is_bool(t)) {
        s->has_min_exact = true;
        s->is_min_exact = t == PM_TT_TRUE;
    } else {
        rc = pm_thrift_skip(r, t);
    }
    break;
case 9:
    rc = pm_thrift_read_i64(r, t, &s->nan_count, &ok);
    s->has_nan_count = ok;
    break;
    FIELD_LOOP_END
    return rc;
}

/* ---- LogicalType ----------------------------------------------------------------------- */

static int read_unit(pm_thrift_reader *r, int *unit)
{
    *unit = PQ_UNIT_NONE;
    FIELD_LOOP_BEGIN
case 1:
case 2:
case 3:
    if (t == PM_TT_STRUCT) {
        rc = pm_thrift_skip(r, t);
        *unit = id; /* MILLIS = 1, MICROS = 2, NANOS = 3 */
    } else {
        rc = pm_thrift_skip(r, t);
    }
    break;
    FIELD_LOOP_END
    return rc;
}

/* TimeType and TimestampType share their shape. */
static int read_time_like(pm_thrift_reader *r, pq_logical *l)
{
    FIELD_LOOP_BEGIN
case 1:
    if (pm_thrift_is_bool(t))
        l->utc = t == PM_TT_TRUE;
    else
        rc = pm_thrift_skip(r, t);
    break;
case 2:
    STRUCT_FIELD(read_unit(r, &l->unit), (void)0);
    break;
    FIELD_LOOP_END
    return rc;
}

static int read_decimal_type(pm_thrift_reader *r, pq_logical *l)
{
    FIELD_LOOP_BEGIN
case 1: rc = pm_thrift_read_i32(r, t, &l->scale, &ok); break;
case 2:
    rc = pm_thrift_read_i32(r, t, &l->precision, &ok);
    break;
    FIELD_LOOP_END
    return rc;
}

static int read_int_type(pm_thrift_reader *r, pq_logical *l)
{
    FIELD_LOOP_BEGIN
case 1: {
    int32_t v = 0;
    rc = pm_thrift_read_i32(r, t, &v, &ok);
    l->bit_width = v;
    break;
}
case 2:
    if (pm_thrift_is_bool(t))
        l->is_signed = t == PM_TT_TRUE;
    else
        rc = pm_thrift_skip(r, t);
    break;
    FIELD_LOOP_END
    return rc;
}

static int read_logical(pm_thrift_reader *r, pq_logical *l)
{
    memset(l, 0, sizeof(*l));
    FIELD_LOOP_BEGIN
case 5: STRUCT_FIELD(read_decimal_type(r, l), l->kind = PQ_LT_DECIMAL); break;
case 7: STRUCT_FIELD(read_time_like(r, l), l->kind = PQ_LT_TIME); break;
case 8: STRUCT_FIELD(read_time_like(r, l), l->kind = PQ_LT_TIMESTAMP); break;
case 10: STRUCT_FIELD(read_int_type(r, l), l->kind = PQ_LT_INTEGER); break;
case 1:
case 2:
case 3:
case 4:
case 6:
case 11:
case 12:
case 13:
case 14:
case 15:
case 16:
case 17:
case 18:
    rc = pm_thrift_skip(r, t);
    if (rc == 0 && t == PM_TT_STRUCT)
        l->kind = id;
    break;
default:
    rc = pm_thrift_skip(r, t);
    if (rc == 0 && t == PM_TT_STRUCT)
        l->kind = PQ_LT_OTHER;
    break;
}
if (rc != 0)
    break;
}
pm_thrift_struct_end(r);
(void)ok;
return rc;
}

/* ---- SchemaElement --------------------------------------------------------------------- */

static int read_schema_elem(pm_thrift_reader *r, pm_arena *a, pq_schema_elem *e)
{
    const uint8_t *name = NULL;
    uint32_t name_len = 0;
    bool has_name = false;
    memset(e, 0, sizeof(*e));
    e->converted = PQ_CT_NONE;
    {
        FIELD_LOOP_BEGIN
    case 1:
        rc = pm_thrift_read_i32(r, t, &e->type, &ok);
        e->has_type = ok;
        break;
    case 2: rc = pm_thrift_read_i32(r, t, &e->type_length, &ok); break;
    case 3:
        rc = pm_thrift_read_i32(r, t, &e->repetition, &ok);
        e->has_repetition = ok;
        break;
    case 4: rc = pm_thrift_read_binary(r, t, &name, &name_len, &has_name); break;
    case 5: rc = pm_thrift_read_i32(r, t, &e->num_children, &ok); break;
    case 6: rc = pm_thrift_read_i32(r, t, &e->converted, &ok); break;
    case 7:
        rc = pm_thrift_read_i32(r, t, &e->scale, &ok);
        e->has_scale = ok;
        break;
    case 8:
        rc = pm_thrift_read_i32(r, t, &e->precision, &ok);
        e->has_precision = ok;
        break;
    case 9:
        rc = pm_thrift_read_i32(r, t, &e->field_id, &ok);
        e->has_field_id = ok;
        break;
    case 10:
        STRUCT_FIELD(read_logical(r, &e->logical), (void)0);
        break;
        FIELD_LOOP_END
        if (rc != 0)
            return rc;
    }
    if (!has_name)
        return pm_thrift_corrupt(r, "schema element without a name");
    {
        int rc = 0;
        e->name = arena_str(r, a, name, name_len, &rc);
        return rc;
    }
}

/* ---- ColumnMetaData, ColumnChunk, RowGroup --------------------------------------------- */

static int read_kv(pm_thrift_reader *r, pm_arena *a, pq_kv *kv)
{
    const uint8_t *k = NULL, *v = NULL;
    uint32_t kl = 0, vl = 0;
    bool has_k = false, has_v = false;
    {
        FIELD_LOOP_BEGIN
    case 1: rc = pm_thrift_read_binary(r, t, &k, &kl, &has_k); break;
    case 2:
        rc = pm_thrift_read_binary(r, t, &v, &vl, &has_v);
        break;
        FIELD_LOOP_END
        if (rc != 0)
            return rc;
    }
    {
        int rc = 0;
        kv->key = arena_str(r, a, has_k ? k : (const uint8_t *)"", has_k ? kl : 0, &rc);
        kv->value = has_v && rc == 0 ? arena_str(r, a, v, vl, &rc) : NULL;
        return rc;
    }
}

static int read_kv_list(pm_thrift_reader *r, pm_arena *a, int t, pq_kv **out, uint32_t *count)
{
    uint32_t n;
    bool ok;
    int rc = list_of(r, t, PM_TT_STRUCT, &n, &ok);
    if (rc != 0 || !ok)
        return rc;
    if ((*out = arena_array(r, a, n, sizeof(pq_kv), &rc)) == NULL)
        return rc;
    for (uint32_t i = 0; rc == 0 && i < n; i++)
        rc = read_kv(r, a, &(*out)[i]);
    *count = n;
    return rc;
}

static int read_column_meta(pm_thrift_reader *r, pm_arena *a, pq_column_meta *m)
{
    memset(m, 0, sizeof(*m));
    m->type = -1;
    FIELD_LOOP_BEGIN
case 1: rc = pm_thrift_read_i32(r, t, &m->type, &ok); break;
case 2: {
    uint32_t n;
    rc = list_of(r, t, PM_TT_I32, &n, &ok);
    if (rc == 0 && ok && (m->encodings = arena_array(r, a, n, sizeof(int32_t), &rc)) != NULL) {
        for (uint32_t i = 0; rc == 0 && i < n; i++)
            rc = pm_thrift_i32(r, &m->encodings[i]);
        m->encoding_count = n;
    }
    break;
}
case 3: {
    uint32_t n;
    rc = list_of(r, t, PM_TT_BINARY, &n, &ok);
    if (rc == 0 && ok && (m->path = arena_array(r, a, n, sizeof(char *), &rc)) != NULL) {
        for (uint32_t i = 0; rc == 0 && i < n; i++) {
            const uint8_t *s;
            uint32_t l;
            if ((rc = pm_thrift_binary(r, &s, &l)) == 0)
                m->path[i] = arena_str(r, a, s, l, &rc);
        }
        m->path_len = n;
    }
    break;
}
case 4: rc = pm_thrift_read_i32(r, t, &m->codec, &ok); break;
case 5: rc = pm_thrift_read_i64(r, t, &m->num_values, &ok); break;
case 6: rc = pm_thrift_read_i64(r, t, &m->total_uncompressed_size, &ok); break;
case 7: rc = pm_thrift_read_i64(r, t, &m->total_compressed_size, &ok); break;
case 9: rc = pm_thrift_read_i64(r, t, &m->data_page_offset, &ok); break;
case 10:
    rc = pm_thrift_read_i64(r, t, &m->index_page_offset, &ok);
    m->has_index_page_offset = ok;
    break;
case 11:
    rc = pm_thrift_read_i64(r, t, &m->dictionary_page_offset, &ok);
    m->has_dictionary_page_offset = ok;
    break;
case 12: STRUCT_FIELD(read_stats(r, &m->stats), m->has_stats = true); break;
case 14:
    rc = pm_thrift_read_i64(r, t, &m->bloom_filter_offset, &ok);
    m->has_bloom = ok;
    break;
case 15:
    rc = pm_thrift_read_i32(r, t, &m->bloom_filter_length, &ok);
    break;
    FIELD_LOOP_END
    return rc;
}

static int read_column_chunk(pm_thrift_reader *r, pm_arena *a, pq_column_chunk *c)
{
    memset(c, 0, sizeof(*c));
    FIELD_LOOP_BEGIN
case 1: {
    const uint8_t *s;
    uint32_t l;
    rc = pm_thrift_read_binary(r, t, &s, &l, &ok);
    if (rc == 0 && ok)
        c->file_path = arena_str(r, a, s, l, &rc);
    break;
}
case 2: rc = pm_thrift_read_i64(r, t, &c->file_offset, &ok); break;
case 3: STRUCT_FIELD(read_column_meta(r, a, &c->meta), c->has_meta = true); break;
case 4:
    rc = pm_thrift_read_i64(r, t, &c->offset_index_offset, &ok);
    c->has_offset_index = ok;
    break;
case 5: rc = pm_thrift_read_i32(r, t, &c->offset_index_length, &ok); break;
case 6:
    rc = pm_thrift_read_i64(r, t, &c->column_index_offset, &ok);
    c->has_column_index = ok;
    break;
case 7: rc = pm_thrift_read_i32(r, t, &c->column_index_length, &ok); break;
case 8:
case 9:
    c->encrypted = true;
    rc = pm_thrift_skip(r, t);
    break;
    FIELD_LOOP_END
    return rc;
}

static int read_row_group(pm_thrift_reader *r, pm_arena *a, pq_row_group *g)
{
    memset(g, 0, sizeof(*g));
    FIELD_LOOP_BEGIN
case 1: {
    uint32_t n;
    rc = list_of(r, t, PM_TT_STRUCT, &n, &ok);
    if (rc == 0 && ok &&
        (g->columns = arena_array(r, a, n, sizeof(pq_column_chunk), &rc)) != NULL) {
        for (uint32_t i = 0; rc == 0 && i < n; i++)
            rc = read_column_chunk(r, a, &g->columns[i]);
        g->column_count = n;
    }
    break;
}
case 2: rc = pm_thrift_read_i64(r, t, &g->total_byte_size, &ok); break;
case 3: rc = pm_thrift_read_i64(r, t, &g->num_rows, &ok); break;
case 5:
    rc = pm_thrift_read_i64(r, t, &g->file_offset, &ok);
    g->has_file_offset = ok;
    break;
case 6:
    rc = pm_thrift_read_i64(r, t, &g->total_compressed_size, &ok);
    g->has_total_compressed_size = ok;
    break;
case 7: {
    int32_t v = 0;
    rc = pm_thrift_read_i32(r, t, &v, &ok);
    g->has_ordinal = ok;
    g->ordinal = (int16_t)v;
    break;
}
    FIELD_LOOP_END
    return rc;
}

/* ---- FileMetaData ---------------------------------------------------------------------- */

int pm_pq_read_file_meta(pm_thrift_reader *r, pm_arena *a, pq_file_meta *m)
{
    bool has_schema = false, has_groups = false, has_rows = false;
    memset(m, 0, sizeof(*m));
    {
        FIELD_LOOP_BEGIN
    case 1: rc = pm_thrift_read_i32(r, t, &m->version, &ok); break;
    case 2: {
        uint32_t n;
        rc = list_of(r, t, PM_TT_STRUCT, &n, &ok);
        if (rc == 0 && ok &&
            (m->schema = arena_array(r, a, n, sizeof(pq_schema_elem), &rc)) != NULL) {
            for (uint32_t i = 0; rc == 0 && i < n; i++)
                rc = read_schema_elem(r, a, &m->schema[i]);
            m->schema_count = n;
            has_schema = true;
        }
        break;
    }
    case 3:
        rc = pm_thrift_read_i64(r, t, &m->num_rows, &ok);
        has_rows = ok;
        break;
    case 4: {
        uint32_t n;
        rc = list_of(r, t, PM_TT_STRUCT, &n, &ok);
        if (rc == 0 && ok &&
            (m->row_groups = arena_array(r, a, n, sizeof(pq_row_group), &rc)) != NULL) {
            for (uint32_t i = 0; rc == 0 && i < n; i++)
                rc = read_row_group(r, a, &m->row_groups[i]);
            m->row_group_count = n;
            has_groups = true;
        }
        break;
    }
    case 5: rc = read_kv_list(r, a, t, &m->kv, &m->kv_count); break;
    case 6: {
        const uint8_t *s;
        uint32_t l;
        rc = pm_thrift_read_binary(r, t, &s, &l, &ok);
        if (rc == 0 && ok)
            m->created_by = arena_str(r, a, s, l, &rc);
        break;
    }
    case 7: {
        uint32_t n;
        rc = list_of(r, t, PM_TT_STRUCT, &n, &ok);
        if (rc == 0 && ok) {
            rc = skip_elems(r, PM_TT_STRUCT, n);
            m->column_order_count = n;
        }
        break;
    }
    case 8:
        m->encrypted = true;
        rc = pm_thrift_skip(r, t);
        break;
        FIELD_LOOP_END
        if (rc != 0)
            return rc;
    }
    if (!has_schema || !has_groups || !has_rows)
        return pm_thrift_corrupt(r, "FileMetaData lacks its schema, row groups or row count");
    return 0;
}

/* ---- PageHeader ------------------------------------------------------------------------ */

static int read_data_page_header(pm_thrift_reader *r, pq_page_header *h)
{
    FIELD_LOOP_BEGIN
case 1: rc = pm_thrift_read_i32(r, t, &h->num_values, &ok); break;
case 2: rc = pm_thrift_read_i32(r, t, &h->encoding, &ok); break;
case 3: rc = pm_thrift_read_i32(r, t, &h->def_encoding, &ok); break;
case 4: rc = pm_thrift_read_i32(r, t, &h->rep_encoding, &ok); break;
case 5:
    STRUCT_FIELD(read_stats(r, &h->stats), h->has_stats = true);
    break;
    FIELD_LOOP_END
    return rc;
}

static int read_dict_page_header(pm_thrift_reader *r, pq_page_header *h)
{
    FIELD_LOOP_BEGIN
case 1: rc = pm_thrift_read_i32(r, t, &h->dict_num_values, &ok); break;
case 2: rc = pm_thrift_read_i32(r, t, &h->dict_encoding, &ok); break;
case 3:
    if (pm_thrift_is_bool(t))
        h->dict_is_sorted = t == PM_TT_TRUE;
    else
        rc = pm_thrift_skip(r, t);
    break;
    FIELD_LOOP_END
    return rc;
}

static int read_v2_page_header(pm_thrift_reader *r, pq_page_header *h)
{
    FIELD_LOOP_BEGIN
case 1: rc = pm_thrift_read_i32(r, t, &h->num_values, &ok); break;
case 2: rc = pm_thrift_read_i32(r, t, &h->num_nulls, &ok); break;
case 3: rc = pm_thrift_read_i32(r, t, &h->num_rows, &ok); break;
case 4: rc = pm_thrift_read_i32(r, t, &h->encoding, &ok); break;
case 5: rc = pm_thrift_read_i32(r, t, &h->def_len, &ok); break;
case 6: rc = pm_thrift_read_i32(r, t, &h->rep_len, &ok); break;
case 7:
    if (pm_thrift_is_bool(t))
        h->is_compressed = t == PM_TT_TRUE;
    else
        rc = pm_thrift_skip(r, t);
    break;
case 8:
    STRUCT_FIELD(read_stats(r, &h->stats), h->has_stats = true);
    break;
    FIELD_LOOP_END
    return rc;
}

int pm_pq_read_page_header(pm_thrift_reader *r, pq_page_header *h)
{
    bool has_type = false, has_u = false, has_c = false;
    memset(h, 0, sizeof(*h));
    h->is_compressed = true;
    h->encoding = PQ_PLAIN;
    h->def_encoding = PQ_RLE;
    h->rep_encoding = PQ_RLE;
    {
        FIELD_LOOP_BEGIN
    case 1:
        rc = pm_thrift_read_i32(r, t, &h->type, &ok);
        has_type = ok;
        break;
    case 2:
        rc = pm_thrift_read_i32(r, t, &h->uncompressed_size, &ok);
        has_u = ok;
        break;
    case 3:
        rc = pm_thrift_read_i32(r, t, &h->compressed_size, &ok);
        has_c = ok;
        break;
    case 4:
        rc = pm_thrift_read_i32(r, t, &h->crc, &ok);
        h->has_crc = ok;
        break;
    case 5: STRUCT_FIELD(read_data_page_header(r, h), h->has_data = true); break;
    case 7: STRUCT_FIELD(read_dict_page_header(r, h), h->has_dict = true); break;
    case 8:
        STRUCT_FIELD(read_v2_page_header(r, h), h->has_v2 = true);
        break;
        FIELD_LOOP_END
        if (rc != 0)
            return rc;
    }
    if (!has_type || !has_u || !has_c)
        return pm_thrift_corrupt(r, "page header lacks its type or sizes");
    if (h->uncompressed_size < 0 || h->compressed_size < 0)
        return pm_thrift_corrupt(r, "negative page size");
    return 0;
}

/* ---- ColumnIndex, OffsetIndex ---------------------------------------------------------- */

static int read_bytes_list(pm_thrift_reader *r, pm_arena *a, int t, pq_bytes **out, uint32_t *n)
{
    bool ok;
    int rc = list_of(r, t, PM_TT_BINARY, n, &ok);
    if (rc != 0 || !ok)
        return rc;
    if ((*out = arena_array(r, a, *n, sizeof(pq_bytes), &rc)) == NULL)
        return rc;
    for (uint32_t i = 0; rc == 0 && i < *n; i++)
        rc = pm_thrift_binary(r, &(*out)[i].ptr, &(*out)[i].len);
    return rc;
}

int pm_pq_read_column_index(pm_thrift_reader *r, pm_arena *a, pq_column_index *ci)
{
    uint32_t n_null = 0, n_min = 0, n_max = 0, n_counts = 0;
    memset(ci, 0, sizeof(*ci));
    {
        FIELD_LOOP_BEGIN
    case 1:
        rc = list_of(r, t, PM_TT_TRUE, &n_null, &ok);
        if (rc == 0 && ok &&
            (ci->null_pages = arena_array(r, a, n_null, sizeof(bool), &rc)) != NULL)
            for (uint32_t i = 0; rc == 0 && i < n_null; i++)
                rc = pm_thrift_bool_elem(r, &ci->null_pages[i]);
        break;
    case 2: rc = read_bytes_list(r, a, t, &ci->min_values, &n_min); break;
    case 3: rc = read_bytes_list(r, a, t, &ci->max_values, &n_max); break;
    case 4: rc = pm_thrift_read_i32(r, t, &ci->boundary_order, &ok); break;
    case 5:
        rc = list_of(r, t, PM_TT_I64, &n_counts, &ok);
        if (rc == 0 && ok &&
            (ci->null_counts = arena_array(r, a, n_counts, sizeof(int64_t), &rc)) != NULL)
            for (uint32_t i = 0; rc == 0 && i < n_counts; i++)
                rc = pm_thrift_i64(r, &ci->null_counts[i]);
        break;
        FIELD_LOOP_END
        if (rc != 0)
            return rc;
    }
    if (ci->null_pages == NULL || ci->min_values == NULL || ci->max_values == NULL ||
        n_null != n_min || n_min != n_max || (ci->null_counts != NULL && n_counts != n_null))
        return pm_thrift_corrupt(r, "column index lists disagree");
    ci->page_count = n_null;
    return 0;
}

static int read_page_location(pm_thrift_reader *r, pq_page_location *l)
{
    FIELD_LOOP_BEGIN
case 1: rc = pm_thrift_read_i64(r, t, &l->offset, &ok); break;
case 2: rc = pm_thrift_read_i32(r, t, &l->compressed_size, &ok); break;
case 3:
    rc = pm_thrift_read_i64(r, t, &l->first_row, &ok);
    break;
    FIELD_LOOP_END
    return rc;
}

int pm_pq_read_offset_index(pm_thrift_reader *r, pm_arena *a, pq_offset_index *oi)
{
    bool seen = false;
    memset(oi, 0, sizeof(*oi));
    {
        FIELD_LOOP_BEGIN
    case 1: {
        uint32_t n;
        rc = list_of(r, t, PM_TT_STRUCT, &n, &ok);
        if (rc == 0 && ok &&
            (oi->pages = arena_array(r, a, n, sizeof(pq_page_location), &rc)) != NULL) {
            for (uint32_t i = 0; rc == 0 && i < n; i++)
                rc = read_page_location(r, &oi->pages[i]);
            oi->page_count = n;
            seen = true;
        }
        break;
    }
        FIELD_LOOP_END
        if (rc != 0)
            return rc;
    }
    if (!seen)
        return pm_thrift_corrupt(r, "offset index without page locations");
    return 0;
}

/* ---- names ----------------------------------------------------------------------------- */

const char *pm_pq_type_name(int type)
{
    static const char *const names[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                        "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
    return type >= 0 && type <= 7 ? names[type] : "UNKNOWN";
}

const char *pm_pq_encoding_name(int e)
{
    switch (e) {
    case PQ_PLAIN: return "PLAIN";
    case 1: return "GROUP_VAR_INT";
    case PQ_PLAIN_DICTIONARY: return "PLAIN_DICTIONARY";
    case PQ_RLE: return "RLE";
    case PQ_BIT_PACKED: return "BIT_PACKED";
    case PQ_DELTA_BINARY_PACKED: return "DELTA_BINARY_PACKED";
    case PQ_DELTA_LENGTH_BYTE_ARRAY: return "DELTA_LENGTH_BYTE_ARRAY";
    case PQ_DELTA_BYTE_ARRAY: return "DELTA_BYTE_ARRAY";
    case PQ_RLE_DICTIONARY: return "RLE_DICTIONARY";
    case PQ_BYTE_STREAM_SPLIT: return "BYTE_STREAM_SPLIT";
    default: return "UNKNOWN";
    }
}

const char *pm_pq_codec_name(int c)
{
    static const char *const names[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO",
                                        "BROTLI",       "LZ4",    "ZSTD", "LZ4_RAW"};
    return c >= 0 && c <= 7 ? names[c] : "UNKNOWN";
}

const char *pm_pq_converted_name(int c)
{
    static const char *const names[] = {"UTF8",
                                        "MAP",
                                        "MAP_KEY_VALUE",
                                        "LIST",
                                        "ENUM",
                                        "DECIMAL",
                                        "DATE",
                                        "TIME_MILLIS",
                                        "TIME_MICROS",
                                        "TIMESTAMP_MILLIS",
                                        "TIMESTAMP_MICROS",
                                        "UINT_8",
                                        "UINT_16",
                                        "UINT_32",
                                        "UINT_64",
                                        "INT_8",
                                        "INT_16",
                                        "INT_32",
                                        "INT_64",
                                        "JSON",
                                        "BSON",
                                        "INTERVAL"};
    return c >= 0 && c <= 21 ? names[c] : "NONE";
}
