/*
 * Parquet behind the data-file interface (format/data_file.h), and the text of
 * `paimon file meta` for Parquet files: the file, its schema (the Parquet tree with field
 * ids and annotations, and the Paimon ROW type it reads as), then per row group a table of
 * its column chunks with encodings, codec, sizes, page counts and statistics.
 */
#include <stdio.h>
#include <string.h>

#include "data/canonical.h"
#include "format/data_file.h"
#include "format/parquet/reader.h"
#include "format/parquet/stats.h"
#include "util/alloc.h"

PM_MUST_CHECK static int pq_open(void **impl, pm_input *in, const char *path, paimon_error *err)
{
    return pm_pq_reader_open((pm_pq_reader **)impl, in, path, err);
}

static void pq_close(void *impl)
{
    pm_pq_reader_free(impl);
}

static const pm_type *pq_type(void *impl)
{
    return pm_pq_reader_type(impl);
}

static int64_t pq_rows(void *impl)
{
    return pm_pq_reader_meta(impl)->num_rows;
}

PM_MUST_CHECK static int pq_start(void *impl, const pm_read_options *o, paimon_error *err)
{
    pm_pq_read_options po = {0};
    if (o != NULL) {
        po.read_type = o->read_type;
        po.batch_rows = o->batch_rows;
        po.filter = o->filter;
        po.ranges = o->ranges;
        po.range_count = o->range_count;
        po.pool = o->pool;
    }
    if (po.batch_rows <= 0)
        po.batch_rows =
            pm_batch_default_rows(po.read_type != NULL ? po.read_type : pm_pq_reader_type(impl));
    return pm_pq_reader_start(impl, &po, err);
}

PM_MUST_CHECK static int pq_next(void *impl, pm_batch **out, paimon_error *err)
{
    return pm_pq_reader_next(impl, out, err);
}

/* ---- describe -------------------------------------------------------------------------- */

static const char *repetition_name(const pq_schema_elem *e)
{
    if (!e->has_repetition)
        return "required";
    return e->repetition == PQ_OPTIONAL   ? "optional"
           : e->repetition == PQ_REPEATED ? "repeated"
                                          : "required";
}

static void logical_text(const pq_schema_elem *e, char *buf, size_t cap)
{
    static const char *const units[] = {"", "MILLIS", "MICROS", "NANOS"};
    const pq_logical *l = &e->logical;
    buf[0] = '\0';
    switch (l->kind) {
    case PQ_LT_NONE:
        if (e->converted != PQ_CT_NONE)
            snprintf(buf, cap, "%s", pm_pq_converted_name(e->converted));
        break;
    case PQ_LT_STRING: snprintf(buf, cap, "STRING"); break;
    case PQ_LT_MAP: snprintf(buf, cap, "MAP"); break;
    case PQ_LT_LIST: snprintf(buf, cap, "LIST"); break;
    case PQ_LT_ENUM: snprintf(buf, cap, "ENUM"); break;
    case PQ_LT_DECIMAL:
        snprintf(buf, cap, "DECIMAL(%d,%d)", (int)l->precision, (int)l->scale);
        break;
    case PQ_LT_DATE: snprintf(buf, cap, "DATE"); break;
    case PQ_LT_TIME:
    case PQ_LT_TIMESTAMP:
        snprintf(buf, cap, "%s(%s,%s)", l->kind == PQ_LT_TIME ? "TIME" : "TIMESTAMP",
                 units[l->unit & 3], l->utc ? "true" : "false");
        break;
    case PQ_LT_INTEGER:
        snprintf(buf, cap, "INTEGER(%d,%s)", l->bit_width, l->is_signed ? "true" : "false");
        break;
    case PQ_LT_JSON: snprintf(buf, cap, "JSON"); break;
    case PQ_LT_BSON: snprintf(buf, cap, "BSON"); break;
    case PQ_LT_UUID: snprintf(buf, cap, "UUID"); break;
    case PQ_LT_FLOAT16: snprintf(buf, cap, "FLOAT16"); break;
    default: snprintf(buf, cap, "LOGICAL(%d)", l->kind); break;
    }
}

static int schema_text(const pq_schema *s, int n, int depth, pm_buf *out)
{
    const pq_node *nd = &s->nodes[n];
    const pq_schema_elem *e = nd->elem;
    char logical[64], type[48];
    int rc;
    logical_text(e, logical, sizeof(logical));
    if (nd->leaf >= 0) {
        if (e->type == PQ_FIXED_LEN_BYTE_ARRAY)
            snprintf(type, sizeof(type), "fixed_len_byte_array(%d)", (int)e->type_length);
        else {
            static const char *const lower[] = {"boolean", "int32",  "int64",  "int96",
                                                "float",   "double", "binary", "fixed"};
            snprintf(type, sizeof(type), "%s", lower[e->type & 7]);
        }
    } else {
        snprintf(type, sizeof(type), "group");
    }
    if (n == 0)
        rc = pm_buf_printf(out, "%*smessage %s", depth * 2, "", e->name);
    else
        rc = pm_buf_printf(out, "%*s%s %s %s", depth * 2, "", repetition_name(e), type, e->name);
    if (rc == 0 && logical[0] != '\0')
        rc = pm_buf_printf(out, " (%s)", logical);
    if (rc == 0 && e->has_field_id)
        rc = pm_buf_printf(out, " = %d", (int)e->field_id);
    if (rc != 0)
        return rc;
    if (nd->leaf >= 0)
        return pm_buf_puts(out, ";\n");
    if ((rc = pm_buf_puts(out, " {\n")) != 0)
        return rc;
    for (int i = 0; i < nd->child_count; i++)
        if ((rc = schema_text(s, nd->children[i], depth + 1, out)) != 0)
            return rc;
    return pm_buf_printf(out, "%*s}\n", depth * 2, "");
}

/* A text table: cells appended row by row, printed with padded columns. */
typedef struct text_table {
    char **cells;
    size_t count, cap, columns;
} text_table;

static int tt_add(text_table *t, const char *s)
{
    char *c;
    if (t->count == t->cap) {
        size_t cap = t->cap < 64 ? 64 : t->cap * 2;
        char **g = pm_realloc(t->cells, cap * sizeof(char *));
        if (g == NULL)
            return PAIMON_ENOMEM;
        t->cells = g;
        t->cap = cap;
    }
    if ((c = pm_strdup(s)) == NULL)
        return PAIMON_ENOMEM;
    t->cells[t->count++] = c;
    return 0;
}

static int tt_print(text_table *t, pm_buf *out)
{
    size_t widths[32] = {0};
    int rc = 0;
    for (size_t i = 0; i < t->count; i++) {
        size_t l = strlen(t->cells[i]);
        if (l > widths[i % t->columns])
            widths[i % t->columns] = l;
    }
    for (size_t i = 0; i < t->count && rc == 0; i++) {
        size_t c = i % t->columns;
        bool last = c + 1 == t->columns;
        rc = pm_buf_printf(out, "%s%-*s%s", c == 0 ? "  " : "", last ? 0 : (int)widths[c],
                           t->cells[i], last ? "\n" : "  ");
    }
    return rc;
}

static void tt_free(text_table *t)
{
    for (size_t i = 0; i < t->count; i++)
        pm_free(t->cells[i]);
    pm_free(t->cells);
}

static void bound_text(const pq_plan *p, const pm_datum *d, char *buf, size_t cap)
{
    pm_buf b;
    pm_buf_init(&b, 4096);
    if (pm_canonical_json(&b, p->type, d, NULL) != 0)
        snprintf(buf, cap, "?");
    else if (b.len > 40)
        snprintf(buf, cap, "%.37s...", pm_buf_cstr(&b));
    else
        snprintf(buf, cap, "%s", pm_buf_cstr(&b));
    pm_buf_free(&b);
}

PM_MUST_CHECK static int column_rows(pm_pq_reader *r, uint32_t g, text_table *t, paimon_error *err)
{
    const pq_file_meta *m = pm_pq_reader_meta(r);
    const pq_schema *s = pm_pq_reader_schema(r);
    const pq_row_group *rg = &m->row_groups[g];
    static const char *const head[] = {"column", "type",       "codec",        "encodings",
                                       "values", "compressed", "uncompressed", "pages",
                                       "nulls",  "min",        "max"};
    int rc = 0;
    t->columns = sizeof(head) / sizeof(head[0]);
    for (size_t i = 0; i < t->columns && rc == 0; i++)
        rc = tt_add(t, head[i]);
    for (uint32_t c = 0; c < rg->column_count && rc == 0; c++) {
        const pq_column_meta *cm = &rg->columns[c].meta;
        const pq_column_index *ci;
        const pq_offset_index *oi;
        char path[512] = "", enc[160] = "", num[4][32], nulls[32] = "-", lo[64] = "-", hi[64] = "-",
             pages[32] = "-";
        size_t pl = 0, el = 0;
        pq_plan plan;
        pm_type *vt = NULL;
        for (uint32_t k = 0; k < cm->path_len && pl < sizeof(path) - 1; k++)
            pl += (size_t)snprintf(path + pl, sizeof(path) - pl, "%s%s", k ? "." : "", cm->path[k]);
        for (uint32_t k = 0; k < cm->encoding_count && el < sizeof(enc) - 1; k++)
            el += (size_t)snprintf(enc + el, sizeof(enc) - el, "%s%s", k ? "," : "",
                                   pm_pq_encoding_name(cm->encodings[k]));
        snprintf(num[0], 32, "%lld", (long long)cm->num_values);
        snprintf(num[1], 32, "%lld", (long long)cm->total_compressed_size);
        snprintf(num[2], 32, "%lld", (long long)cm->total_uncompressed_size);
        if ((rc = pm_pq_reader_page_index(r, g, (int)c, &ci, &oi, err)) != 0)
            return rc;
        if (oi != NULL)
            snprintf(pages, sizeof(pages), "%u%s", oi->page_count, ci != NULL ? "+ci" : "");
        if (cm->has_stats && cm->stats.has_null_count)
            snprintf(nulls, sizeof(nulls), "%lld", (long long)cm->stats.null_count);
        if (cm->has_stats && pm_pq_leaf_value_plan(s, (int)c, &plan, &vt, "", NULL) == 0) {
            pm_col_stats st;
            pm_pq_stats_convert(&plan, &s->leaves[c], &cm->stats, &st);
            if (st.has_min_max) {
                bound_text(&plan, &st.min, lo, sizeof(lo));
                bound_text(&plan, &st.max, hi, sizeof(hi));
            }
        }
        pm_type_free(vt);
        if ((rc = tt_add(t, path)) || (rc = tt_add(t, pm_pq_type_name(cm->type))) ||
            (rc = tt_add(t, pm_pq_codec_name(cm->codec))) || (rc = tt_add(t, enc)) ||
            (rc = tt_add(t, num[0])) || (rc = tt_add(t, num[1])) || (rc = tt_add(t, num[2])) ||
            (rc = tt_add(t, pages)) || (rc = tt_add(t, nulls)) || (rc = tt_add(t, lo)) ||
            (rc = tt_add(t, hi)))
            return pm_buf_error(err, rc);
    }
    return rc != 0 ? pm_buf_error(err, rc) : 0;
}

PM_MUST_CHECK static int pq_describe(void *impl, pm_buf *out, paimon_error *err)
{
    pm_pq_reader *r = impl;
    const pq_file_meta *m = pm_pq_reader_meta(r);
    const pq_schema *s = pm_pq_reader_schema(r);
    int rc = 0;

    rc = pm_buf_printf(out, "file: %s\nformat: parquet (version %d)\nsize: %llu bytes\n",
                       pm_pq_reader_path(r), (int)m->version,
                       (unsigned long long)pm_pq_reader_file_size(r));
    if (rc == 0)
        rc = pm_buf_printf(out, "created by: %s\nrows: %lld\nrow groups: %u\n",
                           m->created_by != NULL ? m->created_by : "(unknown)",
                           (long long)m->num_rows, m->row_group_count);
    if (rc == 0 && (rc = pm_buf_puts(out, "type: ")) == 0 &&
        (rc = pm_type_format(pm_pq_reader_type(r), out)) == 0)
        rc = pm_buf_puts(out, "\nschema:\n");
    if (rc == 0)
        rc = schema_text(s, 0, 1, out);
    for (uint32_t i = 0; rc == 0 && i < m->kv_count; i++) {
        const char *v = m->kv[i].value != NULL ? m->kv[i].value : "";
        rc = pm_buf_printf(out, "metadata: %s = %.*s%s\n", m->kv[i].key, 200, v,
                           strlen(v) > 200 ? "..." : "");
    }
    if (rc != 0)
        return pm_buf_error(err, rc);
    for (uint32_t g = 0; g < m->row_group_count; g++) {
        const pq_row_group *rg = &m->row_groups[g];
        text_table t = {0};
        rc = pm_buf_printf(out, "row group %u: %lld rows, %lld bytes (uncompressed)\n", g,
                           (long long)rg->num_rows, (long long)rg->total_byte_size);
        if (rc != 0)
            return pm_buf_error(err, rc);
        rc = column_rows(r, g, &t, err);
        if (rc == 0 && (rc = tt_print(&t, out)) != 0)
            rc = pm_buf_error(err, rc);
        tt_free(&t);
        if (rc != 0)
            return rc;
    }
    return 0;
}

const pm_data_format pm_parquet_format = {
    .name = "parquet",
    .magic = "PAR1",
    .magic_len = 4,
    .open = pq_open,
    .close = pq_close,
    .type = pq_type,
    .row_count = pq_rows,
    .start = pq_start,
    .next = pq_next,
    .describe = pq_describe,
};
