/* ORC compression chunks: see orc_stream.h. */
#include "format/orc/orc_stream.h"

#include <lz4.h>
#include <string.h>

#include "util/error.h"

/* A decompressed stream larger than this is refused (PAIMON_ELIMIT): a hostile chunk can
 * claim up to 8 MiB for a few bytes, and a stream has as many chunks as it likes. */
static size_t max_stream = (size_t)1 << 31;

void pm_orc_stream_limit(size_t max)
{
    max_stream = max;
}

static pm_codec util_codec(pm_orc_compression kind)
{
    switch (kind) {
    case PM_ORC_ZLIB: return PM_CODEC_DEFLATE_RAW;
    case PM_ORC_SNAPPY: return PM_CODEC_SNAPPY;
    case PM_ORC_LZ4: return PM_CODEC_LZ4_RAW;
    case PM_ORC_ZSTD: return PM_CODEC_ZSTD;
    default: return PM_CODEC_NONE;
    }
}

int pm_orc_codec_check(pm_orc_compression kind, const char *path, paimon_error *err)
{
    switch (kind) {
    case PM_ORC_NONE:
    case PM_ORC_ZLIB:
    case PM_ORC_SNAPPY:
    case PM_ORC_LZ4:
    case PM_ORC_ZSTD: return 0;
    case PM_ORC_LZO:
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: ORC compression LZO is not supported",
                          path);
    }
    return pm_corrupt(err, "%s: unknown ORC compression kind %d", path, (int)kind);
}

/* LZ4 chunks do not record their decompressed size: decode into the block size. */
PM_MUST_CHECK static int lz4_chunk(const uint8_t *src, size_t len, size_t cap, pm_buf *out,
                                   paimon_error *err)
{
    int n, rc = pm_buf_reserve(out, cap);
    if (rc != 0)
        return pm_buf_error(err, rc);
    if (len > (size_t)LZ4_MAX_INPUT_SIZE || cap > (size_t)INT32_MAX)
        return pm_corrupt(err, "lz4: chunk too large");
    n = LZ4_decompress_safe((const char *)src, (char *)out->data + out->len, (int)len, (int)cap);
    if (n < 0)
        return pm_corrupt(err, "lz4: malformed chunk");
    out->len += (size_t)n;
    return 0;
}

int pm_orc_decompress(const pm_orc_codec *codec, const uint8_t *src, size_t len, uint64_t off,
                      const char *path, const char *what, pm_buf *out, pm_orc_chunk_map *map,
                      paimon_error *err)
{
    size_t pos = 0, saved_max = out->max;
    int rc = 0;

    if (codec->kind == PM_ORC_NONE) {
        if (map != NULL) {
            uint64_t pair[2] = {0, out->len};
            if ((rc = pm_buf_append(&map->pairs, pair, sizeof(pair))) != 0)
                return pm_buf_error(err, rc);
        }
        rc = pm_buf_append(out, src, len);
        return rc != 0 ? pm_buf_error(err, rc) : 0;
    }
    while (pos < len) {
        uint32_t header;
        size_t chunk;
        bool original;
        if (len - pos < PM_ORC_HEADER_SIZE)
            return pm_corrupt(err, "%s: %s: truncated ORC chunk header at offset %llu", path, what,
                              (unsigned long long)(off + pos));
        header = (uint32_t)src[pos] | (uint32_t)src[pos + 1] << 8 | (uint32_t)src[pos + 2] << 16;
        chunk = header >> 1;
        original = (header & 1) != 0;
        if (chunk > len - pos - PM_ORC_HEADER_SIZE)
            return pm_corrupt(err,
                              "%s: %s: ORC chunk of %zu bytes at offset %llu overruns the "
                              "stream",
                              path, what, chunk, (unsigned long long)(off + pos));
        if (map != NULL) {
            uint64_t pair[2] = {pos, out->len};
            if ((rc = pm_buf_append(&map->pairs, pair, sizeof(pair))) != 0)
                return pm_buf_error(err, rc);
        }
        if (out->len + codec->block_size > max_stream)
            return pm_err_set(err, PAIMON_ELIMIT,
                              "%s: %s: decompressed ORC stream exceeds %zu bytes", path, what,
                              max_stream);
        if (original) {
            if (chunk > codec->block_size)
                return pm_corrupt(err,
                                  "%s: %s: ORC chunk at offset %llu is larger than the "
                                  "block size",
                                  path, what, (unsigned long long)(off + pos));
            rc = pm_buf_append(out, src + pos + PM_ORC_HEADER_SIZE, chunk);
            rc = rc != 0 ? pm_buf_error(err, rc) : 0;
        } else if (codec->kind == PM_ORC_LZ4) {
            rc = lz4_chunk(src + pos + PM_ORC_HEADER_SIZE, chunk, codec->block_size, out, err);
        } else {
            /* bound the chunk by the block size the PostScript promises */
            out->max = out->len + codec->block_size;
            rc = pm_decompress(codec->ctx, util_codec(codec->kind), src + pos + PM_ORC_HEADER_SIZE,
                               chunk, 0, out, err);
            out->max = saved_max;
            if (rc == PAIMON_ELIMIT)
                rc = pm_corrupt(err,
                                "%s: %s: ORC chunk at offset %llu expands beyond the "
                                "block size of %zu",
                                path, what, (unsigned long long)(off + pos), codec->block_size);
        }
        if (rc != 0)
            return pm_err_prefix(err, rc, "%s: %s: ORC chunk at offset %llu: ", path, what,
                                 (unsigned long long)(off + pos));
        pos += PM_ORC_HEADER_SIZE + chunk;
    }
    return 0;
}

bool pm_orc_chunk_lookup(const pm_orc_chunk_map *map, uint64_t comp, uint64_t *raw)
{
    const uint64_t *p = (const uint64_t *)map->pairs.data;
    size_t lo = 0, hi = map->pairs.len / (2 * sizeof(uint64_t));
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p[2 * mid] == comp) {
            *raw = p[2 * mid + 1];
            return true;
        }
        if (p[2 * mid] < comp)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* ---- writing --------------------------------------------------------------------------- */

void pm_orc_outstream_init(pm_orc_outstream *s, const pm_orc_codec *codec)
{
    memset(s, 0, sizeof(*s));
    s->codec = codec;
    pm_buf_init(&s->current, 0);
    pm_buf_init(&s->out, 0);
    pm_buf_init(&s->scratch, 0);
}

void pm_orc_outstream_free(pm_orc_outstream *s)
{
    pm_buf_free(&s->current);
    pm_buf_free(&s->out);
    pm_buf_free(&s->scratch);
}

void pm_orc_outstream_reset(pm_orc_outstream *s)
{
    pm_buf_reset(&s->current);
    pm_buf_reset(&s->out);
    s->suppressed = false;
}

static int put_header(pm_buf *b, size_t len, bool original)
{
    uint32_t v = (uint32_t)(len << 1) | (original ? 1u : 0u);
    uint8_t h[3] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16)};
    return pm_buf_append(b, h, 3);
}

/* Compresses `len` bytes into one chunk appended to `out` (Java's OutStream.spill). */
PM_MUST_CHECK static int emit_chunk(const pm_orc_codec *codec, const uint8_t *data, size_t len,
                                    pm_buf *out, pm_buf *scratch, paimon_error *err)
{
    int rc;
    pm_buf_reset(scratch);
    rc = pm_compress(codec->ctx, util_codec(codec->kind), codec->level, data, len, scratch, err);
    if (rc != 0)
        return rc;
    /* Java stores the original when compression does not make the chunk smaller. */
    if (scratch->len < len) {
        if ((rc = put_header(out, scratch->len, false)) == 0)
            rc = pm_buf_append(out, scratch->data, scratch->len);
    } else {
        if ((rc = put_header(out, len, true)) == 0)
            rc = pm_buf_append(out, data, len);
    }
    return rc != 0 ? pm_buf_error(err, rc) : 0;
}

PM_MUST_CHECK static int spill(pm_orc_outstream *s, paimon_error *err)
{
    int rc;
    if (s->current.len == 0)
        return 0;
    rc = emit_chunk(s->codec, s->current.data, s->current.len, &s->out, &s->scratch, err);
    pm_buf_reset(&s->current);
    return rc;
}

int pm_orc_outstream_write(pm_orc_outstream *s, const void *data, size_t len, paimon_error *err)
{
    const uint8_t *p = data;
    int rc;
    /* the common case: the bytes fit the current chunk's room and buffer */
    if (s->codec->kind != PM_ORC_NONE && len > 0 && len <= s->codec->block_size - s->current.len &&
        len < s->current.cap - s->current.len) {
        memcpy(s->current.data + s->current.len, data, len);
        s->current.len += len;
        return 0;
    }
    if (s->codec->kind == PM_ORC_NONE) {
        rc = pm_buf_append(&s->out, data, len);
        return rc != 0 ? pm_buf_error(err, rc) : 0;
    }
    while (len > 0) {
        size_t room = s->codec->block_size - s->current.len, n = len < room ? len : room;
        if ((rc = pm_buf_append(&s->current, p, n)) != 0)
            return pm_buf_error(err, rc);
        p += n;
        len -= n;
        /* Java spills a full buffer only when the next byte arrives. */
        if (len > 0 && (rc = spill(s, err)) != 0)
            return rc;
    }
    return 0;
}

int pm_orc_outstream_putc(pm_orc_outstream *s, uint8_t c, paimon_error *err)
{
    int rc;
    if (s->codec->kind != PM_ORC_NONE && s->current.len == s->codec->block_size &&
        (rc = spill(s, err)) != 0)
        return rc;
    if (s->codec->kind == PM_ORC_NONE) {
        rc = pm_buf_putc(&s->out, c);
    } else if (s->current.len + 1 < s->current.cap) {
        s->current.data[s->current.len++] = c;
        return 0;
    } else {
        rc = pm_buf_putc(&s->current, c);
    }
    return rc != 0 ? pm_buf_error(err, rc) : 0;
}

int pm_orc_outstream_flush(pm_orc_outstream *s, paimon_error *err)
{
    if (s->codec->kind == PM_ORC_NONE)
        return 0;
    return spill(s, err);
}

int pm_orc_outstream_position(const pm_orc_outstream *s, pm_orc_positions *pos)
{
    int rc = pm_orc_positions_add(pos, s->out.len);
    if (rc == 0 && s->codec->kind != PM_ORC_NONE)
        rc = pm_orc_positions_add(pos, s->current.len);
    return rc;
}

int pm_orc_compress_message(const pm_orc_codec *codec, const uint8_t *data, size_t len, pm_buf *out,
                            paimon_error *err)
{
    pm_buf scratch;
    int rc = 0;
    if (codec->kind == PM_ORC_NONE) {
        rc = pm_buf_append(out, data, len);
        return rc != 0 ? pm_buf_error(err, rc) : 0;
    }
    pm_buf_init(&scratch, 0);
    for (size_t pos = 0; pos < len && rc == 0; pos += codec->block_size) {
        size_t n = len - pos < codec->block_size ? len - pos : codec->block_size;
        rc = emit_chunk(codec, data + pos, n, out, &scratch, err);
    }
    pm_buf_free(&scratch);
    return rc;
}
