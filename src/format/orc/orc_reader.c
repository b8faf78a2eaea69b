/*
 * Reading ORC files: see orc_reader.h.  The file layout (docs/format/orc.md):
 *
 *   OFFSET              SIZE             DESCRIPTION
 *   0                   3                "ORC"
 *   3                   ...              stripes: index streams, data streams, stripe footer
 *   ...                 metadataLength   Metadata (stripe statistics), compressed
 *   ...                 footerLength     Footer, compressed
 *   size - 1 - psLen    psLen            PostScript, never compressed
 *   size - 1            1                psLen
 */
#include "format/orc/orc_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/orc/orc_column.h"
#include "format/orc/orc_stream_jobs.h"
#include "util/alloc.h"
#include "util/assert.h"

#define TAIL_READ 16384
#define MAX_TAIL  ((size_t)256 << 20) /* footer + metadata */
#define BASE_2015 1420070400LL        /* 2015-01-01T00:00:00Z */

struct pm_orc_reader {
    pm_input *in;
    char *path;
    uint64_t size;
    pm_arena arena; /* footer, metadata */
    pm_buf footer_buf, meta_buf;
    pm_orc_postscript ps;
    size_t ps_len;
    pm_orc_footer footer;
    pm_orc_codec codec;
    bool decimal64; /* file version 1.9999 (UNSTABLE-PRE-2.0): DECIMAL(p <= 18) as longs */
    bool meta_loaded;
    pm_orc_stripe_stats *sstats;
    size_t sstats_count;

    /* inspection (stripe_footer, row_index, stream_bytes) */
    pm_arena insp_arena;
    pm_buf insp_buf;
    pm_orc_stripe_footer insp_sf;
    size_t insp_stripe;
    bool insp_valid;
    pm_orc_row_index insp_ri;

    /* the current read */
    pm_orc_read_options opts;
    bool *include;
    pm_orc_colreader *root;
    pm_orc_vec *vec;
    size_t stripe;      /* next stripe to plan */
    uint64_t first_row; /* file row number of stripe `stripe` */
    bool in_stripe;
    pm_arena stripe_arena;
    pm_buf sf_buf, raw;
    pm_orc_stripe_footer sf;
    const pm_orc_row_index **indexes; /* per column, current stripe; NULL = not loaded */
    pm_buf spans;                     /* int64 pairs, relative to the stripe */
    size_t span_idx;
    int64_t pos; /* rows of the stripe consumed from the streams */
    int64_t cur_rows;
    pm_orc_tz *tz;
    int64_t skipped_stripes, skipped_groups, skipped_rows;
    /* the stripe's streams decompressed at once on opts.pool (load_streams) */
    pm_orc_stream_jobs jobs;
    bool jobs_loaded; /* for this stripe: setup_column takes the jobs' results */
    size_t job_next;  /* the next job setup_column takes */
};

const pm_orc_postscript *pm_orc_reader_postscript(const pm_orc_reader *r)
{
    return &r->ps;
}

const pm_orc_footer *pm_orc_reader_footer(const pm_orc_reader *r)
{
    return &r->footer;
}

const char *pm_orc_reader_path(const pm_orc_reader *r)
{
    return r->path;
}

uint64_t pm_orc_reader_file_size(const pm_orc_reader *r)
{
    return r->size;
}

int64_t pm_orc_reader_streams_on_pool(const pm_orc_reader *r)
{
    return r->jobs.on_pool;
}

void pm_orc_reader_skipped(const pm_orc_reader *r, int64_t *stripes, int64_t *groups, int64_t *rows)
{
    *stripes = r->skipped_stripes;
    *groups = r->skipped_groups;
    *rows = r->skipped_rows;
}

bool pm_orc_field_id(const pm_orc_type *t, int32_t *id)
{
    const char *s = pm_orc_type_attr(t, "paimon.id");
    char *end;
    long v;
    if (s == NULL || *s == '\0')
        return false;
    v = strtol(s, &end, 10);
    if (*end != '\0' || v < INT32_MIN || v > INT32_MAX)
        return false;
    *id = (int32_t)v;
    return true;
}

static void read_reset(pm_orc_reader *r)
{
    pm_orc_colreader_free(r->root);
    pm_orc_vec_free(r->vec);
    pm_free(r->include);
    pm_free(r->indexes);
    r->root = NULL;
    r->vec = NULL;
    r->include = NULL;
    r->indexes = NULL;
    r->in_stripe = false;
}

void pm_orc_reader_free(pm_orc_reader *r)
{
    if (r == NULL)
        return;
    read_reset(r);
    if (r->in != NULL)
        r->in->close(r->in);
    pm_free(r->path);
    pm_arena_free(&r->arena);
    pm_arena_free(&r->insp_arena);
    pm_arena_free(&r->stripe_arena);
    pm_buf_free(&r->footer_buf);
    pm_buf_free(&r->meta_buf);
    pm_buf_free(&r->insp_buf);
    pm_buf_free(&r->sf_buf);
    pm_buf_free(&r->raw);
    pm_buf_free(&r->spans);
    pm_orc_tz_free(r->tz);
    pm_codec_ctx_free(r->codec.ctx);
    pm_orc_stream_jobs_free(&r->jobs);
    pm_free(r);
}

/* Reads `len` bytes at `off` (already checked to lie inside the file) into `out`. */
PM_MUST_CHECK static int read_range(pm_orc_reader *r, uint64_t off, size_t len, pm_buf *out,
                                    paimon_error *err)
{
    int rc;
    pm_buf_reset(out);
    if ((rc = pm_buf_reserve(out, len)) != 0)
        return pm_buf_error(err, rc);
    if ((rc = r->in->read_at(r->in, off, len, out->data, err)) != 0)
        return rc;
    out->len = len;
    return 0;
}

PM_MUST_CHECK static int check_stripes(pm_orc_reader *r, uint64_t content_end, paimon_error *err)
{
    uint64_t rows = 0;
    for (size_t i = 0; i < r->footer.stripe_count; i++) {
        const pm_orc_stripe_info *s = &r->footer.stripes[i];
        uint64_t end;
        if (s->offset < 3 || __builtin_add_overflow(s->offset, s->index_length, &end) ||
            __builtin_add_overflow(end, s->data_length, &end) ||
            __builtin_add_overflow(end, s->footer_length, &end) || end > content_end ||
            s->footer_length == 0 || __builtin_add_overflow(rows, s->number_of_rows, &rows))
            return pm_corrupt(err,
                              "%s: ORC stripe %zu (offset %llu) lies outside the file's "
                              "body",
                              r->path, i, (unsigned long long)s->offset);
    }
    if (rows != r->footer.number_of_rows)
        return pm_corrupt(err, "%s: ORC stripes hold %llu rows, the footer says %llu", r->path,
                          (unsigned long long)rows, (unsigned long long)r->footer.number_of_rows);
    return 0;
}

int pm_orc_reader_open(pm_orc_reader **out, pm_input *in, const char *path, paimon_error *err)
{
    pm_orc_reader *r = pm_calloc(1, sizeof(*r));
    pm_buf tail;
    size_t tail_len, ps_len;
    uint64_t footer_off, meta_off, tail_off;
    int rc = 0;

    *out = NULL;
    pm_buf_init(&tail, 0);
    if (r == NULL) {
        in->close(in);
        return pm_nomem(err);
    }
    r->in = in;
    r->size = in->size;
    pm_orc_stream_jobs_init(&r->jobs);
    pm_arena_init(&r->arena, 1 << 14);
    pm_arena_init(&r->insp_arena, 1 << 12);
    pm_arena_init(&r->stripe_arena, 1 << 14);
    pm_buf_init(&r->footer_buf, MAX_TAIL);
    pm_buf_init(&r->meta_buf, MAX_TAIL);
    pm_buf_init(&r->insp_buf, 0);
    pm_buf_init(&r->sf_buf, 0);
    pm_buf_init(&r->raw, 0);
    pm_buf_init(&r->spans, 0);
    if ((r->path = pm_strdup(path)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    if (r->size < 4) {
        rc = pm_corrupt(err, "%s: not an ORC file (%llu bytes)", path, (unsigned long long)r->size);
        goto done;
    }
    tail_len = r->size < TAIL_READ ? (size_t)r->size : TAIL_READ;
    tail_off = r->size - tail_len;
    PM_TRY(read_range(r, tail_off, tail_len, &tail, err));
    {
        uint8_t head[3];
        PM_TRY(in->read_at(in, 0, 3, head, err));
        if (memcmp(head, "ORC", 3) != 0) {
            rc = pm_corrupt(err, "%s: not an ORC file (no \"ORC\" at offset 0)", path);
            goto done;
        }
    }
    ps_len = tail.data[tail_len - 1];
    if (ps_len == 0 || ps_len + 1 > tail_len || ps_len + 4 > r->size) {
        rc = pm_corrupt(err, "%s: ORC PostScript length %zu at offset %llu does not fit the file",
                        path, ps_len, (unsigned long long)(r->size - 1));
        goto done;
    }
    r->ps_len = ps_len;
    PM_TRY(pm_orc_decode_postscript(tail.data + tail_len - 1 - ps_len, ps_len, r->size - 1 - ps_len,
                                    path, &r->ps, err));
    if (r->ps.footer_length > r->size - 4 - ps_len ||
        r->ps.metadata_length > r->size - 4 - ps_len - r->ps.footer_length ||
        r->ps.footer_length + r->ps.metadata_length > MAX_TAIL) {
        rc = pm_corrupt(err,
                        "%s: ORC footer (%llu bytes) and metadata (%llu bytes) do not fit "
                        "the file",
                        path, (unsigned long long)r->ps.footer_length,
                        (unsigned long long)r->ps.metadata_length);
        goto done;
    }
    PM_TRY(pm_orc_codec_check(r->ps.compression, path, err));
    r->codec.kind = r->ps.compression;
    r->codec.block_size =
        r->ps.has_compression_block_size ? (size_t)r->ps.compression_block_size : 256 * 1024;
    if (r->codec.kind != PM_ORC_NONE &&
        (r->codec.block_size == 0 || r->codec.block_size >= PM_ORC_MAX_CHUNK)) {
        rc = pm_corrupt(err, "%s: ORC compression block size %llu is out of range", path,
                        (unsigned long long)r->ps.compression_block_size);
        goto done;
    }
    if (r->codec.kind != PM_ORC_NONE && (r->codec.ctx = pm_codec_ctx_new()) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    r->decimal64 = r->ps.version_count == 2 && r->ps.version[0] == 1 && r->ps.version[1] == 9999;
    footer_off = r->size - 1 - ps_len - r->ps.footer_length;
    meta_off = footer_off - r->ps.metadata_length;
    {
        /* the footer is usually inside the tail already read */
        pm_buf raw;
        const uint8_t *src;
        pm_buf_init(&raw, 0);
        if (footer_off >= tail_off) {
            src = tail.data + (footer_off - tail_off);
        } else {
            rc = read_range(r, footer_off, (size_t)r->ps.footer_length, &raw, err);
            src = raw.data;
        }
        if (rc == 0)
            rc = pm_orc_decompress(&r->codec, src, (size_t)r->ps.footer_length, footer_off, path,
                                   "footer", &r->footer_buf, NULL, err);
        pm_buf_free(&raw);
        if (rc != 0)
            goto done;
    }
    PM_TRY(pm_orc_decode_footer(r->footer_buf.data, r->footer_buf.len, footer_off, path, &r->arena,
                                &r->footer, err));
    if (r->footer.has_encryption) {
        rc = pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: encrypted ORC columns are not supported",
                        path);
        goto done;
    }
    PM_TRY(check_stripes(r, meta_off, err));
done:
    pm_buf_free(&tail);
    if (rc != 0) {
        pm_orc_reader_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

/* ---- files in memory ------------------------------------------------------------------ */

typedef struct mem_input {
    pm_input base;
    const uint8_t *data;
} mem_input;

PM_MUST_CHECK static int mem_read_at(pm_input *in, uint64_t off, size_t len, uint8_t *dst,
                                     paimon_error *err)
{
    const mem_input *m = (const mem_input *)in;
    if (off > in->size || len > in->size - off)
        return pm_corrupt(err, "%s: read of %zu bytes at offset %llu beyond the end (%llu bytes)",
                          in->path, len, (unsigned long long)off, (unsigned long long)in->size);
    if (len > 0)
        memcpy(dst, m->data + off, len);
    return 0;
}

static void mem_close(pm_input *in)
{
    pm_free(in);
}

int pm_orc_reader_open_memory(pm_orc_reader **out, const uint8_t *data, size_t len,
                              const char *path, paimon_error *err)
{
    mem_input *m = pm_calloc(1, sizeof(*m));
    *out = NULL;
    if (m == NULL)
        return pm_nomem(err);
    m->base.read_at = mem_read_at;
    m->base.close = mem_close;
    m->base.size = len;
    m->base.path = path;
    m->data = data;
    return pm_orc_reader_open(out, &m->base, path, err);
}

int pm_orc_reader_stripe_stats(pm_orc_reader *r, const pm_orc_stripe_stats **out, size_t *count,
                               paimon_error *err)
{
    if (!r->meta_loaded) {
        uint64_t meta_off = r->size - 1 - r->ps_len - r->ps.footer_length - r->ps.metadata_length;
        pm_buf raw;
        int rc;
        pm_buf_init(&raw, 0);
        /* a load that failed before may have left part of it: decompressing appends */
        pm_buf_reset(&r->meta_buf);
        rc = read_range(r, meta_off, (size_t)r->ps.metadata_length, &raw, err);
        if (rc == 0)
            rc = pm_orc_decompress(&r->codec, raw.data, raw.len, meta_off, r->path, "metadata",
                                   &r->meta_buf, NULL, err);
        pm_buf_free(&raw);
        if (rc == 0)
            rc = pm_orc_decode_metadata(r->meta_buf.data, r->meta_buf.len, meta_off, r->path,
                                        &r->arena, &r->sstats, &r->sstats_count, err);
        if (rc != 0)
            return rc;
        r->meta_loaded = true;
    }
    *out = r->sstats;
    *count = r->sstats_count;
    return 0;
}

/* ---- stripe footers and streams -------------------------------------------------------- */

/* Fills sf->first for the file's `columns` columns (find_stream); a stream of another
 * column or an unknown kind is found by walking the streams, as before. */
PM_MUST_CHECK static int index_streams(pm_orc_stripe_footer *sf, size_t columns, pm_arena *arena,
                                       paimon_error *err)
{
    size_t slots;
    sf->first = NULL;
    sf->index_columns = 0;
    if (columns == 0 || sf->stream_count >= UINT32_MAX ||
        __builtin_mul_overflow(columns, (size_t)PM_ORC_STREAM_KINDS, &slots))
        return 0; /* found by walking */
    if ((sf->first = pm_arena_calloc(arena, slots, sizeof(*sf->first))) == NULL)
        return pm_nomem(err);
    for (size_t k = sf->stream_count; k-- > 0;) { /* backwards: the first of each pair wins */
        const pm_orc_stream_info *st = &sf->streams[k];
        if (st->column < columns && (unsigned)st->kind < PM_ORC_STREAM_KINDS)
            sf->first[(size_t)st->column * PM_ORC_STREAM_KINDS + st->kind] = (uint32_t)k + 1;
    }
    sf->index_columns = columns;
    return 0;
}

PM_MUST_CHECK static int load_stripe_footer(pm_orc_reader *r, size_t i, pm_arena *arena,
                                            pm_buf *buf, pm_orc_stripe_footer *sf,
                                            paimon_error *err)
{
    const pm_orc_stripe_info *s = &r->footer.stripes[i];
    uint64_t off = s->offset + s->index_length + s->data_length, body;
    pm_buf raw;
    int rc;

    pm_buf_init(&raw, 0);
    pm_buf_reset(buf);
    rc = read_range(r, off, (size_t)s->footer_length, &raw, err);
    if (rc == 0)
        rc = pm_orc_decompress(&r->codec, raw.data, raw.len, off, r->path, "stripe footer", buf,
                               NULL, err);
    pm_buf_free(&raw);
    if (rc == 0)
        rc = pm_orc_decode_stripe_footer(buf->data, buf->len, off, r->path, arena, sf, err);
    if (rc != 0)
        return rc;
    body = s->index_length + s->data_length;
    for (size_t k = 0; k < sf->stream_count; k++) {
        const pm_orc_stream_info *st = &sf->streams[k];
        if (st->offset > body || st->length > body - st->offset)
            return pm_corrupt(err,
                              "%s: ORC stripe %zu: stream %zu (%s of column %u) lies outside "
                              "the stripe",
                              r->path, i, k, pm_orc_stream_kind_name(st->kind), st->column);
    }
    if (sf->has_encryption)
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: encrypted ORC columns are not supported",
                          r->path);
    return index_streams(sf, r->footer.type_count, arena, err);
}

static const pm_orc_stream_info *find_stream(const pm_orc_stripe_footer *sf, uint32_t column,
                                             pm_orc_stream_kind kind)
{
    if (column < sf->index_columns && (unsigned)kind < PM_ORC_STREAM_KINDS) {
        uint32_t at = sf->first[(size_t)column * PM_ORC_STREAM_KINDS + kind];
        return at == 0 ? NULL : &sf->streams[at - 1];
    }
    for (size_t k = 0; k < sf->stream_count; k++)
        if (sf->streams[k].column == column && sf->streams[k].kind == kind)
            return &sf->streams[k];
    return NULL;
}

/* How messages name stream `st`: "DATA stream of column 3". */
static void stream_name(const pm_orc_stream_info *st, char *what, size_t size)
{
    snprintf(what, size, "%s stream of column %u", pm_orc_stream_kind_name(st->kind), st->column);
}

/* Reads and decompresses one stream of stripe `i`. */
PM_MUST_CHECK static int load_stream(pm_orc_reader *r, size_t i, const pm_orc_stream_info *st,
                                     pm_buf *out, pm_orc_chunk_map *map, paimon_error *err)
{
    uint64_t off = r->footer.stripes[i].offset + st->offset;
    char what[64];
    int rc;
    stream_name(st, what, sizeof(what));
    pm_buf_reset(out);
    if (map != NULL)
        pm_buf_reset(&map->pairs);
    if (r->codec.kind == PM_ORC_NONE) {
        if ((rc = read_range(r, off, (size_t)st->length, out, err)) != 0)
            return rc;
        if (map != NULL) {
            uint64_t pair[2] = {0, 0};
            if ((rc = pm_buf_append(&map->pairs, pair, sizeof(pair))) != 0)
                return pm_buf_error(err, rc);
        }
        return 0;
    }
    if ((rc = read_range(r, off, (size_t)st->length, &r->raw, err)) != 0)
        return rc;
    return pm_orc_decompress(&r->codec, r->raw.data, r->raw.len, off, r->path, what, out, map, err);
}

int pm_orc_reader_stripe_footer(pm_orc_reader *r, size_t stripe, const pm_orc_stripe_footer **out,
                                paimon_error *err)
{
    int rc;
    if (stripe >= r->footer.stripe_count) {
        /* the constant return lets the compiler see that *out is set whenever 0 returns */
        pm_err_set(err, PAIMON_EINVALID, "%s: no stripe %zu", r->path, stripe);
        return PAIMON_EINVALID;
    }
    if (!r->insp_valid || r->insp_stripe != stripe) {
        r->insp_valid = false;
        pm_arena_reset(&r->insp_arena);
        if ((rc = load_stripe_footer(r, stripe, &r->insp_arena, &r->insp_buf, &r->insp_sf, err)) !=
            0)
            return rc;
        r->insp_valid = true;
        r->insp_stripe = stripe;
    }
    *out = &r->insp_sf;
    return 0;
}

/* Decodes the row index of `column` from stripe footer `sf` into `arena` (NULL: none). */
PM_MUST_CHECK static int load_row_index(pm_orc_reader *r, size_t stripe,
                                        const pm_orc_stripe_footer *sf, uint32_t column,
                                        pm_arena *arena, const pm_orc_row_index **out,
                                        paimon_error *err)
{
    const pm_orc_stream_info *st = find_stream(sf, column, PM_ORC_ROW_INDEX);
    pm_orc_row_index *ri;
    pm_buf buf;
    int rc;
    *out = NULL;
    if (st == NULL)
        return 0;
    if ((ri = pm_arena_alloc(arena, sizeof(*ri))) == NULL)
        return pm_nomem(err);
    pm_buf_init(&buf, 0);
    rc = load_stream(r, stripe, st, &buf, NULL, err);
    /* the decoded positions live in the arena; statistics strings point into buf, which
     * the arena adopts */
    if (rc == 0)
        rc = pm_orc_decode_row_index(buf.data, buf.len,
                                     r->footer.stripes[stripe].offset + st->offset, r->path, arena,
                                     ri, err);
    if (rc == 0 && buf.data != NULL) {
        size_t len;
        uint8_t *owned = pm_buf_detach(&buf, &len);
        rc = pm_arena_adopt(arena, owned, len) != 0 ? pm_nomem(err) : 0;
    }
    pm_buf_free(&buf);
    if (rc == 0)
        *out = ri;
    return rc;
}

int pm_orc_reader_row_index(pm_orc_reader *r, size_t stripe, uint32_t column,
                            const pm_orc_row_index **out, paimon_error *err)
{
    const pm_orc_stripe_footer *sf = NULL;
    int rc = pm_orc_reader_stripe_footer(r, stripe, &sf, err);
    if (rc != 0)
        return rc;
    return load_row_index(r, stripe, sf, column, &r->insp_arena, out, err);
}

int pm_orc_reader_stream_bytes(pm_orc_reader *r, size_t stripe, uint32_t column,
                               pm_orc_stream_kind kind, pm_buf *out, bool *found, paimon_error *err)
{
    const pm_orc_stripe_footer *sf = NULL;
    const pm_orc_stream_info *st;
    pm_buf tmp;
    int rc = pm_orc_reader_stripe_footer(r, stripe, &sf, err);
    *found = false;
    if (rc != 0)
        return rc;
    if ((st = find_stream(sf, column, kind)) == NULL)
        return 0;
    pm_buf_init(&tmp, 0);
    rc = load_stream(r, stripe, st, &tmp, NULL, err);
    if (rc == 0 && (rc = pm_buf_append(out, tmp.data, tmp.len)) != 0)
        rc = pm_buf_error(err, rc);
    pm_buf_free(&tmp);
    *found = rc == 0;
    return rc;
}

/* ---- planning a read ------------------------------------------------------------------- */

int pm_orc_reader_start(pm_orc_reader *r, const pm_orc_read_options *o, paimon_error *err)
{
    size_t n = r->footer.type_count;
    int rc;

    read_reset(r);
    memset(&r->opts, 0, sizeof(r->opts));
    if (o != NULL)
        r->opts = *o;
    if (r->opts.batch_rows <= 0)
        r->opts.batch_rows = PM_ORC_DEFAULT_BATCH_ROWS;
    if (r->opts.max_values <= 0 || r->opts.max_values > INT32_MAX)
        r->opts.max_values = PM_ORC_DEFAULT_MAX_VALUES;
    if (r->opts.batch_rows > r->opts.max_values)
        r->opts.batch_rows = r->opts.max_values;
    if ((r->include = pm_calloc(n, sizeof(bool))) == NULL ||
        (r->indexes = pm_calloc(n, sizeof(*r->indexes))) == NULL)
        return pm_nomem(err);
    for (size_t c = 0; c < n; c++)
        r->include[c] = o == NULL || o->include == NULL || o->include[c];
    r->include[0] = true;
    r->opts.include = r->include;
    r->opts.ranges = o != NULL ? o->ranges : NULL;
    r->opts.range_count = o != NULL && o->ranges != NULL ? o->range_count : 0;
    rc = pm_orc_colreader_new(&r->root, &r->footer, 0, r->include, r->path,
                              r->codec.kind != PM_ORC_NONE, r->opts.max_values, err);
    if (rc != 0)
        return rc;
    if ((r->vec = pm_orc_vec_new(r->root)) == NULL)
        return pm_nomem(err);
    r->stripe = 0;
    r->first_row = 0;
    r->skipped_stripes = r->skipped_groups = r->skipped_rows = 0;
    return 0;
}

typedef int (*cr_fn)(pm_orc_reader *r, pm_orc_colreader *cr, void *ctx, paimon_error *err);

PM_MUST_CHECK static int each_reader(pm_orc_reader *r, pm_orc_colreader *cr, cr_fn fn, void *ctx,
                                     paimon_error *err)
{
    int rc = fn(r, cr, ctx, err);
    for (size_t i = 0; i < cr->child_count && rc == 0; i++)
        if (cr->children[i] != NULL)
            rc = each_reader(r, cr->children[i], fn, ctx, err);
    return rc;
}

/* The streams setup_column reads for a column, in its order. */
static const pm_orc_stream_kind column_streams[] = {PM_ORC_PRESENT, PM_ORC_DATA, PM_ORC_LENGTH,
                                                    PM_ORC_SECONDARY, PM_ORC_DICTIONARY_DATA};

/* Adds the byte ranges of the streams setup_column will read for `cr` to the pm_range
 * list in `ctx` (a pm_buf). */
PM_MUST_CHECK static int stream_ranges(pm_orc_reader *r, pm_orc_colreader *cr, void *ctx,
                                       paimon_error *err)
{
    pm_buf *ranges = ctx;
    uint64_t base = r->footer.stripes[r->stripe].offset;
    for (size_t k = 0; k < sizeof(column_streams) / sizeof(column_streams[0]); k++) {
        const pm_orc_stream_info *st = find_stream(&r->sf, cr->column, column_streams[k]);
        pm_range one;
        int rc;
        if (st == NULL || st->length == 0)
            continue;
        one.off = base + st->offset;
        one.len = st->length;
        if ((rc = pm_buf_append(ranges, &one, sizeof(one))) != 0)
            return pm_buf_error(err, rc);
    }
    return 0;
}

/* Tells the input which bytes the stripe's read needs: the streams of the projected
 * columns.  A remote input fetches them at once, near ones coalesced; a local one has
 * nothing to do. */
PM_MUST_CHECK static int prefetch_streams(pm_orc_reader *r, paimon_error *err)
{
    pm_buf ranges;
    int rc;
    if (r->in->prefetch == NULL)
        return 0;
    pm_buf_init(&ranges, 0);
    rc = each_reader(r, r->root, stream_ranges, &ranges, err);
    if (rc == 0)
        rc = pm_input_prefetch(r->in, (const pm_range *)(void *)ranges.data,
                               ranges.len / sizeof(pm_range), err);
    pm_buf_free(&ranges);
    return rc;
}

PM_MUST_CHECK static int setup_column(pm_orc_reader *r, pm_orc_colreader *cr, void *ctx,
                                      paimon_error *err)
{
    size_t stripe = *(size_t *)ctx;
    const pm_orc_stream_kind *kinds = column_streams;
    pm_orc_sbuf *bufs[] = {&cr->present, &cr->data, &cr->length, &cr->secondary, &cr->dict};
    const pm_orc_tz *tz;
    int rc;

    if (cr->column >= r->sf.encoding_count)
        return pm_corrupt(err, "%s: ORC stripe %zu has no encoding for column %u", r->path, stripe,
                          cr->column);
    for (size_t k = 0; k < 5; k++) {
        const pm_orc_stream_info *st = find_stream(&r->sf, cr->column, kinds[k]);
        bufs[k]->exists = st != NULL;
        if (st != NULL && r->jobs_loaded) {
            /* decompressed on the pool (load_streams), in this order: its result here */
            const pm_orc_stream_job *job = &r->jobs.jobs[r->job_next++];
            PM_ASSERT(job->dst == bufs[k]);
            if (job->rc != 0) {
                if (err != NULL)
                    *err = job->err;
                return job->rc;
            }
            continue;
        }
        pm_buf_reset(&bufs[k]->buf);
        pm_buf_reset(&bufs[k]->map.pairs);
        if (st != NULL && (rc = load_stream(r, stripe, st, &bufs[k]->buf, &bufs[k]->map, err)) != 0)
            return rc;
    }
    cr->decimal64 = r->decimal64 && cr->type->kind == PM_ORC_DECIMAL && cr->type->precision <= 18;
    /* a UTC writer zone converts nothing: no zone, no per-value lookups */
    tz = r->tz != NULL && !pm_orc_tz_is_utc(r->tz) ? r->tz : NULL;
    if (cr->type->kind == PM_ORC_TIMESTAMP) {
        cr->tz = tz;
        cr->base_seconds = tz != NULL ? pm_orc_tz_local_to_utc(tz, BASE_2015) : BASE_2015;
    } else if (cr->type->kind == PM_ORC_TIMESTAMP_INSTANT) {
        /* Paimon's legacy LTZ: toSQLTimestamp() in the writer's JVM zone */
        cr->tz = r->opts.ltz_utc ? NULL : tz;
        cr->base_seconds = BASE_2015;
    } else {
        cr->tz = NULL;
        cr->base_seconds = BASE_2015;
    }
    return pm_orc_colreader_start(cr, &r->sf.encodings[cr->column], err);
}

/* Lists the streams setup_column would load for `cr`, in its order, as jobs. */
PM_MUST_CHECK static int add_stream_jobs(pm_orc_reader *r, pm_orc_colreader *cr, void *ctx,
                                         paimon_error *err)
{
    pm_orc_sbuf *bufs[] = {&cr->present, &cr->data, &cr->length, &cr->secondary, &cr->dict};
    (void)ctx;
    if (cr->column >= r->sf.encoding_count)
        return 0; /* setup_column stops at this column with its message */
    for (size_t k = 0; k < 5; k++) {
        const pm_orc_stream_info *st = find_stream(&r->sf, cr->column, column_streams[k]);
        char what[64];
        int rc;
        if (st == NULL)
            continue;
        stream_name(st, what, sizeof(what));
        if ((rc = pm_orc_stream_jobs_add(&r->jobs, r->footer.stripes[r->stripe].offset + st->offset,
                                         (size_t)st->length, what, bufs[k], err)) != 0)
            return rc;
    }
    return 0;
}

/* With a pool, the stripe's compressed streams are decompressed at once on it
 * (orc_stream_jobs.h) before setup_column takes them; otherwise setup_column decompresses
 * each in place. */
PM_MUST_CHECK static int load_streams(pm_orc_reader *r, paimon_error *err)
{
    const pm_orc_stripe_info *si = &r->footer.stripes[r->stripe];
    int rc;
    r->jobs_loaded = false;
    r->job_next = 0;
    if (r->opts.pool == NULL || r->codec.kind == PM_ORC_NONE)
        return 0;
    pm_orc_stream_jobs_reset(&r->jobs);
    if ((rc = each_reader(r, r->root, add_stream_jobs, NULL, err)) != 0)
        return rc;
    /* The compressed bytes are held at once, and never more than the stripe's body: streams
     * lie back to back (their offsets are the sums of the lengths before them), each was
     * checked to lie inside the body when the footer was read, and a job is the first
     * stream of its (column, kind), so no byte is listed twice. */
    PM_ASSERT(r->jobs.total <= si->index_length + si->data_length);
    if ((rc = pm_orc_stream_jobs_read(&r->jobs, r->in, err)) != 0 ||
        (rc = pm_orc_stream_jobs_run(&r->jobs, &r->codec, r->path, r->opts.pool, err)) != 0)
        return rc;
    r->jobs_loaded = true;
    return 0;
}

PM_MUST_CHECK static int seek_column(pm_orc_reader *r, pm_orc_colreader *cr, void *ctx,
                                     paimon_error *err)
{
    size_t group = *(size_t *)ctx;
    return pm_orc_colreader_seek(cr, &r->indexes[cr->column]->entries[group], err);
}

PM_MUST_CHECK static int has_index(pm_orc_reader *r, pm_orc_colreader *cr, void *ctx,
                                   paimon_error *err)
{
    size_t group = *(size_t *)ctx;
    const pm_orc_row_index *ri = r->indexes[cr->column];
    (void)err;
    return ri != NULL && group < ri->entry_count ? 0 : 1;
}

PM_MUST_CHECK static int load_indexes(pm_orc_reader *r, size_t stripe, bool all, paimon_error *err)
{
    for (size_t c = 0; c < r->footer.type_count; c++) {
        int rc;
        if (r->indexes[c] != NULL || !(all || r->include[c]))
            continue;
        if ((rc = load_row_index(r, stripe, &r->sf, (uint32_t)c, &r->stripe_arena, &r->indexes[c],
                                 err)) != 0)
            return rc;
    }
    return 0;
}

static int add_span(pm_buf *spans, int64_t a, int64_t b)
{
    int64_t *p = (int64_t *)(void *)spans->data;
    size_t n = spans->len / 16;
    if (a >= b)
        return 0;
    if (n > 0 && p[2 * n - 1] == a) {
        p[2 * n - 1] = b;
        return 0;
    }
    {
        int64_t pair[2] = {a, b};
        return pm_buf_append(spans, pair, sizeof(pair));
    }
}

/* Plans stripe r->stripe: the spans of rows to read, after ranges and statistics. */
PM_MUST_CHECK static int plan_stripe(pm_orc_reader *r, bool *any, paimon_error *err)
{
    const pm_orc_stripe_info *si = &r->footer.stripes[r->stripe];
    int64_t rows = (int64_t)si->number_of_rows, first = (int64_t)r->first_row;
    uint32_t stride = r->footer.row_index_stride;
    pm_buf base;
    int rc = 0;

    *any = false;
    pm_buf_reset(&r->spans);
    pm_buf_init(&base, 0);
    /* 1. the requested ranges inside this stripe */
    if (r->opts.ranges == NULL) {
        rc = add_span(&base, 0, rows);
    } else {
        for (size_t i = 0; i < r->opts.range_count && rc == 0; i++) {
            int64_t a = r->opts.ranges[2 * i] - first, b = r->opts.ranges[2 * i + 1] - first;
            rc = add_span(&base, a < 0 ? 0 : a, b > rows ? rows : b);
        }
    }
    if (rc != 0) {
        pm_buf_free(&base);
        return pm_buf_error(err, rc);
    }
    if (base.len == 0)
        goto done;
    /* 2. stripe statistics */
    if (r->opts.filter != NULL) {
        const pm_orc_stripe_stats *ss;
        size_t nss;
        if ((rc = pm_orc_reader_stripe_stats(r, &ss, &nss, err)) != 0)
            goto done;
        if (r->stripe < nss) {
            size_t nc = ss[r->stripe].column_count;
            const pm_orc_stats **p = pm_calloc(nc + 1, sizeof(*p));
            bool keep;
            if (p == NULL) {
                rc = pm_nomem(err);
                goto done;
            }
            for (size_t c = 0; c < nc; c++)
                p[c] = &ss[r->stripe].columns[c];
            keep = r->opts.filter(r->opts.filter_ctx, p, nc, rows);
            pm_free(p);
            if (!keep) {
                r->skipped_stripes++;
                r->skipped_rows += rows;
                goto done;
            }
        }
    }
    /* the stripe is read: its footer, streams and decoders */
    pm_arena_reset(&r->stripe_arena);
    memset(r->indexes, 0, r->footer.type_count * sizeof(*r->indexes));
    if ((rc = load_stripe_footer(r, r->stripe, &r->stripe_arena, &r->sf_buf, &r->sf, err)) != 0)
        goto done;
    if (r->sf.writer_timezone != NULL && r->sf.writer_timezone[0] != '\0' &&
        (r->tz == NULL || strcmp(pm_orc_tz_id(r->tz), r->sf.writer_timezone) != 0)) {
        pm_orc_tz_free(r->tz);
        r->tz = NULL;
        if ((rc = pm_orc_tz_load(r->sf.writer_timezone, &r->tz, err)) != 0)
            goto done;
    } else if (r->sf.writer_timezone == NULL || r->sf.writer_timezone[0] == '\0') {
        pm_orc_tz_free(r->tz);
        r->tz = NULL;
    }
    if ((rc = prefetch_streams(r, err)) != 0 || (rc = load_streams(r, err)) != 0)
        goto done;
    if ((rc = each_reader(r, r->root, setup_column, &r->stripe, err)) != 0)
        goto done;
    /* 3. row groups */
    if (r->opts.filter != NULL && stride > 0 && rows > (int64_t)stride) {
        size_t groups = (size_t)((rows + stride - 1) / stride), nstats = r->footer.type_count;
        const pm_orc_stats **gs = pm_calloc(nstats, sizeof(*gs));
        if (gs == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        if ((rc = load_indexes(r, r->stripe, true, err)) != 0) {
            pm_free(gs);
            goto done;
        }
        for (size_t g = 0; g < groups; g++) {
            int64_t ga = (int64_t)g * stride, gb = ga + stride < rows ? ga + stride : rows;
            const int64_t *bp = (const int64_t *)(void *)base.data;
            for (size_t c = 0; c < nstats; c++) {
                const pm_orc_row_index *ri = r->indexes[c];
                gs[c] = ri != NULL && g < ri->entry_count && ri->entries[g].has_stats
                            ? &ri->entries[g].stats
                            : NULL;
            }
            if (!r->opts.filter(r->opts.filter_ctx, gs, nstats, gb - ga)) {
                r->skipped_groups++;
                r->skipped_rows += gb - ga;
                continue;
            }
            for (size_t i = 0; i < base.len / 16 && rc == 0; i++) {
                int64_t a = bp[2 * i] > ga ? bp[2 * i] : ga,
                        b = bp[2 * i + 1] < gb ? bp[2 * i + 1] : gb;
                rc = add_span(&r->spans, a, b);
            }
        }
        pm_free(gs);
        if (rc != 0) {
            rc = pm_buf_error(err, rc);
            goto done;
        }
    } else if ((rc = pm_buf_append(&r->spans, base.data, base.len)) != 0) {
        rc = pm_buf_error(err, rc);
        goto done;
    }
    *any = r->spans.len > 0;
    r->span_idx = 0;
    r->pos = 0;
    r->cur_rows = rows;
done:
    pm_buf_free(&base);
    return rc;
}

/* Moves the stripe's decoders from r->pos to row `a` of the stripe. */
PM_MUST_CHECK static int move_to(pm_orc_reader *r, int64_t a, paimon_error *err)
{
    uint32_t stride = r->footer.row_index_stride;
    int rc;
    if (stride > 0 && a / stride > r->pos / stride) {
        size_t group = (size_t)(a / stride);
        /* seek when every column has an index entry for the group */
        if ((rc = load_indexes(r, r->stripe, false, err)) != 0)
            return rc;
        if (each_reader(r, r->root, has_index, &group, err) == 0) {
            /* the root (column 0) is positioned with the others */
            if ((rc = each_reader(r, r->root, seek_column, &group, err)) != 0)
                return rc;
            r->pos = (int64_t)group * stride;
        }
    }
    if (a > r->pos) {
        if ((rc = pm_orc_colreader_skip(r->root, (uint64_t)(a - r->pos), err)) != 0)
            return rc;
        r->pos = a;
    }
    return 0;
}

int pm_orc_reader_next(pm_orc_reader *r, const pm_orc_vec **root, paimon_error *err)
{
    int64_t got = 0;
    int rc;

    if (r->root == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "%s: pm_orc_reader_next before start", r->path);
    pm_orc_vec_reset(r->vec);
    while (got < r->opts.batch_rows) {
        const int64_t *sp;
        int64_t take;
        if (!r->in_stripe) {
            bool any = false;
            while (!any && r->stripe < r->footer.stripe_count) {
                if ((rc = plan_stripe(r, &any, err)) != 0)
                    return rc;
                if (!any) {
                    r->first_row += r->footer.stripes[r->stripe].number_of_rows;
                    r->stripe++;
                }
            }
            if (!any)
                break;
            r->in_stripe = true;
        }
        sp = (const int64_t *)(void *)r->spans.data + 2 * r->span_idx;
        if (r->pos < sp[0] && (rc = move_to(r, sp[0], err)) != 0)
            return rc;
        take = sp[1] - r->pos;
        if (take > r->opts.batch_rows - got)
            take = r->opts.batch_rows - got;
        if ((rc = pm_orc_colreader_decode(r->root, take, NULL, r->vec, err)) != 0)
            return rc;
        r->pos += take;
        got += take;
        if (r->pos == sp[1] && ++r->span_idx == r->spans.len / 16) {
            r->in_stripe = false;
            r->first_row += r->footer.stripes[r->stripe].number_of_rows;
            r->stripe++;
        }
    }
    if (got == 0)
        return PAIMON_ITEROVER;
    *root = r->vec;
    return 0;
}
