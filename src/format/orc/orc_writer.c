/*
 * Writing ORC files: the file layer (see orc_writer.h; the column writers are in
 * orc_column_write.c).  A stripe is written as ORC Java's PhysicalFsWriter lays it out:
 *
 *   ROW_INDEX streams, one per column in column order (the index area)
 *   data streams by column, then by kind: PRESENT, DATA, LENGTH, DICTIONARY_DATA, SECONDARY
 *   the stripe footer: the stream directory, one encoding per column, writerTimezone when
 *   the schema has a timestamp
 *
 * then after the last stripe: Metadata (the stripe statistics), Footer, PostScript and its
 * length byte.  Streams PRESENT never used and DICTIONARY_DATA of direct strings are left
 * out; empty streams are listed with length 0, as Java lists them.
 */
#include "format/orc/orc_writer.h"

#include <stdio.h>
#include <string.h>

#include "format/orc/orc_colwriter.h"
#include "format/orc/orc_proto.h"
#include "util/alloc.h"
#include "util/arena.h"

#define DEFAULT_STRIPE ((uint64_t)64 << 20)
#define ROWS_PER_CHECK 5000

struct pm_orc_writer {
    pm_orc_wctx ctx;
    pm_arena arena;
    pm_orc_type *types;
    size_t type_count;
    pm_orc_colwriter *root;
    pm_orc_colwriter **cols; /* by column id */
    pm_orc_col_stripe *cs;   /* per column, the stripe being finished */
    pm_buf *sink;
    pm_output *output;
    uint64_t pos;
    uint64_t stripe_size;
    char *timezone;
    bool has_timestamp;
    int64_t rows_in_index, rows_in_stripe, rows_in_batch, rows_since_check;
    uint64_t row_count;
    pm_buf stripes;  /* pm_orc_stripe_info */
    pm_buf metadata; /* the Metadata body: one StripeStatistics field per stripe */
    pm_buf scratch, scratch2;
    bool closed;
};

size_t pm_orc_block_size(uint64_t stripe_size, size_t columns)
{
    uint64_t est = stripe_size / (20 * (uint64_t)(columns == 0 ? 1 : columns)), pow2 = 1;
    while (pow2 < est)
        pow2 <<= 1;
    if (pow2 < 4096)
        pow2 = 4096;
    if (pow2 > 256 * 1024)
        pow2 = 256 * 1024;
    return (size_t)pow2;
}

uint64_t pm_orc_writer_position(const pm_orc_writer *w)
{
    return w->pos;
}

uint64_t pm_orc_writer_buffered(const pm_orc_writer *w)
{
    return w->closed ? 0 : pm_orc_colwriter_memory(w->root);
}

void pm_orc_writer_free(pm_orc_writer *w)
{
    if (w == NULL)
        return;
    pm_orc_colwriter_free(w->root);
    if (w->cs != NULL)
        for (size_t c = 0; c < w->type_count; c++)
            pm_buf_free(&w->cs[c].index);
    pm_free(w->cs);
    pm_free(w->cols);
    pm_buf_free(&w->stripes);
    pm_buf_free(&w->metadata);
    pm_buf_free(&w->scratch);
    pm_buf_free(&w->scratch2);
    pm_codec_ctx_free(w->ctx.codec.ctx);
    pm_arena_free(&w->arena);
    pm_free(w);
}

PM_MUST_CHECK static int emit(pm_orc_writer *w, const void *data, size_t len, paimon_error *err)
{
    int rc;
    if (len == 0)
        return 0;
    if (w->sink != NULL) {
        if ((rc = pm_buf_append(w->sink, data, len)) != 0)
            return pm_buf_error(err, rc);
    } else if ((rc = w->output->write(w->output, data, len, err)) != 0) {
        return rc;
    }
    w->pos += len;
    return 0;
}

static void index_cols(pm_orc_writer *w, pm_orc_colwriter *cw)
{
    w->cols[cw->column] = cw;
    for (size_t i = 0; i < cw->child_count; i++)
        index_cols(w, cw->children[i]);
}

/* Copies the type tree into the writer's arena. */
PM_MUST_CHECK static int copy_types(pm_orc_writer *w, const pm_orc_type *types, size_t n,
                                    paimon_error *err)
{
    if ((w->types = pm_arena_calloc(&w->arena, n, sizeof(pm_orc_type))) == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < n; i++) {
        const pm_orc_type *s = &types[i];
        pm_orc_type *d = &w->types[i];
        *d = *s;
        d->subtypes = pm_arena_calloc(&w->arena, s->subtype_count + 1, sizeof(uint32_t));
        if (d->subtypes != NULL && s->subtype_count > 0)
            memcpy(d->subtypes, s->subtypes, s->subtype_count * sizeof(uint32_t));
        d->field_names = pm_arena_calloc(&w->arena, s->field_name_count + 1, sizeof(char *));
        d->attrs = pm_arena_calloc(&w->arena, s->attr_count + 1, sizeof(pm_orc_attr));
        if (d->subtypes == NULL || d->field_names == NULL || d->attrs == NULL)
            return pm_nomem(err);
        for (size_t k = 0; k < s->field_name_count; k++)
            if ((d->field_names[k] = pm_arena_strndup(&w->arena, s->field_names[k],
                                                      strlen(s->field_names[k]))) == NULL)
                return pm_nomem(err);
        for (size_t k = 0; k < s->attr_count; k++) {
            d->attrs[k].key = pm_arena_strndup(&w->arena, s->attrs[k].key, strlen(s->attrs[k].key));
            d->attrs[k].value =
                pm_arena_strndup(&w->arena, s->attrs[k].value, strlen(s->attrs[k].value));
            if (d->attrs[k].key == NULL || d->attrs[k].value == NULL)
                return pm_nomem(err);
        }
        if (s->kind == PM_ORC_TIMESTAMP || s->kind == PM_ORC_TIMESTAMP_INSTANT)
            w->has_timestamp = true;
    }
    /* the tree a reader will check, so the column writers' recursion is bounded */
    return pm_orc_check_types(w->types, n, "ORC writer", PAIMON_EINVALID, err);
}

int pm_orc_writer_new(pm_orc_writer **out, const pm_orc_type *types, size_t type_count,
                      const pm_orc_writer_options *o, pm_buf *sink, pm_output *output,
                      paimon_error *err)
{
    pm_orc_writer *w = pm_calloc(1, sizeof(*w));
    int rc = 0;

    *out = NULL;
    if (w == NULL)
        return pm_nomem(err);
    pm_arena_init(&w->arena, 1 << 12);
    pm_buf_init(&w->stripes, 0);
    pm_buf_init(&w->metadata, 0);
    pm_buf_init(&w->scratch, 0);
    pm_buf_init(&w->scratch2, 0);
    w->sink = sink;
    w->output = output;
    if ((sink == NULL) == (output == NULL) || type_count == 0 || types[0].kind != PM_ORC_STRUCT) {
        rc = pm_err_set(err, PAIMON_EINVALID, "ORC writer: bad arguments");
        goto done;
    }
    w->type_count = type_count;
    PM_TRY(copy_types(w, types, type_count, err));
    w->stripe_size = o != NULL && o->stripe_size > 0 ? o->stripe_size : DEFAULT_STRIPE;
    w->ctx.codec.kind = o != NULL && o->compression_set ? o->compression : PM_ORC_ZSTD;
    PM_TRY(pm_orc_codec_check(w->ctx.codec.kind, "ORC writer", err));
    w->ctx.codec.level = o != NULL ? o->level : 0;
    w->ctx.codec.block_size = o != NULL && o->block_size > 0
                                  ? o->block_size
                                  : pm_orc_block_size(w->stripe_size, type_count);
    if (w->ctx.codec.block_size >= PM_ORC_MAX_CHUNK) {
        rc = pm_err_set(err, PAIMON_EINVALID, "ORC writer: compression block size too large");
        goto done;
    }
    if (w->ctx.codec.kind != PM_ORC_NONE && (w->ctx.codec.ctx = pm_codec_ctx_new()) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    w->ctx.stride = o != NULL && o->row_index_stride > 0 ? o->row_index_stride : 10000;
    w->ctx.batch_rows = o != NULL && o->batch_rows > 0 ? o->batch_rows : 1024;
    w->ctx.dict_threshold =
        o != NULL && o->dictionary_threshold != 0 ? o->dictionary_threshold : 0.8;
    w->timezone =
        pm_arena_strndup(&w->arena, o != NULL && o->timezone != NULL ? o->timezone : "UTC",
                         strlen(o != NULL && o->timezone != NULL ? o->timezone : "UTC"));
    w->cols = pm_calloc(type_count, sizeof(*w->cols));
    w->cs = pm_calloc(type_count, sizeof(*w->cs));
    if (w->timezone == NULL || w->cols == NULL || w->cs == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t c = 0; c < type_count; c++)
        pm_buf_init(&w->cs[c].index, 0);
    PM_TRY(pm_orc_colwriter_new(&w->root, w->types, 0, &w->ctx, err));
    index_cols(w, w->root);
    PM_TRY(emit(w, "ORC", 3, err));
done:
    if (rc != 0) {
        pm_orc_writer_free(w);
        return rc;
    }
    *out = w;
    return 0;
}

/* Java's stream order within the data area of a column: by Stream.Kind. */
static const int KIND_ORDER[PM_S_COUNT] = {PM_S_PRESENT, PM_S_DATA, PM_S_LENGTH, PM_S_DICT,
                                           PM_S_SECONDARY};
static const pm_orc_stream_kind KIND_OF[PM_S_COUNT] = {PM_ORC_PRESENT, PM_ORC_DATA, PM_ORC_LENGTH,
                                                       PM_ORC_SECONDARY, PM_ORC_DICTIONARY_DATA};

PM_MUST_CHECK static int flush_stripe(pm_orc_writer *w, paimon_error *err)
{
    pm_orc_stripe_footer sf;
    pm_orc_stripe_info si;
    size_t n = w->type_count, ns = 0;
    uint64_t index_len = 0, data_len = 0;
    uint32_t required;
    int rc = 0;

    memset(&sf, 0, sizeof(sf));
    if (w->rows_in_index != 0) {
        PM_TRY(pm_orc_colwriter_index_entry(w->root, err));
        w->rows_in_index = 0;
    }
    if (w->rows_in_stripe == 0)
        return 0;
    required = (uint32_t)((w->rows_in_stripe + w->ctx.stride - 1) / w->ctx.stride);
    PM_TRY(pm_orc_colwriter_flush(w->root, err));
    for (size_t c = 0; c < n; c++) {
        size_t entries = w->cols[c]->entries.len / sizeof(pm_orc_wentry);
        if (entries != required) {
            rc = pm_err_set(err, PAIMON_EINVALID,
                            "ORC writer: column %zu has %zu row index entries, expected %u", c,
                            entries, required);
            goto done;
        }
        PM_TRY(pm_orc_colwriter_end_stripe(w->cols[c], &w->cs[c], err));
    }
    /* the stream directory: index area, then data area */
    sf.streams = pm_calloc(n * (PM_S_COUNT + 1), sizeof(pm_orc_stream_info));
    sf.encodings = pm_calloc(n, sizeof(pm_orc_encoding));
    if (sf.streams == NULL || sf.encodings == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t c = 0; c < n; c++) {
        pm_orc_stream_info *s = &sf.streams[ns++];
        s->kind = PM_ORC_ROW_INDEX;
        s->column = (uint32_t)c;
        s->length = w->cs[c].index.len;
        index_len += s->length;
    }
    for (size_t c = 0; c < n; c++) {
        const pm_orc_colwriter *cw = w->cols[c];
        for (int k = 0; k < PM_S_COUNT; k++) {
            int idx = KIND_ORDER[k];
            if (!cw->has_stream[idx] || cw->s[idx].suppressed)
                continue;
            sf.streams[ns].kind = KIND_OF[idx];
            sf.streams[ns].column = (uint32_t)c;
            sf.streams[ns].length = cw->s[idx].out.len;
            data_len += cw->s[idx].out.len;
            ns++;
        }
        sf.encodings[c] = w->cs[c].encoding;
    }
    sf.stream_count = ns;
    sf.encoding_count = n;
    sf.writer_timezone = w->has_timestamp ? w->timezone : NULL;
    /* the stripe: index streams, data streams, footer */
    si.offset = w->pos;
    for (size_t c = 0; c < n; c++)
        PM_TRY(emit(w, w->cs[c].index.data, w->cs[c].index.len, err));
    for (size_t c = 0; c < n; c++) {
        const pm_orc_colwriter *cw = w->cols[c];
        for (int k = 0; k < PM_S_COUNT; k++) {
            int idx = KIND_ORDER[k];
            if (cw->has_stream[idx] && !cw->s[idx].suppressed)
                PM_TRY(emit(w, cw->s[idx].out.data, cw->s[idx].out.len, err));
        }
    }
    pm_buf_reset(&w->scratch);
    pm_buf_reset(&w->scratch2);
    if ((rc = pm_orc_encode_stripe_footer(&w->scratch, &sf)) != 0) {
        rc = pm_buf_error(err, rc);
        goto done;
    }
    PM_TRY(
        pm_orc_compress_message(&w->ctx.codec, w->scratch.data, w->scratch.len, &w->scratch2, err));
    PM_TRY(emit(w, w->scratch2.data, w->scratch2.len, err));
    si.index_length = index_len;
    si.data_length = data_len;
    si.footer_length = w->scratch2.len;
    si.number_of_rows = (uint64_t)w->rows_in_stripe;
    if ((rc = pm_buf_append(&w->stripes, &si, sizeof(si))) != 0) {
        rc = pm_buf_error(err, rc);
        goto done;
    }
    /* stripe statistics for the Metadata section */
    pm_buf_reset(&w->scratch);
    for (size_t c = 0; c < n && rc == 0; c++) {
        pm_orc_stats st;
        pm_buf_reset(&w->scratch2);
        pm_orc_stats_out(w->cs[c].stats, &st, true);
        if ((rc = pm_orc_encode_stats(&w->scratch2, &st)) == 0)
            rc = pm_pb_put_bytes(&w->scratch, 1, w->scratch2.data, w->scratch2.len);
    }
    if (rc == 0)
        rc = pm_pb_put_bytes(&w->metadata, 1, w->scratch.data, w->scratch.len);
    if (rc != 0) {
        rc = pm_buf_error(err, rc);
        goto done;
    }
    for (size_t c = 0; c < n; c++)
        PM_TRY(pm_orc_colwriter_next_stripe(w->cols[c], err));
    w->row_count += (uint64_t)w->rows_in_stripe;
    w->rows_in_stripe = 0;
done:
    pm_free(sf.streams);
    pm_free(sf.encodings);
    return rc;
}

/* The end of one of Java's row batches: the memory check every 5,000 rows. */
PM_MUST_CHECK static int end_batch(pm_orc_writer *w, paimon_error *err)
{
    w->rows_since_check += w->rows_in_batch;
    w->rows_in_batch = 0;
    if (w->rows_since_check >= ROWS_PER_CHECK) {
        w->rows_since_check = 0;
        if (pm_orc_colwriter_memory(w->root) > w->stripe_size)
            return flush_stripe(w, err);
    }
    return 0;
}

int pm_orc_writer_write(pm_orc_writer *w, const pm_orc_colview *root, int64_t rows,
                        paimon_error *err)
{
    return pm_orc_writer_write_range(w, root, 0, rows, err);
}

int pm_orc_writer_write_range(pm_orc_writer *w, const pm_orc_colview *root, int64_t first,
                              int64_t rows, paimon_error *err)
{
    int64_t done = first, end = first + rows;
    int rc;
    if (w->closed)
        return pm_err_set(err, PAIMON_EINVALID, "ORC writer: write after close");
    while (done < end) {
        int64_t chunk = end - done;
        if (w->rows_in_batch == 0) {
            int64_t batch = chunk < w->ctx.batch_rows ? chunk : w->ctx.batch_rows;
            pm_orc_colwriter_batch(w->root, root, done, batch);
        }
        if (chunk > w->ctx.batch_rows - w->rows_in_batch)
            chunk = w->ctx.batch_rows - w->rows_in_batch;
        if (chunk > (int64_t)w->ctx.stride - w->rows_in_index)
            chunk = (int64_t)w->ctx.stride - w->rows_in_index;
        if ((rc = pm_orc_colwriter_write_root(w->root, root, done, chunk, err)) != 0)
            return rc;
        done += chunk;
        w->rows_in_index += chunk;
        w->rows_in_stripe += chunk;
        w->rows_in_batch += chunk;
        if (w->rows_in_index >= (int64_t)w->ctx.stride) {
            if ((rc = pm_orc_colwriter_index_entry(w->root, err)) != 0)
                return rc;
            w->rows_in_index = 0;
        }
        if (w->rows_in_batch == w->ctx.batch_rows && (rc = end_batch(w, err)) != 0)
            return rc;
    }
    return 0;
}

int pm_orc_writer_close(pm_orc_writer *w, paimon_error *err)
{
    pm_orc_footer f;
    pm_orc_postscript ps;
    pm_orc_stats *stats = NULL;
    uint64_t content, meta_len, footer_len;
    uint8_t ps_len;
    char software[64];
    int rc = 0;

    if (w->closed)
        return 0;
    w->closed = true;
    if (w->rows_in_batch > 0)
        PM_TRY(end_batch(w, err));
    PM_TRY(flush_stripe(w, err));
    content = w->pos;
    pm_buf_reset(&w->scratch);
    PM_TRY(pm_orc_compress_message(&w->ctx.codec, w->metadata.data, w->metadata.len, &w->scratch,
                                   err));
    PM_TRY(emit(w, w->scratch.data, w->scratch.len, err));
    meta_len = w->scratch.len;
    if ((stats = pm_calloc(w->type_count, sizeof(*stats))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t c = 0; c < w->type_count; c++)
        pm_orc_stats_out(&w->cols[c]->file_stats, &stats[c], true);
    snprintf(software, sizeof(software), "paimon-c %s",
#ifdef PAIMON_VERSION_STRING
             PAIMON_VERSION_STRING
#else
             "dev"
#endif
    );
    memset(&f, 0, sizeof(f));
    f.header_length = 3;
    f.content_length = content;
    f.stripes = (pm_orc_stripe_info *)(void *)w->stripes.data;
    f.stripe_count = w->stripes.len / sizeof(pm_orc_stripe_info);
    f.types = w->types;
    f.type_count = w->type_count;
    f.number_of_rows = w->row_count;
    f.statistics = stats;
    f.statistics_count = w->type_count;
    f.row_index_stride = w->ctx.stride;
    f.writer = PM_ORC_WRITER_ID;
    f.has_writer = true;
    f.calendar = 1; /* JULIAN_GREGORIAN, as ORC Java writes by default */
    f.has_calendar = true;
    f.software_version = software;
    pm_buf_reset(&w->scratch);
    pm_buf_reset(&w->scratch2);
    if ((rc = pm_orc_encode_footer(&w->scratch2, &f)) != 0) {
        rc = pm_buf_error(err, rc);
        goto done;
    }
    PM_TRY(pm_orc_compress_message(&w->ctx.codec, w->scratch2.data, w->scratch2.len, &w->scratch,
                                   err));
    PM_TRY(emit(w, w->scratch.data, w->scratch.len, err));
    footer_len = w->scratch.len;
    memset(&ps, 0, sizeof(ps));
    ps.footer_length = footer_len;
    ps.compression = w->ctx.codec.kind;
    ps.compression_block_size = w->ctx.codec.block_size;
    ps.has_compression_block_size = w->ctx.codec.kind != PM_ORC_NONE;
    ps.version[0] = 0;
    ps.version[1] = 12;
    ps.version_count = 2;
    ps.metadata_length = meta_len;
    ps.writer_version = 9;
    ps.has_writer_version = true;
    pm_buf_reset(&w->scratch);
    if ((rc = pm_orc_encode_postscript(&w->scratch, &ps)) != 0) {
        rc = pm_buf_error(err, rc);
        goto done;
    }
    ps_len = (uint8_t)w->scratch.len;
    PM_TRY(emit(w, w->scratch.data, w->scratch.len, err));
    PM_TRY(emit(w, &ps_len, 1, err));
done:
    pm_free(stats);
    return rc;
}
