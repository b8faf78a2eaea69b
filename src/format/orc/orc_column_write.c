/*
 * Column writers of the ORC writer: see orc_colwriter.h.  Each follows its ORC Java 1.9
 * TreeWriter: which streams it has, what it writes for a value, which statistics it keeps,
 * and which stream positions a row-index entry records (ORCv1 specification, "Row Group
 * Index"):
 *
 *   kind                 streams (besides PRESENT)          positions after PRESENT's
 *   struct               -                                  -
 *   boolean              DATA boolean RLE                   DATA (stream, bytes, bits)
 *   tinyint              DATA byte RLE                      DATA (stream, values)
 *   short/int/long/date  DATA signed RLE v2                 DATA (stream, values)
 *   float/double         DATA IEEE 754 little-endian        DATA (stream)
 *   string direct        DATA bytes, LENGTH RLE v2          DATA (stream), LENGTH
 *   string dictionary    DATA ids RLE v2, LENGTH (entries),  DATA (stream, values)
 *                        DICTIONARY_DATA (sorted entries)
 *   binary               DATA bytes, LENGTH RLE v2          DATA (stream), LENGTH
 *   decimal              DATA zigzag varints, SECONDARY     DATA (stream), SECONDARY
 *                        scales (signed RLE v2)
 *   timestamp            DATA seconds since 2015 (signed),  DATA, SECONDARY
 *                        SECONDARY nanos (unsigned)
 *   list/map             LENGTH RLE v2                      LENGTH
 *
 * PRESENT is written for every column and dropped from a stripe (with its positions) when
 * the column has no null there.
 */
#include "format/orc/orc_colwriter.h"

#include <stdlib.h>
#include <string.h>

#include "format/orc/orc_proto.h"
#include "util/alloc.h"
#include "util/time.h"
#include "util/utf8.h"

#define BASE_2015 1420070400LL

static bool is_string(pm_orc_kind k)
{
    return k == PM_ORC_STRING || k == PM_ORC_VARCHAR || k == PM_ORC_CHAR;
}

static bool valid_at(const pm_orc_colview *v, int64_t i)
{
    return v->validity == NULL || (v->validity[i >> 3] >> (i & 7)) & 1;
}

/* ---- construction ---------------------------------------------------------------------- */

void pm_orc_colwriter_free(pm_orc_colwriter *cw)
{
    if (cw == NULL)
        return;
    for (size_t i = 0; i < cw->child_count; i++)
        pm_orc_colwriter_free(cw->children[i]);
    pm_free(cw->children);
    for (int s = 0; s < PM_S_COUNT; s++)
        pm_orc_outstream_free(&cw->s[s]);
    pm_orc_int_rle_writer_free(cw->data_rle);
    pm_orc_int_rle_writer_free(cw->length_rle);
    pm_orc_int_rle_writer_free(cw->secondary_rle);
    pm_orc_stats_free(&cw->index_stats);
    pm_orc_stats_free(&cw->stripe_stats);
    pm_orc_stats_free(&cw->file_stats);
    pm_buf_free(&cw->entries);
    pm_buf_free(&cw->entry_stats);
    pm_buf_free(&cw->keys);
    pm_buf_free(&cw->key_spans);
    pm_free(cw->table);
    pm_buf_free(&cw->rows);
    pm_buf_free(&cw->group_rows);
    pm_buf_free(&cw->saved);
    pm_free(cw);
}

static int record_present(pm_orc_colwriter *cw, pm_orc_positions *p)
{
    return pm_orc_bool_rle_position(&cw->present, p);
}

static int record_direct(pm_orc_colwriter *cw, pm_orc_positions *p)
{
    int rc = pm_orc_outstream_position(&cw->s[PM_S_DATA], p);
    return rc != 0 ? rc : pm_orc_int_rle_position(cw->length_rle, p);
}

/* Java's recordPosition: PRESENT, then the kind's streams (strings: PRESENT only). */
static int record_position(pm_orc_colwriter *cw, pm_orc_positions *p)
{
    int rc = record_present(cw, p);
    if (rc != 0)
        return rc;
    switch (cw->type->kind) {
    case PM_ORC_BOOLEAN: return pm_orc_bool_rle_position(&cw->bool_rle, p);
    case PM_ORC_BYTE: return pm_orc_byte_rle_position(&cw->byte_rle, p);
    case PM_ORC_SHORT:
    case PM_ORC_INT:
    case PM_ORC_LONG:
    case PM_ORC_DATE: return pm_orc_int_rle_position(cw->data_rle, p);
    case PM_ORC_FLOAT:
    case PM_ORC_DOUBLE: return pm_orc_outstream_position(&cw->s[PM_S_DATA], p);
    case PM_ORC_BINARY: return record_direct(cw, p);
    case PM_ORC_DECIMAL:
        if ((rc = pm_orc_outstream_position(&cw->s[PM_S_DATA], p)) != 0)
            return rc;
        return pm_orc_int_rle_position(cw->secondary_rle, p);
    case PM_ORC_TIMESTAMP:
    case PM_ORC_TIMESTAMP_INSTANT:
        if ((rc = pm_orc_int_rle_position(cw->data_rle, p)) != 0)
            return rc;
        return pm_orc_int_rle_position(cw->secondary_rle, p);
    case PM_ORC_LIST:
    case PM_ORC_MAP: return pm_orc_int_rle_position(cw->length_rle, p);
    default: return 0;
    }
}

/* The positions of the first row group of a stripe. */
static int start_positions(pm_orc_colwriter *cw)
{
    int rc;
    uint64_t zero = 0;
    cw->cur.count = 0;
    if ((rc = record_position(cw, &cw->cur)) != 0)
        return rc;
    if (is_string(cw->type->kind)) {
        pm_buf_reset(&cw->group_rows);
        if ((rc = pm_buf_append(&cw->group_rows, &zero, sizeof(zero))) != 0)
            return rc;
        if (cw->dict_checked && !cw->use_dict)
            rc = record_direct(cw, &cw->cur);
    }
    return rc;
}

int pm_orc_colwriter_new(pm_orc_colwriter **out, const pm_orc_type *types, uint32_t column,
                         const pm_orc_wctx *ctx, paimon_error *err)
{
    const pm_orc_type *t = &types[column];
    pm_orc_colwriter *cw = pm_calloc(1, sizeof(*cw));
    pm_orc_kind k = t->kind;
    int rc = 0;

    *out = NULL;
    if (cw == NULL)
        return pm_nomem(err);
    cw->column = column;
    cw->type = t;
    cw->ctx = ctx;
    cw->cap = ctx->batch_rows;
    for (int s = 0; s < PM_S_COUNT; s++)
        pm_orc_outstream_init(&cw->s[s], &ctx->codec);
    pm_orc_stats_init(&cw->index_stats, t);
    pm_orc_stats_init(&cw->stripe_stats, t);
    pm_orc_stats_init(&cw->file_stats, t);
    pm_buf_init(&cw->entries, 0);
    pm_buf_init(&cw->entry_stats, 0);
    pm_buf_init(&cw->keys, 0);
    pm_buf_init(&cw->key_spans, 0);
    pm_buf_init(&cw->rows, 0);
    pm_buf_init(&cw->group_rows, 0);
    pm_buf_init(&cw->saved, 0);
    pm_orc_bool_rle_writer_init(&cw->present, &cw->s[PM_S_PRESENT]);
    cw->has_stream[PM_S_PRESENT] = true;
    if (k == PM_ORC_UNION) {
        rc = pm_err_set(err, PAIMON_EUNSUPPORTED, "ORC union types cannot be written");
        goto done;
    }
    if (k != PM_ORC_STRUCT && k != PM_ORC_LIST && k != PM_ORC_MAP)
        cw->has_stream[PM_S_DATA] = true;
    if (is_string(k) || k == PM_ORC_BINARY || k == PM_ORC_LIST || k == PM_ORC_MAP)
        cw->has_stream[PM_S_LENGTH] = true;
    if (k == PM_ORC_DECIMAL || k == PM_ORC_TIMESTAMP || k == PM_ORC_TIMESTAMP_INSTANT)
        cw->has_stream[PM_S_SECONDARY] = true;
    if (is_string(k))
        cw->has_stream[PM_S_DICT] = true;
    switch (k) {
    case PM_ORC_BOOLEAN: pm_orc_bool_rle_writer_init(&cw->bool_rle, &cw->s[PM_S_DATA]); break;
    case PM_ORC_BYTE: pm_orc_byte_rle_writer_init(&cw->byte_rle, &cw->s[PM_S_DATA]); break;
    default: break;
    }
    /* dictionary ids are unsigned, every other integer DATA signed */
    if ((cw->data_rle = pm_orc_int_rle_writer_new(&cw->s[PM_S_DATA], !is_string(k))) == NULL ||
        (cw->length_rle = pm_orc_int_rle_writer_new(&cw->s[PM_S_LENGTH], false)) == NULL ||
        (cw->secondary_rle =
             pm_orc_int_rle_writer_new(&cw->s[PM_S_SECONDARY], k == PM_ORC_DECIMAL)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    if (is_string(k)) {
        cw->use_dict = true;
        /* a threshold of 0 or below means direct from the start (Java's check is skipped) */
        if (ctx->dict_threshold <= 0) {
            cw->use_dict = false;
            cw->dict_checked = true;
        }
    }
    if (t->subtype_count > 0) {
        if ((cw->children = pm_calloc(t->subtype_count, sizeof(*cw->children))) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        cw->child_count = t->subtype_count;
        for (size_t i = 0; i < t->subtype_count && rc == 0; i++)
            rc = pm_orc_colwriter_new(&cw->children[i], types, t->subtypes[i], ctx, err);
        if (rc != 0)
            goto done;
    }
    if ((rc = start_positions(cw)) != 0)
        rc = pm_buf_error(err, rc);
done:
    if (rc != 0) {
        pm_orc_colwriter_free(cw);
        return rc;
    }
    *out = cw;
    return 0;
}

/* ---- Java vector capacities ------------------------------------------------------------ */

void pm_orc_colwriter_batch(pm_orc_colwriter *cw, const pm_orc_colview *v, int64_t off, int64_t n)
{
    switch (cw->type->kind) {
    case PM_ORC_STRUCT:
        for (size_t c = 0; c < cw->child_count; c++) {
            /* StructColumnVector.ensureSize resizes its fields to its own size */
            if (cw->children[c]->cap < cw->cap)
                cw->children[c]->cap = cw->cap;
            pm_orc_colwriter_batch(cw->children[c], &v->children[c], off, n);
        }
        break;
    case PM_ORC_LIST:
    case PM_ORC_MAP: {
        /* Paimon grows a child vector per row: max(2 * capacity, elements so far) */
        int64_t count = 0, lo = v->offsets[off], hi = v->offsets[off + n];
        for (int64_t i = off; i < off + n; i++) {
            count += v->offsets[i + 1] - v->offsets[i];
            for (size_t c = 0; c < cw->child_count; c++)
                if (cw->children[c]->cap < count)
                    cw->children[c]->cap =
                        cw->children[c]->cap * 2 > count ? cw->children[c]->cap * 2 : count;
        }
        for (size_t c = 0; c < cw->child_count; c++)
            pm_orc_colwriter_batch(cw->children[c], &v->children[c], lo, hi - lo);
        break;
    }
    default: break;
    }
}

/* ---- strings: the dictionary ----------------------------------------------------------- */

static uint64_t hash_bytes(const uint8_t *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL ^ (n * 0x9e3779b97f4a7c15ULL);
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h ^ (h >> 29);
}

static int dict_grow(pm_orc_colwriter *cw)
{
    size_t cap = cw->table_cap == 0 ? 1024 : cw->table_cap * 2;
    uint32_t *t = pm_calloc(cap, sizeof(uint32_t));
    const uint32_t *spans = (const uint32_t *)(void *)cw->key_spans.data;
    size_t n = cw->key_spans.len / 8;
    if (t == NULL)
        return PAIMON_ENOMEM;
    for (size_t id = 0; id < n; id++) {
        size_t h = (size_t)hash_bytes(cw->keys.data + spans[2 * id], spans[2 * id + 1]) & (cap - 1);
        while (t[h] != 0)
            h = (h + 1) & (cap - 1);
        t[h] = (uint32_t)id + 1;
    }
    pm_free(cw->table);
    cw->table = t;
    cw->table_cap = cap;
    return 0;
}

/* The id of `p` in the dictionary, adding it when new (ids in insertion order). */
static int dict_add(pm_orc_colwriter *cw, const uint8_t *p, size_t len, uint32_t *id)
{
    size_t n = cw->key_spans.len / 8, h;
    int rc;
    if (len > UINT32_MAX || cw->keys.len + len > UINT32_MAX)
        return PAIMON_ELIMIT;
    if ((n + 1) * 2 > cw->table_cap && (rc = dict_grow(cw)) != 0)
        return rc;
    h = (size_t)hash_bytes(p, len) & (cw->table_cap - 1);
    for (;;) {
        uint32_t e = cw->table[h];
        const uint32_t *spans = (const uint32_t *)(void *)cw->key_spans.data;
        if (e == 0)
            break;
        if (spans[2 * (e - 1) + 1] == len &&
            (len == 0 || memcmp(cw->keys.data + spans[2 * (e - 1)], p, len) == 0)) {
            *id = e - 1;
            return 0;
        }
        h = (h + 1) & (cw->table_cap - 1);
    }
    {
        uint32_t span[2] = {(uint32_t)cw->keys.len, (uint32_t)len};
        if ((rc = pm_buf_append(&cw->keys, p, len)) != 0 ||
            (rc = pm_buf_append(&cw->key_spans, span, sizeof(span))) != 0)
            return rc;
    }
    cw->table[h] = (uint32_t)n + 1;
    *id = (uint32_t)n;
    return 0;
}

static void dict_clear(pm_orc_colwriter *cw)
{
    pm_buf_reset(&cw->keys);
    pm_buf_reset(&cw->key_spans);
    if (cw->table != NULL)
        memset(cw->table, 0, cw->table_cap * sizeof(uint32_t));
}

/* Java's checkDictionaryEncoding: distinct / non-null values <= threshold, in float. */
static void check_dictionary(pm_orc_colwriter *cw)
{
    size_t rows = cw->rows.len / 4, keys = cw->key_spans.len / 8;
    float ratio;
    if (cw->dict_checked)
        return;
    ratio = rows > 0 ? (float)keys / (float)rows : 0.0f;
    cw->use_dict = (double)ratio <= cw->ctx->dict_threshold;
    cw->dict_checked = true;
}

/* qsort's comparator has no context argument: the column being sorted, per thread (files
 * of different buckets are written on different threads at once). */
static _Thread_local const pm_orc_colwriter *sort_ctx;

static int cmp_ids(const void *a, const void *b)
{
    const uint32_t *spans = (const uint32_t *)(void *)sort_ctx->key_spans.data;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    uint32_t xl = spans[2 * x + 1], yl = spans[2 * y + 1];
    int c = memcmp(sort_ctx->keys.data + spans[2 * x], sort_ctx->keys.data + spans[2 * y],
                   xl < yl ? xl : yl);
    return c != 0 ? c : (xl < yl ? -1 : xl > yl ? 1 : 0);
}

/* Java's flushDictionary: writes the buffered values, dictionary ids in sorted order or
 * the bytes themselves, completing the saved row index entries with data positions. */
PM_MUST_CHECK static int flush_dictionary(pm_orc_colwriter *cw, paimon_error *err)
{
    size_t keys = cw->key_spans.len / 8, rows = cw->rows.len / 4, entry = 0;
    size_t saved = cw->saved.len / sizeof(pm_orc_wentry), groups = cw->group_rows.len / 8;
    const uint32_t *ids = (const uint32_t *)(void *)cw->rows.data;
    const uint32_t *spans = (const uint32_t *)(void *)cw->key_spans.data;
    const uint64_t *group = (const uint64_t *)(void *)cw->group_rows.data;
    uint32_t *order = NULL, *dump = NULL;
    int rc = 0;

    if (cw->use_dict && keys > 0) {
        if ((order = pm_malloc(keys * sizeof(uint32_t))) == NULL ||
            (dump = pm_malloc(keys * sizeof(uint32_t))) == NULL) {
            rc = PAIMON_ENOMEM;
            goto done;
        }
        for (size_t i = 0; i < keys; i++)
            order[i] = (uint32_t)i;
        sort_ctx = cw;
        qsort(order, keys, sizeof(uint32_t), cmp_ids);
        for (size_t i = 0; i < keys && rc == 0; i++) {
            rc = pm_orc_outstream_write(&cw->s[PM_S_DICT], cw->keys.data + spans[2 * order[i]],
                                        spans[2 * order[i] + 1], NULL);
            if (rc == 0)
                rc = pm_orc_int_rle_write(cw->length_rle, spans[2 * order[i] + 1]);
            dump[order[i]] = (uint32_t)i;
        }
        if (rc != 0)
            goto done;
    }
    for (size_t i = 0; i <= rows; i++) {
        while (entry < saved && entry < groups && i == group[entry]) {
            pm_orc_wentry e = ((const pm_orc_wentry *)(void *)cw->saved.data)[entry++];
            rc = cw->use_dict ? pm_orc_int_rle_position(cw->data_rle, &e.pos)
                              : record_direct(cw, &e.pos);
            if (rc == 0)
                rc = pm_buf_append(&cw->entries, &e, sizeof(e));
            if (rc != 0)
                goto done;
        }
        if (i == rows)
            break;
        if (cw->use_dict) {
            rc = pm_orc_int_rle_write(cw->data_rle, dump[ids[i]]);
        } else {
            uint32_t id = ids[i];
            rc = pm_orc_outstream_write(&cw->s[PM_S_DATA], cw->keys.data + spans[2 * id],
                                        spans[2 * id + 1], NULL);
            if (rc == 0)
                rc = pm_orc_int_rle_write(cw->length_rle, spans[2 * id + 1]);
        }
        if (rc != 0)
            goto done;
    }
    pm_buf_reset(&cw->rows);
    pm_buf_reset(&cw->saved);
done:
    pm_free(order);
    pm_free(dump);
    return rc != 0 ? pm_buf_error(err, rc) : 0;
}

/* ---- writing values -------------------------------------------------------------------- */

/* TreeWriterBase.writeBatch: PRESENT bits and the value count; returns the null count. */
static int write_present(pm_orc_colwriter *cw, const pm_orc_colview *v, int64_t off, int64_t n,
                         int64_t *nulls)
{
    int rc = 0;
    *nulls = 0;
    for (int64_t i = off; i < off + n && rc == 0; i++) {
        bool ok = valid_at(v, i);
        *nulls += !ok;
        rc = pm_orc_bool_rle_write(&cw->present, ok);
    }
    pm_orc_stats_values(&cw->index_stats, (uint64_t)n, (uint64_t)*nulls);
    if (*nulls > 0)
        cw->found_nulls = true;
    return rc;
}

/* CHAR(n) values are padded with spaces to n characters, VARCHAR(n) cut to n (ORC Java's
 * CharTreeWriter / VarcharTreeWriter). */
static size_t fit_chars(const pm_orc_type *t, const uint8_t *p, size_t len, size_t *pad)
{
    size_t chars = 0, cut;
    *pad = 0;
    if (!t->has_max_length || (t->kind != PM_ORC_CHAR && t->kind != PM_ORC_VARCHAR))
        return len;
    cut = pm_utf8_lead_prefix(p, len, t->max_length, &chars);
    if (cut < len)
        return cut;
    if (t->kind == PM_ORC_CHAR && chars < t->max_length)
        *pad = t->max_length - chars;
    return len;
}

static int write_string(pm_orc_colwriter *cw, const uint8_t *p, size_t len)
{
    static const uint8_t spaces[64] = {
        ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ',
        ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ',
        ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ',
        ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' '};
    pm_buf padded;
    size_t pad, n = fit_chars(cw->type, p, len, &pad);
    int rc = 0;
    uint32_t id;
    pm_buf_init(&padded, 0);
    if (pad > 0) {
        if ((rc = pm_buf_append(&padded, p, n)) != 0)
            goto done;
        for (size_t k = pad; k > 0 && rc == 0; k -= k < 64 ? k : 64)
            rc = pm_buf_append(&padded, spaces, k < 64 ? k : 64);
        if (rc != 0)
            goto done;
        p = padded.data;
        n = padded.len;
    }
    if (cw->use_dict) {
        if ((rc = dict_add(cw, p, n, &id)) == 0)
            rc = pm_buf_append(&cw->rows, &id, sizeof(id));
    } else {
        if ((rc = pm_orc_outstream_write(&cw->s[PM_S_DATA], p, n, NULL)) == 0)
            rc = pm_orc_int_rle_write(cw->length_rle, (int64_t)n);
    }
    if (rc == 0)
        rc = pm_orc_stats_string(&cw->index_stats, p, n);
done:
    pm_buf_free(&padded);
    return rc;
}

/* Java's formatNanos: trailing decimal zeros removed, their count - 1 in the low 3 bits. */
static int64_t format_nanos(int32_t nanos)
{
    int zeros = 1;
    if (nanos == 0)
        return 0;
    if (nanos % 100 != 0)
        return (int64_t)nanos << 3;
    nanos /= 100;
    while (nanos % 10 == 0 && zeros < 7) {
        nanos /= 10;
        zeros++;
    }
    return (int64_t)nanos << 3 | zeros;
}

/* A decimal as HiveDecimal holds it: trailing zeros of the fraction removed.  Values of 64
 * bits (every DECIMAL(p <= 18)) divide in 64 bits: 128-bit division is a library call. */
static void normalize_decimal(__int128 *v, int64_t *scale)
{
    if (*v == 0) {
        *scale = 0;
        return;
    }
    if (*v >= INT64_MIN && *v <= INT64_MAX) {
        int64_t x = (int64_t)*v;
        while (*scale > 0 && x % 10 == 0) {
            x /= 10;
            (*scale)--;
        }
        *v = x;
        return;
    }
    while (*scale > 0 && *v % 10 == 0) {
        *v /= 10;
        (*scale)--;
    }
}

static int write_value(pm_orc_colwriter *cw, const pm_orc_colview *v, int64_t i)
{
    const uint8_t *vals = v->values;
    int rc = 0;
    switch (cw->type->kind) {
    case PM_ORC_BOOLEAN: {
        bool b = (vals[i >> 3] >> (i & 7)) & 1;
        pm_orc_stats_bool(&cw->index_stats, b);
        return pm_orc_bool_rle_write(&cw->bool_rle, b);
    }
    case PM_ORC_BYTE:
        pm_orc_stats_int(&cw->index_stats, (int8_t)vals[i]);
        return pm_orc_byte_rle_write(&cw->byte_rle, vals[i]);
    case PM_ORC_SHORT: {
        int16_t x;
        memcpy(&x, vals + 2 * i, 2);
        pm_orc_stats_int(&cw->index_stats, x);
        return pm_orc_int_rle_write(cw->data_rle, x);
    }
    case PM_ORC_INT:
    case PM_ORC_DATE: {
        int32_t x;
        memcpy(&x, vals + 4 * i, 4);
        if (cw->type->kind == PM_ORC_DATE)
            pm_orc_stats_date(&cw->index_stats, x);
        else
            pm_orc_stats_int(&cw->index_stats, x);
        return pm_orc_int_rle_write(cw->data_rle, x);
    }
    case PM_ORC_LONG: {
        int64_t x;
        memcpy(&x, vals + 8 * i, 8);
        pm_orc_stats_int(&cw->index_stats, x);
        return pm_orc_int_rle_write(cw->data_rle, x);
    }
    case PM_ORC_FLOAT: {
        float x;
        memcpy(&x, vals + 4 * i, 4);
        pm_orc_stats_double(&cw->index_stats, (double)x);
        return pm_orc_outstream_write(&cw->s[PM_S_DATA], vals + 4 * i, 4, NULL);
    }
    case PM_ORC_DOUBLE: {
        double x;
        memcpy(&x, vals + 8 * i, 8);
        pm_orc_stats_double(&cw->index_stats, x);
        return pm_orc_outstream_write(&cw->s[PM_S_DATA], vals + 8 * i, 8, NULL);
    }
    case PM_ORC_STRING:
    case PM_ORC_VARCHAR:
    case PM_ORC_CHAR:
        return write_string(cw, vals + v->offsets[i], (size_t)(v->offsets[i + 1] - v->offsets[i]));
    case PM_ORC_BINARY: {
        size_t len = (size_t)(v->offsets[i + 1] - v->offsets[i]);
        pm_orc_stats_binary(&cw->index_stats, len);
        if ((rc = pm_orc_outstream_write(&cw->s[PM_S_DATA], vals + v->offsets[i], len, NULL)) != 0)
            return rc;
        return pm_orc_int_rle_write(cw->length_rle, (int64_t)len);
    }
    case PM_ORC_DECIMAL: {
        __int128 x;
        int64_t scale = cw->type->scale;
        memcpy(&x, vals + 16 * i, 16);
        pm_orc_stats_decimal(&cw->index_stats, x);
        normalize_decimal(&x, &scale);
        if ((rc = pm_orc_write_varint128(&cw->s[PM_S_DATA], x)) != 0)
            return rc;
        return pm_orc_int_rle_write(cw->secondary_rle, scale);
    }
    case PM_ORC_TIMESTAMP:
    case PM_ORC_TIMESTAMP_INSTANT: {
        int64_t ms, secs, stat_ms;
        int32_t nom, nanos;
        memcpy(&ms, vals + 8 * i, 8);
        nom = v->nanos != NULL ? v->nanos[i] : 0;
        /* java.sql.Timestamp: floor milliseconds and the nanoseconds of the second; ORC
         * Java keeps truncated seconds and its reader's quirk for negative times */
        nanos = (int32_t)pm_floor_mod(ms, 1000) * 1000000 + nom;
        secs = ms / 1000;
        stat_ms = secs * 1000 + nanos / 1000000;
        if (stat_ms < 0 && nanos > 999999)
            stat_ms -= 1000;
        pm_orc_stats_timestamp(&cw->index_stats, stat_ms, nanos % 1000000);
        if ((rc = pm_orc_int_rle_write(cw->data_rle, secs - BASE_2015)) != 0)
            return rc;
        return pm_orc_int_rle_write(cw->secondary_rle, format_nanos(nanos));
    }
    default: return 0;
    }
}

/* The non-null values of rows [off, off + n) of a leaf column.  The common fixed-width kinds
 * loop without dispatching per value; the rest go through write_value. */
static int write_values(pm_orc_colwriter *cw, const pm_orc_colview *v, int64_t off, int64_t n)
{
    const uint8_t *vals = v->values;
    int rc = 0;
    switch (cw->type->kind) {
    case PM_ORC_INT:
        for (int64_t i = off; i < off + n && rc == 0; i++)
            if (valid_at(v, i)) {
                int32_t x;
                memcpy(&x, vals + 4 * i, 4);
                pm_orc_stats_int(&cw->index_stats, x);
                rc = pm_orc_int_rle_write(cw->data_rle, x);
            }
        return rc;
    case PM_ORC_LONG:
        for (int64_t i = off; i < off + n && rc == 0; i++)
            if (valid_at(v, i)) {
                int64_t x;
                memcpy(&x, vals + 8 * i, 8);
                pm_orc_stats_int(&cw->index_stats, x);
                rc = pm_orc_int_rle_write(cw->data_rle, x);
            }
        return rc;
    case PM_ORC_DOUBLE: {
        /* runs of non-null values go to the stream in one piece */
        int64_t run = -1;
        for (int64_t i = off; i <= off + n && rc == 0; i++) {
            bool ok = i < off + n && valid_at(v, i);
            if (ok) {
                double x;
                memcpy(&x, vals + 8 * i, 8);
                pm_orc_stats_double(&cw->index_stats, x);
                if (run < 0)
                    run = i;
            } else if (run >= 0) {
                rc = pm_orc_outstream_write(&cw->s[PM_S_DATA], vals + 8 * run,
                                            (size_t)(8 * (i - run)), NULL);
                run = -1;
            }
        }
        return rc;
    }
    default:
        for (int64_t i = off; i < off + n && rc == 0; i++)
            if (valid_at(v, i))
                rc = write_value(cw, v, i);
        return rc;
    }
}

static int write_column(pm_orc_colwriter *cw, const pm_orc_colview *v, int64_t off, int64_t n)
{
    int64_t nulls;
    int rc = write_present(cw, v, off, n, &nulls);
    if (rc != 0)
        return rc;
    switch (cw->type->kind) {
    case PM_ORC_STRUCT: {
        /* fields see the runs of non-null struct rows */
        int64_t run = -1;
        for (int64_t i = off; i <= off + n && rc == 0; i++) {
            bool ok = i < off + n && valid_at(v, i);
            if (ok && run < 0)
                run = i;
            if (!ok && run >= 0) {
                for (size_t c = 0; c < cw->child_count && rc == 0; c++)
                    rc = write_column(cw->children[c], &v->children[c], run, i - run);
                run = -1;
            }
        }
        return rc;
    }
    case PM_ORC_LIST:
    case PM_ORC_MAP: {
        int64_t lo = -1, hi = -1;
        /* ORC Java adds the vector's capacity, not a length (orc_stats.h) */
        pm_orc_stats_collection(&cw->index_stats, (uint64_t)cw->cap);
        for (int64_t i = off; i < off + n && rc == 0; i++) {
            if (!valid_at(v, i))
                continue;
            rc = pm_orc_int_rle_write(cw->length_rle, v->offsets[i + 1] - v->offsets[i]);
            if (v->offsets[i + 1] > v->offsets[i]) {
                if (lo < 0)
                    lo = v->offsets[i];
                hi = v->offsets[i + 1];
            }
        }
        for (size_t c = 0; c < cw->child_count && rc == 0 && lo >= 0; c++)
            rc = write_column(cw->children[c], &v->children[c], lo, hi - lo);
        return rc;
    }
    default: return write_values(cw, v, off, n);
    }
}

int pm_orc_colwriter_write_root(pm_orc_colwriter *root, const pm_orc_colview *v, int64_t off,
                                int64_t n, paimon_error *err)
{
    int rc = 0;
    /* the root column has no PRESENT stream writes, only its count */
    pm_orc_stats_values(&root->index_stats, (uint64_t)n, 0);
    for (size_t c = 0; c < root->child_count && rc == 0; c++)
        rc = write_column(root->children[c], &v->children[c], off, n);
    return rc != 0 ? pm_buf_error(err, rc) : 0;
}

/* ---- row groups and stripes ------------------------------------------------------------ */

int pm_orc_colwriter_index_entry(pm_orc_colwriter *cw, paimon_error *err)
{
    pm_orc_stats st;
    pm_orc_wentry e;
    size_t before = cw->entry_stats.len;
    int rc;

    if ((rc = pm_orc_stats_merge(&cw->stripe_stats, &cw->index_stats)) != 0)
        return pm_buf_error(err, rc);
    pm_orc_stats_out(&cw->index_stats, &st, false);
    if ((rc = pm_orc_encode_stats(&cw->entry_stats, &st)) != 0)
        return pm_buf_error(err, rc);
    pm_orc_stats_reset(&cw->index_stats);
    e.pos = cw->cur;
    e.stats_off = before;
    e.stats_len = cw->entry_stats.len - before;
    cw->cur.count = 0;
    if ((rc = record_position(cw, &cw->cur)) != 0)
        return pm_buf_error(err, rc);
    if (is_string(cw->type->kind)) {
        /* StringBaseTreeWriter.createRowIndexEntry */
        uint64_t rows = cw->rows.len / 4;
        if ((rc = pm_buf_append(&cw->saved, &e, sizeof(e))) != 0 ||
            (rc = pm_buf_append(&cw->group_rows, &rows, sizeof(rows))) != 0)
            return pm_buf_error(err, rc);
        check_dictionary(cw);
        if (!cw->use_dict) {
            if (rows > 0) {
                if ((rc = flush_dictionary(cw, err)) != 0)
                    return rc;
            } else {
                pm_buf_reset(&cw->saved);
                if ((rc = pm_buf_append(&cw->entries, &e, sizeof(e))) != 0)
                    return pm_buf_error(err, rc);
            }
            if ((rc = record_direct(cw, &cw->cur)) != 0)
                return pm_buf_error(err, rc);
        }
    } else if ((rc = pm_buf_append(&cw->entries, &e, sizeof(e))) != 0) {
        return pm_buf_error(err, rc);
    }
    for (size_t c = 0; c < cw->child_count; c++)
        if ((rc = pm_orc_colwriter_index_entry(cw->children[c], err)) != 0)
            return rc;
    return 0;
}

int pm_orc_colwriter_flush(pm_orc_colwriter *cw, paimon_error *err)
{
    int rc = pm_orc_bool_rle_flush(&cw->present);
    if (rc == 0 && is_string(cw->type->kind)) {
        check_dictionary(cw);
        if (cw->use_dict || cw->rows.len > 0) {
            if ((rc = flush_dictionary(cw, err)) != 0)
                return rc;
        }
    }
    if (rc == 0 && cw->type->kind == PM_ORC_BOOLEAN)
        rc = pm_orc_bool_rle_flush(&cw->bool_rle);
    if (rc == 0 && cw->type->kind == PM_ORC_BYTE)
        rc = pm_orc_byte_rle_flush(&cw->byte_rle);
    if (rc == 0)
        rc = pm_orc_int_rle_flush(cw->data_rle);
    if (rc == 0)
        rc = pm_orc_int_rle_flush(cw->length_rle);
    if (rc == 0)
        rc = pm_orc_int_rle_flush(cw->secondary_rle);
    for (int s = 0; s < PM_S_COUNT && rc == 0; s++)
        rc = pm_orc_outstream_flush(&cw->s[s], err);
    if (rc != 0)
        return err != NULL && err->code != 0 ? rc : pm_buf_error(err, rc);
    for (size_t c = 0; c < cw->child_count; c++)
        if ((rc = pm_orc_colwriter_flush(cw->children[c], err)) != 0)
            return rc;
    return 0;
}

static int encode_row_index(pm_orc_colwriter *cw, pm_buf *body)
{
    const pm_orc_wentry *e = (const pm_orc_wentry *)(void *)cw->entries.data;
    size_t n = cw->entries.len / sizeof(*e);
    pm_buf entry;
    int rc = 0;
    pm_buf_init(&entry, 0);
    for (size_t i = 0; i < n && rc == 0; i++) {
        pm_buf_reset(&entry);
        rc = pm_pb_put_packed(&entry, 1, e[i].pos.v, e[i].pos.count);
        if (rc == 0)
            rc = pm_pb_put_bytes(&entry, 2, cw->entry_stats.data + e[i].stats_off, e[i].stats_len);
        if (rc == 0)
            rc = pm_pb_put_bytes(body, 1, entry.data, entry.len);
    }
    pm_buf_free(&entry);
    return rc;
}

int pm_orc_colwriter_end_stripe(pm_orc_colwriter *cw, pm_orc_col_stripe *out, paimon_error *err)
{
    pm_buf body;
    uint64_t bytes = 0;
    int rc;

    if (!cw->found_nulls) {
        /* no null in the stripe: drop PRESENT and its positions (3 values, 4 compressed) */
        size_t drop = cw->ctx->codec.kind == PM_ORC_NONE ? 3 : 4;
        pm_orc_wentry *e = (pm_orc_wentry *)(void *)cw->entries.data;
        cw->s[PM_S_PRESENT].suppressed = true;
        for (size_t i = 0; i < cw->entries.len / sizeof(*e); i++) {
            if (e[i].pos.count < drop)
                continue;
            memmove(e[i].pos.v, e[i].pos.v + drop, (e[i].pos.count - drop) * sizeof(uint64_t));
            e[i].pos.count -= drop;
        }
    }
    if (is_string(cw->type->kind) && !cw->use_dict)
        cw->s[PM_S_DICT].suppressed = true;
    for (int s = 0; s < PM_S_COUNT; s++)
        if (cw->has_stream[s] && !cw->s[s].suppressed)
            bytes += cw->s[s].out.len;
    cw->stripe_stats.bytes_on_disk = bytes;
    if ((rc = pm_orc_stats_merge(&cw->file_stats, &cw->stripe_stats)) != 0)
        return pm_buf_error(err, rc);
    out->stats = &cw->stripe_stats;
    out->encoding.dictionary_size = 0;
    switch (cw->type->kind) {
    case PM_ORC_STRUCT:
    case PM_ORC_BOOLEAN:
    case PM_ORC_BYTE:
    case PM_ORC_FLOAT:
    case PM_ORC_DOUBLE: out->encoding.kind = PM_ORC_DIRECT; break;
    case PM_ORC_STRING:
    case PM_ORC_VARCHAR:
    case PM_ORC_CHAR:
        out->encoding.kind = cw->use_dict ? PM_ORC_DICTIONARY_V2 : PM_ORC_DIRECT_V2;
        if (cw->use_dict)
            out->encoding.dictionary_size = (uint32_t)(cw->key_spans.len / 8);
        break;
    default: out->encoding.kind = PM_ORC_DIRECT_V2; break;
    }
    pm_buf_init(&body, 0);
    pm_buf_reset(&out->index);
    rc = encode_row_index(cw, &body);
    if (rc == 0)
        rc = pm_orc_compress_message(&cw->ctx->codec, body.data, body.len, &out->index, err);
    else
        rc = pm_buf_error(err, rc);
    pm_buf_free(&body);
    return rc;
}

int pm_orc_colwriter_next_stripe(pm_orc_colwriter *cw, paimon_error *err)
{
    int rc;
    for (int s = 0; s < PM_S_COUNT; s++)
        pm_orc_outstream_reset(&cw->s[s]);
    pm_orc_stats_reset(&cw->stripe_stats);
    cw->found_nulls = false;
    pm_buf_reset(&cw->entries);
    pm_buf_reset(&cw->entry_stats);
    pm_buf_reset(&cw->saved);
    pm_buf_reset(&cw->rows);
    if (is_string(cw->type->kind))
        dict_clear(cw);
    if ((rc = start_positions(cw)) != 0)
        return pm_buf_error(err, rc);
    return 0;
}

uint64_t pm_orc_colwriter_memory(const pm_orc_colwriter *cw)
{
    uint64_t m = 0;
    for (int s = 0; s < PM_S_COUNT; s++) {
        if (!cw->has_stream[s])
            continue;
        m += cw->s[s].out.len;
        /* Java holds an input buffer, and an output buffer once it compressed */
        if (cw->s[s].current.len > 0 || cw->s[s].out.len > 0)
            m += cw->ctx->codec.block_size + 3;
        if (cw->s[s].out.len > 0 && cw->ctx->codec.kind != PM_ORC_NONE)
            m += cw->ctx->codec.block_size + 3;
    }
    if (cw->use_dict)
        m += cw->keys.len + cw->rows.len;
    for (size_t c = 0; c < cw->child_count; c++)
        m += pm_orc_colwriter_memory(cw->children[c]);
    return m;
}
