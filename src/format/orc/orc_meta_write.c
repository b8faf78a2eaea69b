/*
 * Encoding the ORC metadata messages: see orc_meta.h.  Fields are written in field-number
 * order, as protobuf-java serializes them, so a message paimon-c writes has the bytes Java's
 * writer would give it for the same values.
 */
#include "format/orc/orc_meta.h"

#include <string.h>

#include "format/orc/orc_proto.h"

#define TRY(x)                                                                                     \
    do {                                                                                           \
        if ((rc = (x)) != 0)                                                                       \
            goto done;                                                                             \
    } while (0)

/* Appends field `field` holding the message in `body`, then empties `body`. */
static int put_sub(pm_buf *out, uint32_t field, pm_buf *body)
{
    int rc = pm_pb_put_bytes(out, field, body->data, body->len);
    pm_buf_reset(body);
    return rc;
}

static int put_opt_bytes(pm_buf *b, uint32_t field, const pm_orc_bytes *v)
{
    return pm_pb_put_bytes(b, field, v->ptr, v->len);
}

int pm_orc_encode_stats(pm_buf *out, const pm_orc_stats *s)
{
    pm_buf sub;
    int rc = 0;
    uint32_t h = s->has;

    pm_buf_init(&sub, 0);
    if (h & PM_OS_VALUES)
        TRY(pm_pb_put_uint(out, 1, s->number_of_values));
    switch (s->kind) {
    case PM_OSK_INT:
        if (h & PM_OS_MIN)
            TRY(pm_pb_put_sint(&sub, 1, s->i_min));
        if (h & PM_OS_MAX)
            TRY(pm_pb_put_sint(&sub, 2, s->i_max));
        if (h & PM_OS_SUM)
            TRY(pm_pb_put_sint(&sub, 3, s->i_sum));
        break;
    case PM_OSK_DOUBLE:
        if (h & PM_OS_MIN)
            TRY(pm_pb_put_double(&sub, 1, s->d_min));
        if (h & PM_OS_MAX)
            TRY(pm_pb_put_double(&sub, 2, s->d_max));
        if (h & PM_OS_SUM)
            TRY(pm_pb_put_double(&sub, 3, s->d_sum));
        break;
    case PM_OSK_STRING:
        if (h & PM_OS_MIN)
            TRY(put_opt_bytes(&sub, 1, &s->s_min));
        if (h & PM_OS_MAX)
            TRY(put_opt_bytes(&sub, 2, &s->s_max));
        if (h & PM_OS_SUM)
            TRY(pm_pb_put_sint(&sub, 3, s->i_sum));
        if (h & PM_OS_LOWER)
            TRY(put_opt_bytes(&sub, 4, &s->s_lower));
        if (h & PM_OS_UPPER)
            TRY(put_opt_bytes(&sub, 5, &s->s_upper));
        break;
    case PM_OSK_BUCKET: TRY(pm_pb_put_packed(&sub, 1, s->buckets, s->bucket_count)); break;
    case PM_OSK_DECIMAL:
        if (h & PM_OS_MIN)
            TRY(put_opt_bytes(&sub, 1, &s->s_min));
        if (h & PM_OS_MAX)
            TRY(put_opt_bytes(&sub, 2, &s->s_max));
        if (h & PM_OS_SUM)
            TRY(put_opt_bytes(&sub, 3, &s->dec_sum));
        break;
    case PM_OSK_DATE:
        if (h & PM_OS_MIN)
            TRY(pm_pb_put_sint(&sub, 1, s->i_min));
        if (h & PM_OS_MAX)
            TRY(pm_pb_put_sint(&sub, 2, s->i_max));
        break;
    case PM_OSK_BINARY:
        if (h & PM_OS_SUM)
            TRY(pm_pb_put_sint(&sub, 1, s->i_sum));
        break;
    case PM_OSK_TIMESTAMP:
        if (h & PM_OS_MIN)
            TRY(pm_pb_put_sint(&sub, 1, s->i_min));
        if (h & PM_OS_MAX)
            TRY(pm_pb_put_sint(&sub, 2, s->i_max));
        if (h & PM_OS_MIN_UTC)
            TRY(pm_pb_put_sint(&sub, 3, s->ts_min_utc));
        if (h & PM_OS_MAX_UTC)
            TRY(pm_pb_put_sint(&sub, 4, s->ts_max_utc));
        /* int32 fields: a negative value is sign-extended to 64 bits */
        if (h & PM_OS_MIN_NANOS)
            TRY(pm_pb_put_uint(&sub, 5, (uint64_t)(int64_t)s->ts_min_nanos));
        if (h & PM_OS_MAX_NANOS)
            TRY(pm_pb_put_uint(&sub, 6, (uint64_t)(int64_t)s->ts_max_nanos));
        break;
    case PM_OSK_COLLECTION:
        if (h & PM_OS_MIN)
            TRY(pm_pb_put_uint(&sub, 1, s->coll_min));
        if (h & PM_OS_MAX)
            TRY(pm_pb_put_uint(&sub, 2, s->coll_max));
        if (h & PM_OS_COLL_TOTAL)
            TRY(pm_pb_put_uint(&sub, 3, s->coll_total));
        break;
    case PM_OSK_NONE: break;
    }
    /* the typed sub-message precedes hasNull (10) and bytesOnDisk (11), except collections */
    if (s->kind != PM_OSK_NONE && s->kind != PM_OSK_COLLECTION)
        TRY(put_sub(out, (uint32_t)s->kind, &sub));
    if (h & PM_OS_HAS_NULL)
        TRY(pm_pb_put_bool(out, 10, s->has_null));
    if (h & PM_OS_BYTES)
        TRY(pm_pb_put_uint(out, 11, s->bytes_on_disk));
    if (s->kind == PM_OSK_COLLECTION)
        TRY(put_sub(out, 12, &sub));
done:
    pm_buf_free(&sub);
    return rc;
}

int pm_orc_encode_postscript(pm_buf *out, const pm_orc_postscript *ps)
{
    int rc = 0;
    TRY(pm_pb_put_uint(out, 1, ps->footer_length));
    TRY(pm_pb_put_uint(out, 2, (uint64_t)ps->compression));
    if (ps->has_compression_block_size)
        TRY(pm_pb_put_uint(out, 3, ps->compression_block_size));
    TRY(pm_pb_put_packed32(out, 4, ps->version, ps->version_count));
    TRY(pm_pb_put_uint(out, 5, ps->metadata_length));
    if (ps->has_writer_version)
        TRY(pm_pb_put_uint(out, 6, ps->writer_version));
    TRY(pm_pb_put_string(out, 8000, "ORC"));
done:
    return rc;
}

static int encode_type(pm_buf *out, const pm_orc_type *t)
{
    pm_buf pair;
    int rc = 0;
    pm_buf_init(&pair, 0);
    TRY(pm_pb_put_uint(out, 1, (uint64_t)t->kind));
    TRY(pm_pb_put_packed32(out, 2, t->subtypes, t->subtype_count));
    for (size_t i = 0; i < t->field_name_count; i++)
        TRY(pm_pb_put_string(out, 3, t->field_names[i]));
    if (t->has_max_length)
        TRY(pm_pb_put_uint(out, 4, t->max_length));
    if (t->has_precision)
        TRY(pm_pb_put_uint(out, 5, t->precision));
    if (t->has_scale)
        TRY(pm_pb_put_uint(out, 6, t->scale));
    for (size_t i = 0; i < t->attr_count; i++) {
        TRY(pm_pb_put_string(&pair, 1, t->attrs[i].key));
        TRY(pm_pb_put_string(&pair, 2, t->attrs[i].value));
        TRY(put_sub(out, 7, &pair));
    }
done:
    pm_buf_free(&pair);
    return rc;
}

int pm_orc_encode_footer(pm_buf *out, const pm_orc_footer *f)
{
    pm_buf sub;
    int rc = 0;
    pm_buf_init(&sub, 0);
    TRY(pm_pb_put_uint(out, 1, f->header_length));
    TRY(pm_pb_put_uint(out, 2, f->content_length));
    for (size_t i = 0; i < f->stripe_count; i++) {
        const pm_orc_stripe_info *s = &f->stripes[i];
        TRY(pm_pb_put_uint(&sub, 1, s->offset));
        TRY(pm_pb_put_uint(&sub, 2, s->index_length));
        TRY(pm_pb_put_uint(&sub, 3, s->data_length));
        TRY(pm_pb_put_uint(&sub, 4, s->footer_length));
        TRY(pm_pb_put_uint(&sub, 5, s->number_of_rows));
        TRY(put_sub(out, 3, &sub));
    }
    for (size_t i = 0; i < f->type_count; i++) {
        TRY(encode_type(&sub, &f->types[i]));
        TRY(put_sub(out, 4, &sub));
    }
    for (size_t i = 0; i < f->metadata_count; i++) {
        TRY(pm_pb_put_string(&sub, 1, f->metadata[i].name));
        TRY(put_opt_bytes(&sub, 2, &f->metadata[i].value));
        TRY(put_sub(out, 5, &sub));
    }
    TRY(pm_pb_put_uint(out, 6, f->number_of_rows));
    for (size_t i = 0; i < f->statistics_count; i++) {
        TRY(pm_orc_encode_stats(&sub, &f->statistics[i]));
        TRY(put_sub(out, 7, &sub));
    }
    TRY(pm_pb_put_uint(out, 8, f->row_index_stride));
    if (f->has_writer)
        TRY(pm_pb_put_uint(out, 9, f->writer));
    if (f->has_calendar)
        TRY(pm_pb_put_uint(out, 11, f->calendar));
    if (f->software_version != NULL)
        TRY(pm_pb_put_string(out, 12, f->software_version));
done:
    pm_buf_free(&sub);
    return rc;
}

int pm_orc_encode_metadata(pm_buf *out, const pm_orc_stripe_stats *stripes, size_t count)
{
    pm_buf col, stripe;
    int rc = 0;
    pm_buf_init(&col, 0);
    pm_buf_init(&stripe, 0);
    for (size_t i = 0; i < count; i++) {
        for (size_t c = 0; c < stripes[i].column_count; c++) {
            TRY(pm_orc_encode_stats(&col, &stripes[i].columns[c]));
            TRY(put_sub(&stripe, 1, &col));
        }
        TRY(put_sub(out, 1, &stripe));
    }
done:
    pm_buf_free(&col);
    pm_buf_free(&stripe);
    return rc;
}

int pm_orc_encode_stripe_footer(pm_buf *out, const pm_orc_stripe_footer *sf)
{
    pm_buf sub;
    int rc = 0;
    pm_buf_init(&sub, 0);
    for (size_t i = 0; i < sf->stream_count; i++) {
        TRY(pm_pb_put_uint(&sub, 1, (uint64_t)sf->streams[i].kind));
        TRY(pm_pb_put_uint(&sub, 2, sf->streams[i].column));
        TRY(pm_pb_put_uint(&sub, 3, sf->streams[i].length));
        TRY(put_sub(out, 1, &sub));
    }
    for (size_t i = 0; i < sf->encoding_count; i++) {
        TRY(pm_pb_put_uint(&sub, 1, (uint64_t)sf->encodings[i].kind));
        if (sf->encodings[i].kind == PM_ORC_DICTIONARY ||
            sf->encodings[i].kind == PM_ORC_DICTIONARY_V2)
            TRY(pm_pb_put_uint(&sub, 2, sf->encodings[i].dictionary_size));
        TRY(put_sub(out, 2, &sub));
    }
    if (sf->writer_timezone != NULL)
        TRY(pm_pb_put_string(out, 3, sf->writer_timezone));
done:
    pm_buf_free(&sub);
    return rc;
}

int pm_orc_encode_row_index(pm_buf *out, const pm_orc_row_index *ri)
{
    pm_buf entry, stats;
    int rc = 0;
    pm_buf_init(&entry, 0);
    pm_buf_init(&stats, 0);
    for (size_t i = 0; i < ri->entry_count; i++) {
        const pm_orc_index_entry *e = &ri->entries[i];
        TRY(pm_pb_put_packed(&entry, 1, e->positions, e->position_count));
        if (e->has_stats) {
            TRY(pm_orc_encode_stats(&stats, &e->stats));
            TRY(put_sub(&entry, 2, &stats));
        }
        TRY(put_sub(out, 1, &entry));
    }
done:
    pm_buf_free(&entry);
    pm_buf_free(&stats);
    return rc;
}
