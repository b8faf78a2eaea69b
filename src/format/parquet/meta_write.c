/*
 * Encoding of the parquet.thrift structs the writer emits.  Fields are written in id order,
 * optional ones only when set, as parquet-java does.
 */
#include "format/parquet/meta.h"

static void write_stats(pm_thrift_writer *w, int16_t id, const pq_stats *s)
{
    pm_thrift_w_field(w, PM_TT_STRUCT, id);
    pm_thrift_w_struct_begin(w);
    if (s->has_max)
        pm_thrift_w_field_binary(w, 1, s->max.ptr, s->max.len);
    if (s->has_min)
        pm_thrift_w_field_binary(w, 2, s->min.ptr, s->min.len);
    if (s->has_null_count)
        pm_thrift_w_field_i64(w, 3, s->null_count);
    if (s->has_distinct_count)
        pm_thrift_w_field_i64(w, 4, s->distinct_count);
    if (s->has_max_value)
        pm_thrift_w_field_binary(w, 5, s->max_value.ptr, s->max_value.len);
    if (s->has_min_value)
        pm_thrift_w_field_binary(w, 6, s->min_value.ptr, s->min_value.len);
    if (s->has_max_exact)
        pm_thrift_w_bool(w, 7, s->is_max_exact);
    if (s->has_min_exact)
        pm_thrift_w_bool(w, 8, s->is_min_exact);
    if (s->has_nan_count)
        pm_thrift_w_field_i64(w, 9, s->nan_count);
    pm_thrift_w_struct_end(w);
}

static void empty_struct_field(pm_thrift_writer *w, int16_t id)
{
    pm_thrift_w_field(w, PM_TT_STRUCT, id);
    pm_thrift_w_struct_begin(w);
    pm_thrift_w_struct_end(w);
}

static void write_logical(pm_thrift_writer *w, const pq_logical *l)
{
    pm_thrift_w_field(w, PM_TT_STRUCT, 10);
    pm_thrift_w_struct_begin(w);
    switch (l->kind) {
    case PQ_LT_DECIMAL:
        pm_thrift_w_field(w, PM_TT_STRUCT, 5);
        pm_thrift_w_struct_begin(w);
        pm_thrift_w_field_i32(w, 1, l->scale);
        pm_thrift_w_field_i32(w, 2, l->precision);
        pm_thrift_w_struct_end(w);
        break;
    case PQ_LT_TIME:
    case PQ_LT_TIMESTAMP:
        pm_thrift_w_field(w, PM_TT_STRUCT, (int16_t)l->kind);
        pm_thrift_w_struct_begin(w);
        pm_thrift_w_bool(w, 1, l->utc);
        pm_thrift_w_field(w, PM_TT_STRUCT, 2);
        pm_thrift_w_struct_begin(w);
        empty_struct_field(w, (int16_t)l->unit);
        pm_thrift_w_struct_end(w);
        pm_thrift_w_struct_end(w);
        break;
    case PQ_LT_INTEGER:
        pm_thrift_w_field(w, PM_TT_STRUCT, 10);
        pm_thrift_w_struct_begin(w);
        pm_thrift_w_field(w, PM_TT_I8, 1);
        {
            uint8_t b = (uint8_t)l->bit_width;
            if (w->rc == 0)
                w->rc = pm_buf_append(w->out, &b, 1);
        }
        pm_thrift_w_bool(w, 2, l->is_signed);
        pm_thrift_w_struct_end(w);
        break;
    default: empty_struct_field(w, (int16_t)l->kind); break;
    }
    pm_thrift_w_struct_end(w);
}

static void write_schema_elem(pm_thrift_writer *w, const pq_schema_elem *e)
{
    pm_thrift_w_struct_begin(w);
    if (e->has_type)
        pm_thrift_w_field_i32(w, 1, e->type);
    if (e->has_type && e->type == PQ_FIXED_LEN_BYTE_ARRAY)
        pm_thrift_w_field_i32(w, 2, e->type_length);
    if (e->has_repetition)
        pm_thrift_w_field_i32(w, 3, e->repetition);
    pm_thrift_w_field_binary(w, 4, e->name, __builtin_strlen(e->name));
    if (!e->has_type)
        pm_thrift_w_field_i32(w, 5, e->num_children);
    if (e->converted != PQ_CT_NONE)
        pm_thrift_w_field_i32(w, 6, e->converted);
    if (e->has_scale)
        pm_thrift_w_field_i32(w, 7, e->scale);
    if (e->has_precision)
        pm_thrift_w_field_i32(w, 8, e->precision);
    if (e->has_field_id)
        pm_thrift_w_field_i32(w, 9, e->field_id);
    if (e->logical.kind != PQ_LT_NONE)
        write_logical(w, &e->logical);
    pm_thrift_w_struct_end(w);
}

static void write_column_meta(pm_thrift_writer *w, const pq_column_meta *m)
{
    pm_thrift_w_field(w, PM_TT_STRUCT, 3);
    pm_thrift_w_struct_begin(w);
    pm_thrift_w_field_i32(w, 1, m->type);
    pm_thrift_w_field(w, PM_TT_LIST, 2);
    pm_thrift_w_list(w, PM_TT_I32, m->encoding_count);
    for (uint32_t i = 0; i < m->encoding_count; i++)
        pm_thrift_w_i32(w, m->encodings[i]);
    pm_thrift_w_field(w, PM_TT_LIST, 3);
    pm_thrift_w_list(w, PM_TT_BINARY, m->path_len);
    for (uint32_t i = 0; i < m->path_len; i++)
        pm_thrift_w_binary(w, m->path[i], __builtin_strlen(m->path[i]));
    pm_thrift_w_field_i32(w, 4, m->codec);
    pm_thrift_w_field_i64(w, 5, m->num_values);
    pm_thrift_w_field_i64(w, 6, m->total_uncompressed_size);
    pm_thrift_w_field_i64(w, 7, m->total_compressed_size);
    pm_thrift_w_field_i64(w, 9, m->data_page_offset);
    if (m->has_dictionary_page_offset)
        pm_thrift_w_field_i64(w, 11, m->dictionary_page_offset);
    if (m->has_stats)
        write_stats(w, 12, &m->stats);
    if (m->enc_stat_count > 0) {
        pm_thrift_w_field(w, PM_TT_LIST, 13);
        pm_thrift_w_list(w, PM_TT_STRUCT, m->enc_stat_count);
        for (uint32_t i = 0; i < m->enc_stat_count; i++) {
            pm_thrift_w_struct_begin(w);
            pm_thrift_w_field_i32(w, 1, m->enc_stats[i].page_type);
            pm_thrift_w_field_i32(w, 2, m->enc_stats[i].encoding);
            pm_thrift_w_field_i32(w, 3, m->enc_stats[i].count);
            pm_thrift_w_struct_end(w);
        }
    }
    pm_thrift_w_struct_end(w);
}

void pm_pq_write_file_meta(pm_thrift_writer *w, const pq_file_meta *m)
{
    pm_thrift_w_struct_begin(w);
    pm_thrift_w_field_i32(w, 1, m->version);
    pm_thrift_w_field(w, PM_TT_LIST, 2);
    pm_thrift_w_list(w, PM_TT_STRUCT, m->schema_count);
    for (uint32_t i = 0; i < m->schema_count; i++)
        write_schema_elem(w, &m->schema[i]);
    pm_thrift_w_field_i64(w, 3, m->num_rows);
    pm_thrift_w_field(w, PM_TT_LIST, 4);
    pm_thrift_w_list(w, PM_TT_STRUCT, m->row_group_count);
    for (uint32_t g = 0; g < m->row_group_count; g++) {
        const pq_row_group *rg = &m->row_groups[g];
        pm_thrift_w_struct_begin(w);
        pm_thrift_w_field(w, PM_TT_LIST, 1);
        pm_thrift_w_list(w, PM_TT_STRUCT, rg->column_count);
        for (uint32_t c = 0; c < rg->column_count; c++) {
            const pq_column_chunk *cc = &rg->columns[c];
            pm_thrift_w_struct_begin(w);
            pm_thrift_w_field_i64(w, 2, cc->file_offset);
            write_column_meta(w, &cc->meta);
            if (cc->has_offset_index) {
                pm_thrift_w_field_i64(w, 4, cc->offset_index_offset);
                pm_thrift_w_field_i32(w, 5, cc->offset_index_length);
            }
            if (cc->has_column_index) {
                pm_thrift_w_field_i64(w, 6, cc->column_index_offset);
                pm_thrift_w_field_i32(w, 7, cc->column_index_length);
            }
            pm_thrift_w_struct_end(w);
        }
        pm_thrift_w_field_i64(w, 2, rg->total_byte_size);
        pm_thrift_w_field_i64(w, 3, rg->num_rows);
        if (rg->has_file_offset)
            pm_thrift_w_field_i64(w, 5, rg->file_offset);
        if (rg->has_total_compressed_size)
            pm_thrift_w_field_i64(w, 6, rg->total_compressed_size);
        if (rg->has_ordinal) {
            pm_thrift_w_field(w, PM_TT_I16, 7);
            pm_thrift_w_i32(w, rg->ordinal);
        }
        pm_thrift_w_struct_end(w);
    }
    if (m->kv_count > 0) {
        pm_thrift_w_field(w, PM_TT_LIST, 5);
        pm_thrift_w_list(w, PM_TT_STRUCT, m->kv_count);
        for (uint32_t i = 0; i < m->kv_count; i++) {
            pm_thrift_w_struct_begin(w);
            pm_thrift_w_field_binary(w, 1, m->kv[i].key, __builtin_strlen(m->kv[i].key));
            if (m->kv[i].value != NULL)
                pm_thrift_w_field_binary(w, 2, m->kv[i].value, __builtin_strlen(m->kv[i].value));
            pm_thrift_w_struct_end(w);
        }
    }
    if (m->created_by != NULL)
        pm_thrift_w_field_binary(w, 6, m->created_by, __builtin_strlen(m->created_by));
    if (m->column_order_count > 0) {
        pm_thrift_w_field(w, PM_TT_LIST, 7);
        pm_thrift_w_list(w, PM_TT_STRUCT, m->column_order_count);
        for (uint32_t i = 0; i < m->column_order_count; i++) {
            pm_thrift_w_struct_begin(w);
            empty_struct_field(w, 1); /* TYPE_ORDER */
            pm_thrift_w_struct_end(w);
        }
    }
    pm_thrift_w_struct_end(w);
}

void pm_pq_write_page_header(pm_thrift_writer *w, const pq_page_header *h)
{
    pm_thrift_w_struct_begin(w);
    pm_thrift_w_field_i32(w, 1, h->type);
    pm_thrift_w_field_i32(w, 2, h->uncompressed_size);
    pm_thrift_w_field_i32(w, 3, h->compressed_size);
    if (h->has_crc)
        pm_thrift_w_field_i32(w, 4, h->crc);
    if (h->has_data) {
        pm_thrift_w_field(w, PM_TT_STRUCT, 5);
        pm_thrift_w_struct_begin(w);
        pm_thrift_w_field_i32(w, 1, h->num_values);
        pm_thrift_w_field_i32(w, 2, h->encoding);
        pm_thrift_w_field_i32(w, 3, h->def_encoding);
        pm_thrift_w_field_i32(w, 4, h->rep_encoding);
        if (h->has_stats)
            write_stats(w, 5, &h->stats);
        pm_thrift_w_struct_end(w);
    }
    if (h->has_dict) {
        pm_thrift_w_field(w, PM_TT_STRUCT, 7);
        pm_thrift_w_struct_begin(w);
        pm_thrift_w_field_i32(w, 1, h->dict_num_values);
        pm_thrift_w_field_i32(w, 2, h->dict_encoding);
        pm_thrift_w_struct_end(w);
    }
    if (h->has_v2) {
        pm_thrift_w_field(w, PM_TT_STRUCT, 8);
        pm_thrift_w_struct_begin(w);
        pm_thrift_w_field_i32(w, 1, h->num_values);
        pm_thrift_w_field_i32(w, 2, h->num_nulls);
        pm_thrift_w_field_i32(w, 3, h->num_rows);
        pm_thrift_w_field_i32(w, 4, h->encoding);
        pm_thrift_w_field_i32(w, 5, h->def_len);
        pm_thrift_w_field_i32(w, 6, h->rep_len);
        if (!h->is_compressed)
            pm_thrift_w_bool(w, 7, false);
        pm_thrift_w_struct_end(w);
    }
    pm_thrift_w_struct_end(w);
}

void pm_pq_write_column_index(pm_thrift_writer *w, const pq_column_index *ci)
{
    pm_thrift_w_struct_begin(w);
    pm_thrift_w_field(w, PM_TT_LIST, 1);
    pm_thrift_w_list(w, PM_TT_TRUE, ci->page_count);
    for (uint32_t i = 0; i < ci->page_count; i++)
        pm_thrift_w_bool_elem(w, ci->null_pages[i]);
    pm_thrift_w_field(w, PM_TT_LIST, 2);
    pm_thrift_w_list(w, PM_TT_BINARY, ci->page_count);
    for (uint32_t i = 0; i < ci->page_count; i++)
        pm_thrift_w_binary(w, ci->min_values[i].ptr, ci->min_values[i].len);
    pm_thrift_w_field(w, PM_TT_LIST, 3);
    pm_thrift_w_list(w, PM_TT_BINARY, ci->page_count);
    for (uint32_t i = 0; i < ci->page_count; i++)
        pm_thrift_w_binary(w, ci->max_values[i].ptr, ci->max_values[i].len);
    pm_thrift_w_field_i32(w, 4, ci->boundary_order);
    if (ci->null_counts != NULL) {
        pm_thrift_w_field(w, PM_TT_LIST, 5);
        pm_thrift_w_list(w, PM_TT_I64, ci->page_count);
        for (uint32_t i = 0; i < ci->page_count; i++)
            pm_thrift_w_i64(w, ci->null_counts[i]);
    }
    pm_thrift_w_struct_end(w);
}

void pm_pq_write_offset_index(pm_thrift_writer *w, const pq_offset_index *oi)
{
    pm_thrift_w_struct_begin(w);
    pm_thrift_w_field(w, PM_TT_LIST, 1);
    pm_thrift_w_list(w, PM_TT_STRUCT, oi->page_count);
    for (uint32_t i = 0; i < oi->page_count; i++) {
        pm_thrift_w_struct_begin(w);
        pm_thrift_w_field_i64(w, 1, oi->pages[i].offset);
        pm_thrift_w_field_i32(w, 2, oi->pages[i].compressed_size);
        pm_thrift_w_field_i64(w, 3, oi->pages[i].first_row);
        pm_thrift_w_struct_end(w);
    }
    pm_thrift_w_struct_end(w);
}
