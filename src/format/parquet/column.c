/*
 * Column chunk reading: page headers, CRCs, decompression, levels; see column.h.  Values
 * are decoded by values.c.
 *
 * A v1 data page body (after decompression):   a v2 data page body (as stored):
 *   [repetition levels]  if max_rep > 0          repetition levels (rep_len bytes, raw)
 *   [definition levels]  if max_def > 0          definition levels (def_len bytes, raw)
 *   values                                       values (compressed when is_compressed)
 * v1 levels are RLE with a 4-byte little-endian length prefix, or BIT_PACKED (deprecated);
 * v2 levels are RLE without the prefix.
 */
#include "format/parquet/column.h"

#include <string.h>

#include "util/alloc.h"
#include "util/bytes.h"
#include "util/hash.h"

void pm_pq_col_init(pq_col_reader *r, const char *path, const pq_leaf *leaf, const pq_plan *plan,
                    int codec, pm_codec_ctx *ctx)
{
    memset(r, 0, sizeof(*r));
    r->path = path;
    r->leaf = leaf;
    r->plan = plan;
    r->codec = codec;
    r->codec_ctx = ctx;
    r->verify_crc = true;
    pm_buf_init(&r->page_buf, PQ_MAX_PAGE_BYTES + PM_PQ_PADDING);
    pm_buf_init(&r->def, 0);
    pm_buf_init(&r->rep, 0);
    pm_buf_init(&r->lengths, 0);
    pm_buf_init(&r->prefixes, 0);
    pm_buf_init(&r->last_value, 0);
    pm_buf_init(&r->scratch, 0);
    pm_buf_init(&r->indices, 0);
}

void pm_pq_col_start(pq_col_reader *r, const uint8_t *chunk, size_t len, uint64_t chunk_off,
                     int64_t num_values, const pq_offset_index *oi)
{
    pm_pq_col_drop_ahead(r);
    r->chunk = chunk;
    r->in = NULL;
    r->win_len = 0;
    r->chunk_len = len;
    r->chunk_off = chunk_off;
    r->chunk_values = num_values;
    r->oi = oi;
    r->pos = 0;
    r->page_idx = 0;
    r->values_seen = 0;
    r->in_page = false;
    r->level_pos = r->page_levels = 0;
    pm_column_free(r->dict);
    r->dict = NULL;
    r->dict_count = 0;
}

void pm_pq_col_start_stream(pq_col_reader *r, pm_input *in, size_t window, size_t len,
                            uint64_t chunk_off, int64_t num_values, const pq_offset_index *oi)
{
    pm_pq_col_start(r, NULL, len, chunk_off, num_values, oi);
    r->in = in;
    r->win_min = window > 0 ? window : 1;
}

void pm_pq_col_free(pq_col_reader *r)
{
    pm_pq_col_free_ahead(r);
    pm_free(r->win);
    r->win = NULL;
    r->win_cap = r->win_len = 0;
    pm_buf_free(&r->page_buf);
    pm_buf_free(&r->def);
    pm_buf_free(&r->rep);
    pm_buf_free(&r->lengths);
    pm_buf_free(&r->prefixes);
    pm_buf_free(&r->last_value);
    pm_buf_free(&r->scratch);
    pm_buf_free(&r->indices);
    pm_column_free(r->dict);
    pm_column_free(r->tmp);
    pm_column_free(r->skip);
    r->dict = NULL;
    r->tmp = NULL;
    r->skip = NULL;
}

/* Prefixes a decoder's message with the file, column and page offset. */
PM_MUST_CHECK static int page_error(pq_col_reader *r, paimon_error *err, int rc)
{
    return pm_err_prefix(err, rc, "%s: page at offset %llu: ", r->path,
                         (unsigned long long)r->page_off);
}

PM_MUST_CHECK static int page_corrupt(pq_col_reader *r, paimon_error *err, const char *what)
{
    return pm_corrupt(err, "%s: page at offset %llu: %s", r->path, (unsigned long long)r->page_off,
                      what);
}

/* ---- decompression --------------------------------------------------------------------- */

/* Hadoop's LZ4 codec (parquet's deprecated LZ4): frames of
 *   [4-byte BE decompressed size][4-byte BE compressed size][LZ4 block]
 * Some writers used the LZ4 id for a bare LZ4 block instead; like Arrow, fall back to that
 * when the framing does not add up. */
PM_MUST_CHECK static int hadoop_lz4(const uint8_t *src, size_t len, size_t expected, pm_buf *out,
                                    paimon_error *err)
{
    size_t p = 0, start = out->len;
    while (p < len) {
        uint32_t raw, comp;
        int rc;
        if (len - p < 8)
            goto raw_block;
        raw = pm_load_be32(src + p);
        comp = pm_load_be32(src + p + 4);
        p += 8;
        if (comp > len - p || raw > expected - (out->len - start))
            goto raw_block;
        rc = pm_decompress(NULL, PM_CODEC_LZ4_RAW, src + p, comp, raw, out, err);
        if (rc != 0)
            goto raw_block;
        p += comp;
    }
    if (out->len - start == expected)
        return 0;
raw_block:
    out->len = start;
    return pm_decompress(NULL, PM_CODEC_LZ4_RAW, src, len, expected, out, err);
}

int pm_pq_decompress(pm_codec_ctx *ctx, int codec, const uint8_t *src, size_t len, size_t expected,
                     pm_buf *out, paimon_error *err)
{
    pm_codec c;
    int rc;
    switch (codec) {
    case PQ_UNCOMPRESSED: c = PM_CODEC_NONE; break;
    case PQ_SNAPPY: c = PM_CODEC_SNAPPY; break;
    case PQ_GZIP: c = PM_CODEC_GZIP; break;
    case PQ_ZSTD: c = PM_CODEC_ZSTD; break;
    case PQ_LZ4_RAW: c = PM_CODEC_LZ4_RAW; break;
    case PQ_LZ4: return hadoop_lz4(src, len, expected, out, err);
    default:
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "codec %s is not supported",
                          pm_pq_codec_name(codec));
    }
    if (expected == 0 && len == 0)
        return 0;
    rc = pm_decompress(ctx, c, src, len, expected, out, err);
    if (rc == PAIMON_ELIMIT) /* more than the header said: the page is corrupt */
        rc = pm_corrupt(err, "%s: decompressed data exceeds the page size", pm_codec_name(c));
    return rc;
}

/* Decompresses `len` bytes into r->page_buf (reset first); `expected` is the exact size. */
PM_MUST_CHECK static int decompress(pq_col_reader *r, const uint8_t *src, size_t len,
                                    size_t expected, paimon_error *err)
{
    int rc;
    r->page_buf.len = 0;
    if (expected > PQ_MAX_PAGE_BYTES)
        return page_corrupt(r, err, "page larger than 256 MiB");
    /* the buffer may not grow past what the header promises */
    r->page_buf.max = expected + PM_PQ_PADDING + 1;
    if (!pm_pq_col_take_ahead(r, src, len, expected, &rc, err))
        rc = pm_pq_decompress(r->codec_ctx, r->codec, src, len, expected, &r->page_buf, err);
    if (rc == PAIMON_EUNSUPPORTED)
        return pm_err_prefix(err, rc, "%s: ", r->path);
    if (rc != 0)
        return page_error(r, err, rc);
    if (r->page_buf.len != expected)
        return page_corrupt(r, err, "decompressed size differs from the header");
    /* padding for the bulk decoders */
    if ((rc = pm_buf_reserve(&r->page_buf, PM_PQ_PADDING)) != 0)
        return pm_buf_error(err, rc);
    memset(r->page_buf.data + r->page_buf.len, 0, PM_PQ_PADDING);
    return 0;
}

/* ---- levels ---------------------------------------------------------------------------- */

/* Decodes `n` levels (max `max`) into `out` from a v1 section at *p (advanced), or from a v2
 * section of exactly `len` bytes when v2. */
PM_MUST_CHECK static int read_levels(pq_col_reader *r, const uint8_t **p, const uint8_t *end,
                                     int encoding, bool v2, size_t v2_len, int max, pm_buf *out,
                                     paimon_error *err)
{
    int width = pm_pq_bit_width((uint64_t)max), rc;
    size_t n = (size_t)r->page_levels, len;
    uint8_t worst = 0;
    pm_rle_decoder d;
    long got;

    out->len = 0;
    if ((rc = pm_buf_reserve(out, n + PM_PQ_PADDING)) != 0)
        return pm_buf_error(err, rc);
    if (v2) {
        len = v2_len;
    } else if (encoding == PQ_BIT_PACKED) {
        rc = pm_pq_bitpacked_levels(*p, (size_t)(end - *p), width, out->data, n, err);
        if (rc != 0)
            return page_error(r, err, rc);
        *p += ((uint64_t)n * (uint64_t)width + 7) / 8;
        goto check;
    } else if (encoding == PQ_RLE) {
        if (end - *p < 4)
            return page_corrupt(r, err, "levels length is truncated");
        len = pm_load_le32(*p);
        *p += 4;
        if (len > (size_t)(end - *p))
            return page_corrupt(r, err, "levels overrun the page");
    } else {
        return page_corrupt(r, err, "unknown level encoding");
    }
    pm_rle_init(&d, *p, len, width);
    got = pm_rle_get_u8(&d, out->data, n, err);
    if (got < 0)
        return page_error(r, err, (int)got);
    if ((size_t)got != n)
        return page_corrupt(r, err, "fewer levels than values");
    *p += len;
check:
    for (size_t i = 0; i < n; i++)
        worst = out->data[i] > worst ? out->data[i] : worst;
    if (worst > max)
        return page_corrupt(r, err, "level above the column's maximum");
    out->len = n;
    return 0;
}

static int32_t count_eq(const uint8_t *levels, size_t n, uint8_t v)
{
    int32_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += levels[i] == v;
    return k;
}

/* ---- pages ----------------------------------------------------------------------------- */

/* Chunk bytes [off, off + len) (len <= chunk_len - off), padded.  Streamed, they are valid
 * until the next call: the window moves only between pages (a page's values may point
 * into it while the page is open). */
PM_MUST_CHECK static int chunk_bytes(pq_col_reader *r, size_t off, size_t len, const uint8_t **out,
                                     paimon_error *err)
{
    size_t want;
    int rc;
    if (r->in == NULL) {
        *out = r->chunk + off;
        return 0;
    }
    if (off >= r->win_start && len <= r->win_len && off - r->win_start <= r->win_len - len) {
        *out = r->win + (off - r->win_start);
        return 0;
    }
    want = len > r->win_min ? len : r->win_min;
    if (want > r->chunk_len - off)
        want = r->chunk_len - off;
    if (want + PM_PQ_PADDING > r->win_cap) {
        pm_free(r->win);
        r->win_cap = 0;
        r->win_len = 0;
        if ((r->win = pm_malloc(want + PM_PQ_PADDING)) == NULL)
            return pm_nomem(err);
        r->win_cap = want + PM_PQ_PADDING;
    }
    r->win_len = 0;
    if ((rc = r->in->read_at(r->in, r->chunk_off + off, want, r->win, err)) != 0)
        return rc;
    memset(r->win + want, 0, PM_PQ_PADDING);
    r->win_start = off;
    r->win_len = want;
    *out = r->win;
    return 0;
}

int pm_pq_col_header_at(pq_col_reader *r, size_t pos, pq_page_header *h, size_t *body,
                        paimon_error *err)
{
    pm_thrift_reader tr;
    size_t left = r->chunk_len - pos, len = r->in == NULL || left < 256 ? left : 256;
    const uint8_t *p;
    int rc;
    for (;;) {
        if ((rc = chunk_bytes(r, pos, len, &p, err)) != 0)
            return rc;
        pm_thrift_reader_init(&tr, p, len, r->chunk_off + pos, r->path, err);
        if ((rc = pm_pq_read_page_header(&tr, h)) == 0)
            break;
        if (len == left)
            return rc;
        /* a streamed header longer than the bytes looked at: look at more */
        len = left / 16 < len ? left : len * 16;
    }
    *body = pos + (size_t)(tr.p - tr.start);
    if ((size_t)h->compressed_size > r->chunk_len - *body)
        return page_corrupt(r, err, "page body runs past its column chunk");
    return 0;
}

/* The header at r->pos, the page whose messages name its offset from now on. */
PM_MUST_CHECK static int read_header(pq_col_reader *r, pq_page_header *h, size_t *body,
                                     paimon_error *err)
{
    r->page_off = r->chunk_off + r->pos;
    return pm_pq_col_header_at(r, r->pos, h, body, err);
}

PM_MUST_CHECK static int check_crc(pq_col_reader *r, const pq_page_header *h, const uint8_t *body,
                                   paimon_error *err)
{
    if (!h->has_crc || !r->verify_crc)
        return 0;
    if (pm_crc32(body, (size_t)h->compressed_size) != (uint32_t)h->crc)
        return page_corrupt(r, err, "page CRC mismatch");
    return 0;
}

PM_MUST_CHECK static int load_dictionary(pq_col_reader *r, const pq_page_header *h,
                                         const uint8_t *body, paimon_error *err)
{
    int rc;
    if (!h->has_dict)
        return page_corrupt(r, err, "dictionary page without its header");
    if (r->dict != NULL)
        return page_corrupt(r, err, "second dictionary page in a column chunk");
    if (h->dict_encoding != PQ_PLAIN && h->dict_encoding != PQ_PLAIN_DICTIONARY)
        return page_corrupt(r, err, "dictionary page is not PLAIN");
    if (h->dict_num_values < 0 || h->dict_num_values > PQ_MAX_PAGE_VALUES)
        return page_corrupt(r, err, "bad dictionary size");
    if ((rc = check_crc(r, h, body, err)) != 0 ||
        (rc = decompress(r, body, (size_t)h->compressed_size, (size_t)h->uncompressed_size, err)) !=
            0)
        return rc;
    rc = pm_pq_dict_load(r, r->page_buf.data, r->page_buf.len, h->dict_num_values, err);
    return rc != 0 ? page_error(r, err, rc) : 0;
}

/* Opens the data page whose header is `h` and body starts at chunk[body]. */
PM_MUST_CHECK static int open_data_page(pq_col_reader *r, const pq_page_header *h, size_t body,
                                        paimon_error *err)
{
    const uint8_t *src, *p, *end;
    bool v2 = h->type == PQ_DATA_PAGE_V2;
    int max_def = r->leaf->max_def, max_rep = r->leaf->max_rep, rc;

    if (v2 ? !h->has_v2 : !h->has_data)
        return page_corrupt(r, err, "data page without its header");
    if ((rc = chunk_bytes(r, body, (size_t)h->compressed_size, &src, err)) != 0)
        return rc;
    if (h->num_values < 0 || h->num_values > PQ_MAX_PAGE_VALUES ||
        (r->chunk_values >= r->values_seen && h->num_values > r->chunk_values - r->values_seen))
        return page_corrupt(r, err, "bad value count");
    if ((rc = check_crc(r, h, src, err)) != 0)
        return rc;
    r->page_levels = h->num_values;
    r->level_pos = 0;
    r->encoding = h->encoding;
    if (v2) {
        size_t lv;
        if (h->def_len < 0 || h->rep_len < 0 ||
            (size_t)h->def_len + (size_t)h->rep_len > (size_t)h->compressed_size ||
            (size_t)h->def_len + (size_t)h->rep_len > (size_t)h->uncompressed_size)
            return page_corrupt(r, err, "level sizes exceed the page");
        lv = (size_t)h->def_len + (size_t)h->rep_len;
        p = src;
        if (max_rep > 0 && (rc = read_levels(r, &p, src + h->rep_len, PQ_RLE, true,
                                             (size_t)h->rep_len, max_rep, &r->rep, err)) != 0)
            return rc;
        p = src + h->rep_len;
        if (max_def > 0 && (rc = read_levels(r, &p, src + lv, PQ_RLE, true, (size_t)h->def_len,
                                             max_def, &r->def, err)) != 0)
            return rc;
        if (h->is_compressed && r->codec != PQ_UNCOMPRESSED) {
            if ((rc = decompress(r, src + lv, (size_t)h->compressed_size - lv,
                                 (size_t)h->uncompressed_size - lv, err)) != 0)
                return rc;
            r->data = r->page_buf.data;
            r->data_len = r->page_buf.len;
        } else {
            r->data = src + lv;
            r->data_len = (size_t)h->compressed_size - lv;
        }
    } else {
        if (r->codec == PQ_UNCOMPRESSED) {
            p = src;
            end = src + h->compressed_size;
        } else {
            if ((rc = decompress(r, src, (size_t)h->compressed_size, (size_t)h->uncompressed_size,
                                 err)) != 0)
                return rc;
            p = r->page_buf.data;
            end = p + r->page_buf.len;
        }
        if (max_rep > 0 &&
            (rc = read_levels(r, &p, end, h->rep_encoding, false, 0, max_rep, &r->rep, err)) != 0)
            return rc;
        if (max_def > 0 &&
            (rc = read_levels(r, &p, end, h->def_encoding, false, 0, max_def, &r->def, err)) != 0)
            return rc;
        r->data = p;
        r->data_len = (size_t)(end - p);
    }
    if (max_rep > 0 && r->page_levels > 0 && r->values_seen == 0 && r->rep.data[0] != 0)
        return page_corrupt(r, err, "column chunk starts inside a row");
    r->page_values = max_def > 0 ? count_eq(r->def.data, (size_t)r->page_levels, (uint8_t)max_def)
                                 : r->page_levels;
    r->value_pos = 0;
    r->values_seen += r->page_levels;
    r->page_idx++;
    r->in_page = true;
    if ((rc = pm_pq_values_begin(r, err)) != 0)
        return page_error(r, err, rc);
    return pm_pq_col_fill_ahead(r, err);
}

/* Moves to the next data page (reading a dictionary page on the way).  *eof is set at the
 * end of the chunk. */
PM_MUST_CHECK static int next_page(pq_col_reader *r, bool *eof, paimon_error *err)
{
    r->in_page = false;
    *eof = false;
    while (r->pos < r->chunk_len) {
        pq_page_header h;
        size_t body;
        int rc = read_header(r, &h, &body, err);
        if (rc != 0)
            return rc;
        r->pos = body + (size_t)h.compressed_size;
        if (h.type == PQ_DICTIONARY_PAGE) {
            const uint8_t *src;
            if ((rc = chunk_bytes(r, body, (size_t)h.compressed_size, &src, err)) != 0 ||
                (rc = load_dictionary(r, &h, src, err)) != 0)
                return rc;
        } else if (h.type == PQ_DATA_PAGE || h.type == PQ_DATA_PAGE_V2) {
            return open_data_page(r, &h, body, err);
        }
        /* index pages and unknown page types are skipped */
    }
    *eof = true;
    return 0;
}

PM_MUST_CHECK static int ensure_page(pq_col_reader *r, paimon_error *err)
{
    bool eof;
    int rc;
    while (!r->in_page || r->level_pos >= r->page_levels) {
        if ((rc = next_page(r, &eof, err)) != 0)
            return rc;
        if (eof)
            return pm_corrupt(err, "%s: column chunk at offset %llu ends before the row group",
                              r->path, (unsigned long long)r->chunk_off);
    }
    return 0;
}

int pm_pq_col_read_flat(pq_col_reader *r, int64_t n, pm_column *col, paimon_error *err)
{
    int rc;
    while (n > 0) {
        int32_t take, k;
        if ((rc = ensure_page(r, err)) != 0)
            return rc;
        take = r->page_levels - r->level_pos;
        if ((int64_t)take > n)
            take = (int32_t)n;
        if (r->leaf->max_def == 0) {
            if ((rc = pm_pq_values_decode(r, take, col, err)) != 0)
                return page_error(r, err, rc);
            if (col->validity.len > 0 && (rc = pm_pq_spread(col, take, NULL, take)) != 0)
                return pm_buf_error(err, rc);
        } else {
            const uint8_t *def = r->def.data + r->level_pos;
            k = count_eq(def, (size_t)take, (uint8_t)r->leaf->max_def);
            if ((rc = pm_pq_values_decode(r, k, col, err)) != 0)
                return page_error(r, err, rc);
            if ((k != take || col->validity.len > 0) && (rc = pm_pq_spread(col, k, def, take)) != 0)
                return pm_buf_error(err, rc);
        }
        r->level_pos += take;
        n -= take;
    }
    return 0;
}

int pm_pq_col_read_levels(pq_col_reader *r, int64_t n, pm_buf *def, pm_buf *rep, pm_column *col,
                          paimon_error *err)
{
    int64_t started = 0;
    bool eof;
    int rc;
    int max_def = r->leaf->max_def, max_rep = r->leaf->max_rep;

    for (;;) {
        int32_t i, k, take;
        const uint8_t *rl;
        if (!r->in_page || r->level_pos >= r->page_levels) {
            if ((rc = next_page(r, &eof, err)) != 0)
                return rc;
            if (eof)
                break;
            continue;
        }
        rl = max_rep > 0 ? r->rep.data : NULL;
        i = r->level_pos;
        if (rl == NULL) {
            int64_t room = n - started;
            int32_t avail = r->page_levels - i;
            take = (int64_t)avail < room ? avail : (int32_t)room;
            started += take;
            i += take;
        } else {
            for (; i < r->page_levels; i++) {
                if (rl[i] == 0) {
                    if (started == n)
                        break;
                    started++;
                }
            }
        }
        take = i - r->level_pos;
        if (take > 0) {
            const uint8_t *dl = max_def > 0 ? r->def.data + r->level_pos : NULL;
            if (dl != NULL) {
                if ((rc = pm_buf_append(def, dl, (size_t)take)) != 0)
                    return pm_buf_error(err, rc);
                k = count_eq(dl, (size_t)take, (uint8_t)max_def);
            } else {
                if ((rc = pm_buf_zero(def, (size_t)take)) != 0)
                    return pm_buf_error(err, rc);
                k = take;
            }
            if (rl != NULL)
                rc = pm_buf_append(rep, rl + r->level_pos, (size_t)take);
            else
                rc = pm_buf_zero(rep, (size_t)take);
            if (rc != 0)
                return pm_buf_error(err, rc);
            if ((rc = pm_pq_values_decode(r, k, col, err)) != 0)
                return page_error(r, err, rc);
            r->level_pos = i;
        }
        if (started == n && (i < r->page_levels || rl == NULL))
            break;
    }
    if (started < n)
        return pm_corrupt(err, "%s: column chunk at offset %llu has fewer rows than its row group",
                          r->path, (unsigned long long)r->chunk_off);
    return 0;
}

/* Rows in the data page whose header is `h`, when known without decoding it. */
static int64_t page_rows(const pq_col_reader *r, const pq_page_header *h)
{
    if (r->leaf->max_rep == 0)
        return h->num_values;
    if (h->type == PQ_DATA_PAGE_V2 && h->has_v2)
        return h->num_rows;
    if (r->oi != NULL && r->page_idx + 1 < r->oi->page_count)
        return r->oi->pages[r->page_idx + 1].first_row - r->oi->pages[r->page_idx].first_row;
    return -1;
}

int pm_pq_col_skip_rows(pq_col_reader *r, int64_t n, paimon_error *err)
{
    int rc;
    pm_buf def, rep;

    /* whole pages first, without decompressing them */
    while (n > 0 && (!r->in_page || r->level_pos >= r->page_levels) && r->pos < r->chunk_len) {
        pq_page_header h;
        size_t body;
        int64_t rows;
        size_t save = r->pos;
        if ((rc = read_header(r, &h, &body, err)) != 0)
            return rc;
        if (h.type == PQ_DICTIONARY_PAGE) {
            const uint8_t *src;
            r->pos = body + (size_t)h.compressed_size;
            if ((rc = chunk_bytes(r, body, (size_t)h.compressed_size, &src, err)) != 0 ||
                (rc = load_dictionary(r, &h, src, err)) != 0)
                return rc;
            continue;
        }
        if (h.type != PQ_DATA_PAGE && h.type != PQ_DATA_PAGE_V2) {
            r->pos = body + (size_t)h.compressed_size;
            continue;
        }
        rows = page_rows(r, &h);
        if (rows < 0 || rows > n) {
            r->pos = save;
            break;
        }
        r->pos = body + (size_t)h.compressed_size;
        r->in_page = false;
        r->values_seen += h.num_values;
        r->page_idx++;
        n -= rows;
    }
    if (n == 0)
        return 0;
    /* the rest by decoding into a throw-away column */
    if (r->skip == NULL && (r->skip = pm_column_new(r->plan->type)) == NULL)
        return pm_nomem(err);
    pm_buf_init(&def, 0);
    pm_buf_init(&rep, 0);
    while (n > 0) {
        int64_t step = n < 4096 ? n : 4096;
        pm_column_reset(r->skip);
        def.len = rep.len = 0;
        /* read_flat spaces values by "level > 0": right for a top-level column only; a
         * field of a ROW (max_def 2 and more, no repetition) takes the levels' way */
        if (r->leaf->max_rep == 0 && r->leaf->max_def <= 1)
            rc = pm_pq_col_read_flat(r, step, r->skip, err);
        else
            rc = pm_pq_col_read_levels(r, step, &def, &rep, r->skip, err);
        if (rc != 0)
            break;
        n -= step;
    }
    pm_buf_free(&def);
    pm_buf_free(&rep);
    return rc;
}
