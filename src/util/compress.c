/* Codec wrappers: see compress.h. */
#include "util/compress.h"

#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <pthread.h>

#include "util/alloc.h"

/* Spare zstd decompression contexts.  Creating one costs more than decompressing a
 * manifest (it allocates and clears its tables), and every manifest, manifest list and
 * snapshot read opens a reader with a fresh pm_codec_ctx; a freed context's DCtx waits here
 * for the next one instead.  A few suffice (one per concurrent reader); the rest are freed. */
#define SPARE_DCTX_MAX 8
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static ZSTD_DCtx *spare_dctx[SPARE_DCTX_MAX];
static size_t spare_count;

static ZSTD_DCtx *spare_take(void)
{
    ZSTD_DCtx *zd = NULL;
    pthread_mutex_lock(&spare_lock);
    if (spare_count > 0)
        zd = spare_dctx[--spare_count];
    pthread_mutex_unlock(&spare_lock);
    return zd;
}

static void spare_give(ZSTD_DCtx *zd)
{
    if (zd == NULL)
        return;
    pthread_mutex_lock(&spare_lock);
    if (spare_count < SPARE_DCTX_MAX) {
        spare_dctx[spare_count++] = zd;
        zd = NULL;
    }
    pthread_mutex_unlock(&spare_lock);
    ZSTD_freeDCtx(zd);
}

__attribute__((destructor)) static void spare_free_all(void)
{
    while (spare_count > 0)
        ZSTD_freeDCtx(spare_dctx[--spare_count]);
}

struct pm_codec_ctx {
    ZSTD_CCtx *zc; /* created on first compression */
    ZSTD_DCtx *zd; /* created on first decompression */
};

pm_codec_ctx *pm_codec_ctx_new(void)
{
    return pm_calloc(1, sizeof(pm_codec_ctx));
}

void pm_codec_ctx_free(pm_codec_ctx *ctx)
{
    if (ctx == NULL)
        return;
    ZSTD_freeCCtx(ctx->zc);
    spare_give(ctx->zd);
    pm_free(ctx);
}

const char *pm_codec_name(pm_codec codec)
{
    switch (codec) {
    case PM_CODEC_NONE: return "none";
    case PM_CODEC_ZSTD: return "zstd";
    case PM_CODEC_SNAPPY: return "snappy";
    case PM_CODEC_DEFLATE_RAW: return "deflate";
    case PM_CODEC_GZIP: return "gzip";
    case PM_CODEC_LZ4_RAW: return "lz4";
    }
    return "unknown";
}

/* ---- zstd ------------------------------------------------------------------------------ */

PM_MUST_CHECK static int zstd_compress(pm_codec_ctx *ctx, int level, const uint8_t *src, size_t len,
                                       pm_buf *out, paimon_error *err)
{
    ZSTD_CCtx *zc = ctx != NULL ? ctx->zc : NULL;
    size_t bound = ZSTD_compressBound(len), n;
    int rc = pm_buf_reserve(out, bound);

    if (rc != 0)
        return pm_buf_error(err, rc);
    if (zc == NULL) {
        zc = ZSTD_createCCtx();
        if (zc == NULL)
            return pm_nomem(err);
        if (ctx != NULL)
            ctx->zc = zc;
    }
    n = ZSTD_compressCCtx(zc, out->data + out->len, bound, src, len, level == 0 ? 1 : level);
    if (ctx == NULL)
        ZSTD_freeCCtx(zc);
    if (ZSTD_isError(n))
        return pm_err_set(err, PAIMON_EIO, "zstd: %s", ZSTD_getErrorName(n));
    out->len += n;
    return 0;
}

/* A frame zstd refuses: PAIMON_ECORRUPT with zstd's reason, "Destination buffer is too
 * small" told as the corruption it is.  Contexts are reused (spare_take) and keep buffers
 * sized by the frames they decoded before, and the reason zstd gives for a corrupt frame can
 * follow them: the ORC fuzz target met the same stream failing with "Data corruption
 * detected" in place and "Destination buffer is too small" on the pool. */
PM_MUST_CHECK static int zstd_refused(size_t code, paimon_error *err)
{
    ZSTD_ErrorCode e = ZSTD_getErrorCode(code);
    if (e == ZSTD_error_dstSize_tooSmall)
        e = ZSTD_error_corruption_detected;
    return pm_corrupt(err, "zstd: %s", ZSTD_getErrorString(e));
}

PM_MUST_CHECK static int zstd_decompress(pm_codec_ctx *ctx, const uint8_t *src, size_t len,
                                         pm_buf *out, paimon_error *err)
{
    ZSTD_DCtx *zd = ctx != NULL ? ctx->zd : NULL;
    ZSTD_inBuffer in = {src, len, 0};
    size_t ret = 1;
    int rc = 0;

    if (len == 0)
        return pm_corrupt(err, "zstd: empty input");
    if (zd == NULL) {
        zd = ctx != NULL ? spare_take() : NULL;
        if (zd == NULL)
            zd = ZSTD_createDCtx();
        if (zd == NULL)
            return pm_nomem(err);
        if (ctx != NULL)
            ctx->zd = zd;
    }
    /* One frame that records its size (paimon-c's own writer): decode in one call into an
     * exact buffer.  Java's streams omit the size and take the streaming path below. */
    {
        unsigned long long size = ZSTD_getFrameContentSize(src, len);
        if (size != ZSTD_CONTENTSIZE_UNKNOWN && size != ZSTD_CONTENTSIZE_ERROR &&
            ZSTD_findFrameCompressedSize(src, len) == len) {
            size_t n;
            if (size > out->max - out->len) {
                rc = pm_err_set(err, PAIMON_ELIMIT, "zstd: frame of %llu bytes exceeds the limit",
                                size);
                goto done;
            }
            if ((rc = pm_buf_reserve(out, (size_t)size)) != 0) {
                rc = pm_buf_error(err, rc);
                goto done;
            }
            n = ZSTD_decompressDCtx(zd, out->data + out->len, (size_t)size, src, len);
            if (ZSTD_isError(n))
                rc = zstd_refused(n, err);
            else if (n != size)
                rc = pm_corrupt(err, "zstd: frame holds %zu bytes, its header says %llu", n, size);
            else
                out->len += n;
            goto done;
        }
    }
    ZSTD_DCtx_reset(zd, ZSTD_reset_session_only);
    /* Loop until all input is consumed and the last frame is complete and flushed (ret 0).
     * Frames may be concatenated; each ends with ret == 0. */
    while (in.pos < in.size || ret != 0) {
        ZSTD_outBuffer o;
        size_t room = ZSTD_DStreamOutSize();
        if (out->max - out->len < room)
            room = out->max - out->len;
        if (room == 0) {
            rc = pm_err_set(err, PAIMON_ELIMIT, "zstd: decompressed data exceeds %zu bytes",
                            out->max);
            break;
        }
        rc = pm_buf_reserve(out, room);
        if (rc != 0) {
            rc = pm_buf_error(err, rc);
            break;
        }
        o.dst = out->data + out->len;
        o.size = room;
        o.pos = 0;
        ret = ZSTD_decompressStream(zd, &o, &in);
        if (ZSTD_isError(ret)) {
            rc = zstd_refused(ret, err);
            break;
        }
        out->len += o.pos;
        /* Out of input, frame unfinished, and the output was not the limit: truncated. */
        if (in.pos == in.size && ret != 0 && o.pos < o.size) {
            rc = pm_corrupt(err, "zstd: truncated frame");
            break;
        }
    }
done:
    if (ctx == NULL)
        ZSTD_freeDCtx(zd);
    return rc;
}

/* ---- snappy ---------------------------------------------------------------------------- */

PM_MUST_CHECK static int snappy_do_compress(const uint8_t *src, size_t len, pm_buf *out,
                                            paimon_error *err)
{
    size_t bound = snappy_max_compressed_length(len), n = bound;
    int rc = pm_buf_reserve(out, bound);
    if (rc != 0)
        return pm_buf_error(err, rc);
    if (snappy_compress((const char *)src, len, (char *)out->data + out->len, &n) != SNAPPY_OK)
        return pm_err_set(err, PAIMON_EIO, "snappy: compression failed");
    out->len += n;
    return 0;
}

PM_MUST_CHECK static int snappy_do_decompress(const uint8_t *src, size_t len, pm_buf *out,
                                              paimon_error *err)
{
    size_t n = 0;
    int rc;
    if (snappy_uncompressed_length((const char *)src, len, &n) != SNAPPY_OK)
        return pm_corrupt(err, "snappy: bad length header");
    if (n > out->max - out->len)
        return pm_err_set(err, PAIMON_ELIMIT, "snappy: block of %zu bytes exceeds the limit", n);
    rc = pm_buf_reserve(out, n);
    if (rc != 0)
        return pm_buf_error(err, rc);
    if (snappy_uncompress((const char *)src, len, (char *)out->data + out->len, &n) != SNAPPY_OK)
        return pm_corrupt(err, "snappy: malformed block");
    out->len += n;
    return 0;
}

/* ---- deflate / gzip -------------------------------------------------------------------- */

PM_MUST_CHECK static int zlib_compress(int window_bits, int level, const uint8_t *src, size_t len,
                                       pm_buf *out, paimon_error *err)
{
    z_stream z = {0};
    int rc, zr;
    if (deflateInit2(&z, level == 0 ? Z_DEFAULT_COMPRESSION : level, Z_DEFLATED, window_bits, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK)
        return pm_nomem(err);
    rc = pm_buf_reserve(out, deflateBound(&z, (uLong)len) + 32);
    if (rc != 0) {
        deflateEnd(&z);
        return pm_buf_error(err, rc);
    }
    z.next_in = (Bytef *)(uintptr_t)src;
    z.avail_in = (uInt)len;
    z.next_out = out->data + out->len;
    z.avail_out = (uInt)(out->cap - out->len - 1);
    zr = deflate(&z, Z_FINISH);
    if (zr != Z_STREAM_END) {
        deflateEnd(&z);
        return pm_err_set(err, PAIMON_EIO, "deflate: compression failed (%d)", zr);
    }
    out->len += z.total_out;
    deflateEnd(&z);
    return 0;
}

PM_MUST_CHECK static int zlib_decompress(int window_bits, const uint8_t *src, size_t len,
                                         pm_buf *out, paimon_error *err)
{
    z_stream z = {0};
    int rc = 0, zr = Z_OK;
    const char *name = window_bits < 0 ? "deflate" : "gzip";

    if (inflateInit2(&z, window_bits) != Z_OK)
        return pm_nomem(err);
    z.next_in = (Bytef *)(uintptr_t)src;
    z.avail_in = (uInt)len;
    for (;;) {
        size_t room = 64 * 1024, before;
        if (out->max - out->len < room)
            room = out->max - out->len;
        if (room == 0) {
            rc = pm_err_set(err, PAIMON_ELIMIT, "%s: decompressed data exceeds %zu bytes", name,
                            out->max);
            break;
        }
        rc = pm_buf_reserve(out, room);
        if (rc != 0) {
            rc = pm_buf_error(err, rc);
            break;
        }
        z.next_out = out->data + out->len;
        z.avail_out = (uInt)room;
        before = z.avail_out;
        zr = inflate(&z, Z_NO_FLUSH);
        out->len += before - z.avail_out;
        if (zr == Z_STREAM_END) {
            /* gzip files may hold several members: continue with the next one. */
            if (window_bits > 15 && z.avail_in > 0) {
                inflateReset(&z);
                continue;
            }
            break;
        }
        if (zr != Z_OK && zr != Z_BUF_ERROR) {
            rc = pm_corrupt(err, "%s: %s", name, z.msg != NULL ? z.msg : "malformed stream");
            break;
        }
        if (zr == Z_BUF_ERROR && z.avail_in == 0) {
            rc = pm_corrupt(err, "%s: truncated stream", name);
            break;
        }
    }
    inflateEnd(&z);
    return rc;
}

/* ---- lz4 ------------------------------------------------------------------------------- */

PM_MUST_CHECK static int lz4_compress(const uint8_t *src, size_t len, pm_buf *out,
                                      paimon_error *err)
{
    int bound, n, rc;
    if (len > LZ4_MAX_INPUT_SIZE)
        return pm_err_set(err, PAIMON_ELIMIT, "lz4: block too large");
    bound = LZ4_compressBound((int)len);
    rc = pm_buf_reserve(out, (size_t)bound);
    if (rc != 0)
        return pm_buf_error(err, rc);
    n = LZ4_compress_default((const char *)src, (char *)out->data + out->len, (int)len, bound);
    if (n <= 0)
        return pm_err_set(err, PAIMON_EIO, "lz4: compression failed");
    out->len += (size_t)n;
    return 0;
}

PM_MUST_CHECK static int lz4_decompress(const uint8_t *src, size_t len, size_t expected,
                                        pm_buf *out, paimon_error *err)
{
    int n, rc;
    if (expected > (size_t)LZ4_MAX_INPUT_SIZE * 2 || len > (size_t)LZ4_MAX_INPUT_SIZE)
        return pm_err_set(err, PAIMON_ELIMIT, "lz4: block too large");
    if (expected > out->max - out->len)
        return pm_err_set(err, PAIMON_ELIMIT, "lz4: block of %zu bytes exceeds the limit",
                          expected);
    rc = pm_buf_reserve(out, expected);
    if (rc != 0)
        return pm_buf_error(err, rc);
    n = LZ4_decompress_safe((const char *)src, (char *)out->data + out->len, (int)len,
                            (int)expected);
    if (n < 0 || (size_t)n != expected)
        return pm_corrupt(err, "lz4: malformed block");
    out->len += (size_t)n;
    return 0;
}

/* ---- dispatch -------------------------------------------------------------------------- */

int pm_compress(pm_codec_ctx *ctx, pm_codec codec, int level, const uint8_t *src, size_t len,
                pm_buf *out, paimon_error *err)
{
    int rc;
    switch (codec) {
    case PM_CODEC_NONE:
        rc = pm_buf_append(out, src, len);
        return rc != 0 ? pm_buf_error(err, rc) : 0;
    case PM_CODEC_ZSTD: return zstd_compress(ctx, level, src, len, out, err);
    case PM_CODEC_SNAPPY: return snappy_do_compress(src, len, out, err);
    case PM_CODEC_DEFLATE_RAW: return zlib_compress(-15, level, src, len, out, err);
    case PM_CODEC_GZIP: return zlib_compress(15 + 16, level, src, len, out, err);
    case PM_CODEC_LZ4_RAW: return lz4_compress(src, len, out, err);
    }
    return pm_err_set(err, PAIMON_EUNSUPPORTED, "unknown codec %d", (int)codec);
}

int pm_decompress(pm_codec_ctx *ctx, pm_codec codec, const uint8_t *src, size_t len,
                  size_t expected_len, pm_buf *out, paimon_error *err)
{
    size_t start = out->len;
    int rc;
    switch (codec) {
    case PM_CODEC_NONE:
        rc = pm_buf_append(out, src, len);
        rc = rc != 0 ? pm_buf_error(err, rc) : 0;
        break;
    case PM_CODEC_ZSTD: rc = zstd_decompress(ctx, src, len, out, err); break;
    case PM_CODEC_SNAPPY: rc = snappy_do_decompress(src, len, out, err); break;
    case PM_CODEC_DEFLATE_RAW: rc = zlib_decompress(-15, src, len, out, err); break;
    case PM_CODEC_GZIP: rc = zlib_decompress(15 + 16, src, len, out, err); break;
    case PM_CODEC_LZ4_RAW: return lz4_decompress(src, len, expected_len, out, err);
    default: return pm_err_set(err, PAIMON_EUNSUPPORTED, "unknown codec %d", (int)codec);
    }
    if (rc == 0 && expected_len != 0 && out->len - start != expected_len)
        return pm_corrupt(err, "%s: decompressed %zu bytes, expected %zu", pm_codec_name(codec),
                          out->len - start, expected_len);
    return rc;
}
