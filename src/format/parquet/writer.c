/*
 * The Parquet file writer: record shredding (batch columns to definition/repetition levels
 * and leaf values), row groups, page indexes and the footer.  See writer.h.
 *
 * Shredding (Dremel) for one leaf walks its path of columns for each row: a null slot of an
 * optional column emits the definition level reached so far; a present one adds 1; a list
 * or map emits one entry per element, the first with the row's repetition level and the
 * rest with the repeated group's, and an empty one a single entry without a value.
 */
#include "format/parquet/writer_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format/parquet/thrift.h"
#include "util/alloc.h"
#include "util/bytes.h"

#define SLICE_ROWS 4096 /* rows shredded at a time between page-size checks */

typedef struct rg_meta {
    pq_row_group rg;
    pq_column_index **ci; /* per column, NULL when not written */
    pq_offset_index **oi;
} rg_meta;

struct pm_pq_writer {
    pm_output *out;
    pm_type *type;
    pm_pq_writer_options o;
    pm_arena arena; /* schema, leaves, footer data */
    pq_schema_elem *schema;
    uint32_t schema_count;
    pq_wleaf *leaves;
    int leaf_count;
    pq_colw **cols;
    pq_wctx x;
    rg_meta *groups;
    uint32_t group_count, group_cap;
    int64_t rg_rows, rows;
    pm_buf def, rep, idx; /* shredding scratch */
    bool failed;
    paimon_error fail_err; /* why, when a page job failed (settle) */
    bool rg_streamed;      /* the open row group's chunks stream into the output's segments */
};

/* ---- options --------------------------------------------------------------------------- */

PM_MUST_CHECK static int parse_i64(const char *key, const char *v, int64_t lo, int64_t *out,
                                   paimon_error *err)
{
    char *end;
    long long n;
    errno = 0;
    n = strtoll(v, &end, 10);
    while (*end == ' ')
        end++;
    if (errno != 0 || end == v || *end != '\0' || n < lo)
        return pm_err_set(err, PAIMON_EINVALID, "option %s: '%s' is not a valid number", key, v);
    *out = n;
    return 0;
}

PM_MUST_CHECK static int parse_bool(const char *key, const char *v, bool *out, paimon_error *err)
{
    if (strcasecmp(v, "true") == 0)
        *out = true;
    else if (strcasecmp(v, "false") == 0)
        *out = false;
    else
        return pm_err_set(err, PAIMON_EINVALID, "option %s: '%s' is not true or false", key, v);
    return 0;
}

PM_MUST_CHECK static int parse_codec(const char *key, const char *v, int *out, paimon_error *err)
{
    static const struct {
        const char *name;
        int codec;
    } names[] = {{"zstd", PQ_ZSTD},
                 {"snappy", PQ_SNAPPY},
                 {"gzip", PQ_GZIP},
                 {"lz4", PQ_LZ4_RAW},
                 {"lz4_raw", PQ_LZ4_RAW},
                 {"none", PQ_UNCOMPRESSED},
                 {"uncompressed", PQ_UNCOMPRESSED}};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcasecmp(v, names[i].name) == 0) {
            *out = names[i].codec;
            return 0;
        }
    return pm_err_set(err, PAIMON_EINVALID, "option %s: unsupported Parquet compression '%s'", key,
                      v);
}

int pm_pq_writer_options_parse(pm_pq_writer_options *o, const char *const *keys,
                               const char *const *values, size_t count, paimon_error *err)
{
    const char *parquet_codec = NULL;
    int rc = 0;
    for (size_t i = 0; i < count && rc == 0; i++) {
        const char *k = keys[i], *v = values[i];
        int64_t n;
        if (strcmp(k, "file.compression") == 0)
            rc = parse_codec(k, v, &o->codec, err);
        else if (strcmp(k, "parquet.compression") == 0)
            parquet_codec = v;
        else if (strcmp(k, "file.compression.zstd-level") == 0 &&
                 (rc = parse_i64(k, v, 1, &n, err)) == 0)
            o->level = (int)(n > 22 ? 22 : n);
        else if (strcmp(k, "parquet.block.size") == 0)
            rc = parse_i64(k, v, 1, &o->block_size, err);
        else if (strcmp(k, "parquet.page.size") == 0)
            rc = parse_i64(k, v, 1, &o->page_size, err);
        else if (strcmp(k, "parquet.page.row.count.limit") == 0)
            rc = parse_i64(k, v, 1, &o->page_row_limit, err);
        else if (strcmp(k, "parquet.dictionary.page.size") == 0)
            rc = parse_i64(k, v, 1, &o->dict_page_size, err);
        else if (strcmp(k, "parquet.enable.dictionary") == 0)
            rc = parse_bool(k, v, &o->dictionary, err);
        else if (strcmp(k, "parquet.page.write-checksum.enabled") == 0)
            rc = parse_bool(k, v, &o->write_crc, err);
        else if (strcmp(k, "parquet.columnindex.truncate.length") == 0 &&
                 (rc = parse_i64(k, v, 1, &n, err)) == 0)
            o->index_truncate = (int32_t)(n > INT32_MAX ? INT32_MAX : n);
    }
    /* parquet.compression wins over file.compression (RowDataParquetBuilder) */
    if (rc == 0 && parquet_codec != NULL)
        rc = parse_codec("parquet.compression", parquet_codec, &o->codec, err);
    return rc;
}

/* ---- open ------------------------------------------------------------------------------ */

static void writer_free(pm_pq_writer *w)
{
    if (w == NULL)
        return;
    pm_pq_page_jobs_free(w->x.jobs); /* first: it waits for the jobs still out */
    for (int i = 0; w->cols != NULL && i < w->leaf_count; i++)
        pm_pq_colw_free(w->cols[i]);
    pm_free(w->cols);
    pm_free(w->groups);
    pm_type_free(w->type);
    pm_codec_ctx_free(w->x.codec);
    pm_buf_free(&w->x.raw);
    pm_buf_free(&w->x.comp);
    pm_buf_free(&w->x.hdr);
    pm_buf_free(&w->x.conv);
    pm_buf_free(&w->def);
    pm_buf_free(&w->rep);
    pm_buf_free(&w->idx);
    pm_arena_free(&w->arena);
    pm_free(w);
}

void pm_pq_writer_abort(pm_pq_writer *w)
{
    if (w == NULL)
        return;
    if (w->out != NULL)
        w->out->abort(w->out);
    writer_free(w);
}

int pm_pq_writer_open(pm_pq_writer **out, pm_output *o, const pm_type *row_type,
                      const pm_pq_writer_options *opts, paimon_error *err)
{
    pm_pq_writer_options defaults = PM_PQ_WRITER_OPTIONS_INIT;
    pm_pq_writer *w;
    int rc = 0;

    *out = NULL;
    if ((w = pm_calloc(1, sizeof(*w))) == NULL) {
        o->abort(o);
        return pm_nomem(err);
    }
    w->out = o;
    w->o = opts != NULL ? *opts : defaults;
    pm_arena_init(&w->arena, 16 * 1024);
    pm_buf_init(&w->x.raw, 0);
    pm_buf_init(&w->x.comp, 0);
    pm_buf_init(&w->x.hdr, 0);
    pm_buf_init(&w->x.conv, 0);
    pm_buf_init(&w->def, 0);
    pm_buf_init(&w->rep, 0);
    pm_buf_init(&w->idx, 0);
    w->x.o = &w->o;
    if (w->o.codec != PQ_ZSTD && w->o.codec != PQ_SNAPPY && w->o.codec != PQ_GZIP &&
        w->o.codec != PQ_LZ4_RAW && w->o.codec != PQ_UNCOMPRESSED) {
        rc = pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: cannot write Parquet codec %s", o->path,
                        pm_pq_codec_name(w->o.codec));
        goto done;
    }
    if ((w->type = pm_type_clone(row_type)) == NULL || (w->x.codec = pm_codec_ctx_new()) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    PM_TRY(pm_pq_wschema_build(w->type, &w->arena, &w->schema, &w->schema_count, &w->leaves,
                               &w->leaf_count, err));
    if ((w->cols = pm_calloc((size_t)w->leaf_count + 1, sizeof(pq_colw *))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (int i = 0; i < w->leaf_count; i++)
        if ((w->cols[i] = pm_pq_colw_new(&w->leaves[i], &w->o)) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
    PM_TRY(o->write(o, "PAR1", 4, err));
    *out = w;
    w = NULL;
done:
    pm_pq_writer_abort(w);
    return rc;
}

int64_t pm_pq_writer_rows(const pm_pq_writer *w)
{
    return w->rows;
}

int64_t pm_pq_writer_data_size(const pm_pq_writer *w)
{
    int64_t size = (int64_t)w->out->pos;
    for (int i = 0; i < w->leaf_count; i++)
        size += pm_pq_colw_buffered(w->cols[i]);
    return size;
}

/* Takes back the page jobs (writer_int.h) when an upper bound `size` of something reaches
 * `limit`, so that the caller's decision is taken on the exact size; a failure of a job
 * fails the writer, with the job's error, at the next call that can report it. */
static bool settle(pm_pq_writer *w, int64_t size, int64_t limit)
{
    paimon_error e = {0, {0}};
    if (size < limit || !pm_pq_page_jobs_pending(w->x.jobs))
        return false;
    if (pm_pq_page_jobs_drain(&w->x, &e) != 0 && !w->failed) {
        w->failed = true;
        w->fail_err = e;
    }
    return true;
}

bool pm_pq_writer_reach_target(pm_pq_writer *w, int64_t target)
{
    if (settle(w, pm_pq_writer_data_size(w), target) && w->failed)
        return true; /* the close reports it */
    return pm_pq_writer_data_size(w) >= target;
}

int pm_pq_writer_set_pool(pm_pq_writer *w, pm_pool *pool, paimon_error *err)
{
    size_t slots = (size_t)w->leaf_count + 1;
    if (pool == NULL || w->x.jobs != NULL || w->o.codec == PQ_UNCOMPRESSED || w->rows > 0)
        return 0;
    /* one page of each column out at once: their pages end together (the same row limit) */
    if (slots > PQ_PAGE_JOBS_MAX)
        slots = PQ_PAGE_JOBS_MAX;
    return pm_pq_page_jobs_new(&w->x.jobs, pool, w->o.codec, w->o.level, slots, err);
}

/* ---- shredding ------------------------------------------------------------------------- */

typedef struct shred_ctx {
    pm_pq_writer *w;
    const pq_wleaf *l;
    int64_t entries, values;
    paimon_error *err;
} shred_ctx;

static int emit(shred_ctx *s, int def, int rep, int64_t value)
{
    pm_pq_writer *w = s->w;
    int rc;
    if ((rc = pm_buf_putc(&w->def, (uint8_t)def)) != 0 ||
        (rc = pm_buf_putc(&w->rep, (uint8_t)rep)) != 0)
        return pm_buf_error(s->err, rc);
    s->entries++;
    if (value >= 0) {
        if ((rc = pm_buf_append(&w->idx, &value, sizeof(value))) != 0)
            return pm_buf_error(s->err, rc);
        s->values++;
    }
    return 0;
}

static int shred(shred_ctx *s, int k, const pm_column *c, int64_t i, int def, int rep)
{
    const pq_wstep *st = &s->l->steps[k];
    int rc = 0;
    if (!pm_column_is_valid(c, i)) {
        if (!st->optional)
            return pm_err_set(s->err, PAIMON_EINVALID, "%s: null in a NOT NULL column %s",
                              s->w->out->path, s->l->path[s->l->path_len - 1]);
        return emit(s, def, rep, -1);
    }
    if (st->optional)
        def++;
    switch (st->kind) {
    case PQ_WS_LEAF: return emit(s, def, rep, i);
    case PQ_WS_STRUCT: return shred(s, k + 1, c->children[st->child], i, def, rep);
    default: {
        int32_t a = pm_column_offset(c, i), b = pm_column_offset(c, i + 1);
        if (a == b)
            return emit(s, def, rep, -1);
        for (int32_t j = a; j < b && rc == 0; j++)
            rc = shred(s, k + 1, c->children[st->child], j, def + 1, j == a ? rep : st->rep_level);
        return rc;
    }
    }
}

/* The batch column of a leaf's top-level column, and its leaf column. */
static const pm_column *leaf_column(const pq_wleaf *l, const pm_column *c)
{
    for (int k = 0; k < l->step_count; k++) {
        const pq_wstep *st = &l->steps[k];
        if (st->kind == PQ_WS_LEAF)
            break;
        c = c->children[st->child];
    }
    return c;
}

PM_MUST_CHECK static int write_slice(pm_pq_writer *w, const pm_batch *b, int64_t r0, int64_t n,
                                     paimon_error *err)
{
    int rc;
    for (int li = 0; li < w->leaf_count; li++) {
        const pq_wleaf *l = &w->leaves[li];
        const pm_column *top = b->columns[l->top];
        pq_colw *cw = w->cols[li];
        if (l->step_count == 1) {
            /* a top-level primitive: levels straight from the validity bitmap */
            const int64_t *idx = NULL;
            int64_t values = n;
            const uint8_t *def = NULL;
            if (top->null_count > 0) {
                w->def.len = 0;
                w->idx.len = 0;
                if ((rc = pm_buf_reserve(&w->def, (size_t)n)) != 0 ||
                    (rc = pm_buf_reserve(&w->idx, (size_t)n * 8)) != 0)
                    return pm_buf_error(err, rc);
                values = 0;
                for (int64_t i = 0; i < n; i++) {
                    bool valid = pm_column_is_valid(top, r0 + i);
                    w->def.data[i] = valid;
                    if (valid)
                        ((int64_t *)(void *)w->idx.data)[values++] = r0 + i;
                }
                if (!l->steps[0].optional && values < n)
                    return pm_err_set(err, PAIMON_EINVALID, "%s: null in a NOT NULL column %s",
                                      w->out->path, l->path[0]);
                idx = (const int64_t *)(const void *)w->idx.data;
                def = w->def.data;
            } else if (l->max_def > 0) {
                w->def.len = 0;
                if ((rc = pm_buf_reserve(&w->def, (size_t)n)) != 0)
                    return pm_buf_error(err, rc);
                memset(w->def.data, 1, (size_t)n);
                def = w->def.data;
            }
            rc = pm_pq_colw_add(cw, &w->x, def, NULL, n, n, top, idx, r0, values, err);
        } else {
            shred_ctx s = {w, l, 0, 0, err};
            w->def.len = w->rep.len = w->idx.len = 0;
            for (int64_t i = 0; i < n; i++)
                if ((rc = shred(&s, 0, top, r0 + i, 0, 0)) != 0)
                    return rc;
            rc = pm_pq_colw_add(cw, &w->x, w->def.data, w->rep.data, s.entries, n,
                                leaf_column(l, top), (const int64_t *)(const void *)w->idx.data, 0,
                                s.values, err);
        }
        if (rc != 0 || (rc = pm_pq_colw_maybe_flush(cw, &w->x, false, err)) != 0)
            return rc;
    }
    return 0;
}

/* ---- row groups ------------------------------------------------------------------------ */

PM_MUST_CHECK static int flush_row_group(pm_pq_writer *w, paimon_error *err)
{
    rg_meta *g;
    int64_t start = (int64_t)w->out->pos, at = 0; /* where the row group and its next chunk start */
    int rc;

    if (w->rg_rows == 0)
        return 0;
    if (w->group_count == w->group_cap) {
        uint32_t cap = w->group_cap < 4 ? 4 : w->group_cap * 2;
        rg_meta *grown = pm_realloc(w->groups, cap * sizeof(rg_meta));
        if (grown == NULL)
            return pm_nomem(err);
        w->groups = grown;
        w->group_cap = cap;
    }
    g = &w->groups[w->group_count];
    memset(g, 0, sizeof(*g));
    g->rg.columns = pm_arena_calloc(&w->arena, (size_t)w->leaf_count + 1, sizeof(pq_column_chunk));
    g->ci = pm_arena_calloc(&w->arena, (size_t)w->leaf_count + 1, sizeof(pq_column_index *));
    g->oi = pm_arena_calloc(&w->arena, (size_t)w->leaf_count + 1, sizeof(pq_offset_index *));
    if (g->rg.columns == NULL || g->ci == NULL || g->oi == NULL)
        return pm_nomem(err);
    for (int i = 0; i < w->leaf_count; i++) {
        if ((rc = pm_pq_colw_finish(w->cols[i], &w->x, w->out, start + at, &w->arena,
                                    &g->rg.columns[i], &g->ci[i], &g->oi[i], err)) != 0)
            return rc;
        at += g->rg.columns[i].meta.total_compressed_size;
        g->rg.total_byte_size += g->rg.columns[i].meta.total_uncompressed_size;
    }
    if (w->rg_streamed) {
        w->rg_streamed = false;
        if ((rc = w->out->segments_end(w->out, err)) != 0)
            return rc;
    }
    g->rg.column_count = (uint32_t)w->leaf_count;
    g->rg.num_rows = w->rg_rows;
    g->rg.has_file_offset = g->rg.has_total_compressed_size = g->rg.has_ordinal = true;
    g->rg.file_offset = start;
    g->rg.total_compressed_size = (int64_t)w->out->pos - start;
    g->rg.ordinal = (int16_t)w->group_count;
    w->group_count++;
    w->rg_rows = 0;
    return 0;
}

int pm_pq_writer_write(pm_pq_writer *w, const pm_batch *b, paimon_error *err)
{
    return pm_pq_writer_write_range(w, b, 0, b->row_count, err);
}

/* The error of a writer that failed: a page job's own, else the general one. */
PM_MUST_CHECK static int failed_before(const pm_pq_writer *w, paimon_error *err)
{
    if (w->fail_err.code != 0) {
        if (err != NULL)
            *err = w->fail_err;
        return w->fail_err.code;
    }
    return pm_err_set(err, PAIMON_EINVALID, "%s: the writer failed before", w->out->path);
}

int pm_pq_writer_write_range(pm_pq_writer *w, const pm_batch *b, int64_t first, int64_t count,
                             paimon_error *err)
{
    int rc = 0;
    if (w->failed)
        return failed_before(w, err);
    if (b->column_count != w->type->field_count)
        return pm_err_set(err, PAIMON_EINVALID, "%s: batch of %zu columns, the file has %zu",
                          w->out->path, b->column_count, w->type->field_count);
    if (first < 0 || count < 0 || first + count > b->row_count)
        return pm_err_set(err, PAIMON_EINVALID, "%s: rows [%lld, %lld) outside the batch",
                          w->out->path, (long long)first, (long long)(first + count));
    for (int64_t r = first; r < first + count && rc == 0;) {
        int64_t n = first + count - r, room = SLICE_ROWS, buffered = 0;
        /* keep every page within its row limit */
        for (int i = 0; i < w->leaf_count; i++) {
            int64_t left = w->o.page_row_limit - pm_pq_colw_page_rows(w->cols[i]);
            if (left < room)
                room = left > 0 ? left : 1;
        }
        if (n > room)
            n = room;
        if (!w->rg_streamed && w->rg_rows == 0 && w->out->segments_begin != NULL) {
            /* a new row group on an output that can take its chunks out of order: each
             * chunk's pages leave as they are finished (two segments a chunk: dictionary
             * page, data pages), not all at the row group's end */
            /* a row group passes block_size by one slice at most: twice is a safe bound */
            if ((rc = w->out->segments_begin(w->out, 2 * (size_t)w->leaf_count,
                                             2 * (uint64_t)w->o.block_size, err)) != 0)
                break;
            for (int i = 0; i < w->leaf_count; i++)
                pm_pq_colw_stream(w->cols[i], w->out, 2 * (size_t)i);
            w->rg_streamed = true;
        }
        if ((rc = write_slice(w, b, r, n, err)) != 0)
            break;
        r += n;
        w->rg_rows += n;
        w->rows += n;
        for (int i = 0; i < w->leaf_count; i++)
            buffered += pm_pq_colw_buffered(w->cols[i]);
        if (settle(w, buffered, w->o.block_size)) {
            if (w->failed)
                return failed_before(w, err);
            buffered = 0;
            for (int i = 0; i < w->leaf_count; i++)
                buffered += pm_pq_colw_buffered(w->cols[i]);
        }
        if (buffered >= w->o.block_size)
            rc = flush_row_group(w, err);
    }
    if (rc != 0)
        w->failed = true;
    return rc;
}

/* ---- close ----------------------------------------------------------------------------- */

PM_MUST_CHECK static int write_indexes(pm_pq_writer *w, paimon_error *err)
{
    pm_buf buf;
    int rc = 0;
    pm_buf_init(&buf, 0);
    /* all column indexes, then all offset indexes (parquet-java's order) */
    for (int pass = 0; pass < 2 && rc == 0; pass++)
        for (uint32_t g = 0; g < w->group_count && rc == 0; g++)
            for (int c = 0; c < w->leaf_count && rc == 0; c++) {
                pq_column_chunk *cc = &w->groups[g].rg.columns[c];
                pm_thrift_writer tw;
                if (pass == 0 ? w->groups[g].ci[c] == NULL : w->groups[g].oi[c] == NULL)
                    continue;
                buf.len = 0;
                pm_thrift_writer_init(&tw, &buf);
                if (pass == 0)
                    pm_pq_write_column_index(&tw, w->groups[g].ci[c]);
                else
                    pm_pq_write_offset_index(&tw, w->groups[g].oi[c]);
                if (tw.rc != 0) {
                    rc = pm_buf_error(err, tw.rc);
                    break;
                }
                if (pass == 0) {
                    cc->has_column_index = true;
                    cc->column_index_offset = (int64_t)w->out->pos;
                    cc->column_index_length = (int32_t)buf.len;
                } else {
                    cc->has_offset_index = true;
                    cc->offset_index_offset = (int64_t)w->out->pos;
                    cc->offset_index_length = (int32_t)buf.len;
                }
                rc = w->out->write(w->out, buf.data, buf.len, err);
            }
    pm_buf_free(&buf);
    return rc;
}

int pm_pq_writer_close(pm_pq_writer *w, uint64_t *file_size, paimon_error *err)
{
    pq_file_meta m;
    pq_row_group *groups = NULL;
    pm_buf footer;
    pm_thrift_writer tw;
    uint8_t tail[8];
    int rc = 0;

    pm_buf_init(&footer, 0);
    if (w->failed) {
        rc = failed_before(w, err);
        goto done;
    }
    PM_TRY(flush_row_group(w, err));
    PM_TRY(write_indexes(w, err));
    if (w->group_count > 0 && (groups = pm_calloc(w->group_count, sizeof(pq_row_group))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (uint32_t g = 0; g < w->group_count; g++)
        groups[g] = w->groups[g].rg;
    memset(&m, 0, sizeof(m));
    m.version = 1;
    m.schema = w->schema;
    m.schema_count = w->schema_count;
    m.num_rows = w->rows;
    m.row_groups = groups;
    m.row_group_count = w->group_count;
    m.created_by = "paimon-c version " PAIMON_VERSION_STRING " (build paimon-c)";
    m.column_order_count = (uint32_t)w->leaf_count;
    pm_thrift_writer_init(&tw, &footer);
    pm_pq_write_file_meta(&tw, &m);
    if (tw.rc != 0) {
        rc = pm_buf_error(err, tw.rc);
        goto done;
    }
    pm_store_le32(tail, (uint32_t)footer.len);
    memcpy(tail + 4, "PAR1", 4);
    PM_TRY(w->out->write(w->out, footer.data, footer.len, err));
    PM_TRY(w->out->write(w->out, tail, 8, err));
    if (file_size != NULL)
        *file_size = w->out->pos;
    {
        pm_output *o = w->out;
        w->out = NULL;
        rc = o->close(o, err);
    }
done:
    pm_free(groups);
    pm_buf_free(&footer);
    if (rc != 0)
        pm_pq_writer_abort(w);
    else
        writer_free(w);
    return rc;
}
