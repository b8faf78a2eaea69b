/* Avro object container files: see avro_container.h. */
#include "format/avro/avro_container.h"

#include <string.h>
#include <strings.h>
#include <sys/random.h>

#include "format/avro/avro_io.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/hash.h"

static const struct {
    const char *name;
    pm_codec codec;
} CODECS[] = {{"null", PM_CODEC_NONE},
              {"deflate", PM_CODEC_DEFLATE_RAW},
              {"snappy", PM_CODEC_SNAPPY},
              {"zstandard", PM_CODEC_ZSTD}};

static bool codec_by_name(const char *name, size_t len, pm_codec *codec, const char **static_name)
{
    for (size_t i = 0; i < sizeof(CODECS) / sizeof(CODECS[0]); i++) {
        if (strlen(CODECS[i].name) == len && memcmp(CODECS[i].name, name, len) == 0) {
            *codec = CODECS[i].codec;
            *static_name = CODECS[i].name;
            return true;
        }
    }
    return false;
}

const char *pm_avro_codec_for_option(const char *option)
{
    if (option == NULL || strcasecmp(option, "zstd") == 0 || strcasecmp(option, "zstandard") == 0)
        return "zstandard";
    if (strcasecmp(option, "none") == 0 || strcasecmp(option, "null") == 0 ||
        strcasecmp(option, "uncompressed") == 0)
        return "null";
    if (strcasecmp(option, "snappy") == 0)
        return "snappy";
    if (strcasecmp(option, "deflate") == 0 || strcasecmp(option, "gzip") == 0 ||
        strcasecmp(option, "zlib") == 0)
        return "deflate";
    return NULL;
}

/* ---- reading --------------------------------------------------------------------------- */

PM_MUST_CHECK static int reader_open(pm_avro_reader *r, const uint8_t *data, size_t len,
                                     const char *what, paimon_error *err)
{
    pm_avro_cursor c = {data, data + len, data};
    const uint8_t *codec = (const uint8_t *)"null";
    size_t codec_len = 4;
    int rc;

    memset(r, 0, sizeof(*r));
    r->what = what;
    r->data = data;
    r->len = len;
    r->max_block = PM_AVRO_DEFAULT_MAX_BLOCK;
    pm_arena_init(&r->arena, 4096);
    if (len < 4 || memcmp(data, PM_AVRO_MAGIC, 4) != 0)
        return pm_corrupt(err, "%s: not an Avro container file (bad magic)", what);
    c.p += 4;
    /* File metadata: a map<bytes> in blocks; a negative count is followed by a byte size. */
    for (;;) {
        int64_t count;
        if (!pm_avro_read_long(&c, &count))
            return pm_corrupt(err, "%s: truncated Avro header at offset %zu", what,
                              pm_avro_offset(&c));
        if (count == 0)
            break;
        if (count < 0) {
            int64_t bytes;
            if (count == INT64_MIN || !pm_avro_read_long(&c, &bytes))
                return pm_corrupt(err, "%s: bad Avro header map at offset %zu", what,
                                  pm_avro_offset(&c));
            count = -count;
        }
        if (count > 1 << 16)
            return pm_corrupt(err, "%s: Avro header map with %lld entries", what, (long long)count);
        for (int64_t i = 0; i < count; i++) {
            const uint8_t *key, *value;
            size_t kl, vl;
            if (!pm_avro_read_bytes(&c, &key, &kl) || !pm_avro_read_bytes(&c, &value, &vl))
                return pm_corrupt(err, "%s: truncated Avro header at offset %zu", what,
                                  pm_avro_offset(&c));
            if (kl == 11 && memcmp(key, "avro.schema", 11) == 0) {
                r->schema_json = (const char *)value;
                r->schema_json_len = vl;
            } else if (kl == 10 && memcmp(key, "avro.codec", 10) == 0) {
                codec = value;
                codec_len = vl;
            }
        }
    }
    if (!pm_avro_skip(&c, 0) || (size_t)(c.end - c.p) < 16)
        return pm_corrupt(err, "%s: Avro header without a sync marker", what);
    memcpy(r->sync, c.p, 16);
    c.p += 16;
    r->pos = pm_avro_offset(&c);
    if (r->schema_json == NULL)
        return pm_corrupt(err, "%s: Avro header without avro.schema", what);
    if (!codec_by_name((const char *)codec, codec_len, &r->codec, &r->codec_name)) {
        /* Codecs of the Avro spec this reader lacks are unsupported; anything else is a
         * damaged header. */
        bool known = (codec_len == 5 && memcmp(codec, "bzip2", 5) == 0) ||
                     (codec_len == 2 && memcmp(codec, "xz", 2) == 0);
        return pm_err_set(err, known ? PAIMON_EUNSUPPORTED : PAIMON_ECORRUPT,
                          "%s: Avro codec '%.*s' is %s", what,
                          (int)(codec_len > 32 ? 32 : codec_len), (const char *)codec,
                          known ? "not supported" : "unknown");
    }
    rc = pm_avro_schema_parse(r->schema_json, r->schema_json_len, &r->arena, what, &r->schema, err);
    if (rc != 0)
        return rc;
    r->ctx = pm_codec_ctx_new();
    return r->ctx == NULL ? pm_nomem(err) : 0;
}

int pm_avro_reader_open(pm_avro_reader *r, const uint8_t *data, size_t len, const char *what,
                        paimon_error *err)
{
    int rc = reader_open(r, data, len, what, err);
    /* A header that fails after its schema parsed must not keep the schema nodes: callers
     * that do not close a reader whose open failed would leak them.  Closing twice is
     * harmless. */
    if (rc != 0)
        pm_avro_reader_close(r);
    return rc;
}

int pm_avro_reader_next_block(pm_avro_reader *r, pm_buf *block, int64_t *count, size_t *block_off,
                              paimon_error *err)
{
    pm_avro_cursor c = {r->data + r->pos, r->data + r->len, r->data};
    const uint8_t *payload;
    int64_t n, size;
    size_t saved_max;
    int rc;

    if (r->pos >= r->len)
        return PAIMON_ITEROVER;
    *block_off = r->pos;
    if (!pm_avro_read_long(&c, &n) || !pm_avro_read_long(&c, &size) || n < 0 || size < 0 ||
        (uint64_t)size > (uint64_t)(c.end - c.p))
        return pm_corrupt(err, "%s: bad Avro block header at offset %zu", r->what, r->pos);
    payload = c.p;
    c.p += size;
    if ((size_t)(c.end - c.p) < 16 || memcmp(c.p, r->sync, 16) != 0)
        return pm_corrupt(err, "%s: Avro block at offset %zu does not end with the sync marker",
                          r->what, r->pos);
    c.p += 16;
    if (block == NULL) {
        r->pos = (size_t)(c.p - r->data);
        *count = n;
        return 0;
    }

    pm_buf_reset(block);
    saved_max = block->max;
    block->max = r->max_block;
    if (r->codec == PM_CODEC_SNAPPY) {
        /* snappy block + BE CRC-32 of the uncompressed bytes */
        if (size < 4) {
            rc =
                pm_corrupt(err, "%s: snappy Avro block at offset %zu without CRC", r->what, r->pos);
        } else {
            rc = pm_decompress(r->ctx, PM_CODEC_SNAPPY, payload, (size_t)size - 4, 0, block, err);
            if (rc == 0 && pm_crc32(block->data, block->len) != pm_load_be32(payload + size - 4))
                rc = pm_corrupt(err, "%s: snappy Avro block at offset %zu fails its CRC", r->what,
                                r->pos);
        }
    } else {
        rc = pm_decompress(r->ctx, r->codec, payload, (size_t)size, 0, block, err);
    }
    block->max = saved_max;
    if (rc != 0) {
        if (rc == PAIMON_ECORRUPT || rc == PAIMON_ELIMIT)
            pm_err_prefix(err, rc, "%s: Avro block at offset %zu: ", r->what, r->pos);
        return rc;
    }
    r->pos = (size_t)(c.p - r->data);
    *count = n;
    return 0;
}

void pm_avro_reader_close(pm_avro_reader *r)
{
    pm_arena_free(&r->arena);
    pm_codec_ctx_free(r->ctx);
    r->ctx = NULL;
}

/* ---- writing --------------------------------------------------------------------------- */

PM_MUST_CHECK static int emit(pm_avro_writer *w, const void *data, size_t len, paimon_error *err)
{
    int rc;
    if (w->output != NULL)
        return w->output->write(w->output, data, len, err);
    rc = pm_buf_append(w->sink, data, len);
    return rc != 0 ? pm_buf_error(err, rc) : 0;
}

int pm_avro_writer_open(pm_avro_writer *w, const char *schema_json, const char *codec_name,
                        int level, pm_buf *sink, pm_output *output, paimon_error *err)
{
    const char *static_name;
    pm_buf header;
    size_t got = 0;
    int rc;

    memset(w, 0, sizeof(*w));
    pm_buf_init(&w->block, 0);
    pm_buf_init(&w->packed, 0);
    w->sink = sink;
    w->output = output;
    w->level = level;
    w->sync_interval = PM_AVRO_SYNC_INTERVAL;
    if (!codec_by_name(codec_name, strlen(codec_name), &w->codec, &static_name))
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "Avro codec '%s' is not supported", codec_name);
    while (got < sizeof(w->sync)) {
        ssize_t n = getrandom(w->sync + got, sizeof(w->sync) - got, 0);
        if (n <= 0)
            return pm_err_set(err, PAIMON_EIO, "no random source for the Avro sync marker");
        got += (size_t)n;
    }
    if ((w->ctx = pm_codec_ctx_new()) == NULL)
        return pm_nomem(err);

    /* Header: magic, {avro.schema, avro.codec} as one map block, 0, sync. */
    pm_buf_init(&header, 0);
    rc = pm_buf_append(&header, PM_AVRO_MAGIC, 4);
    if (rc == 0)
        rc = pm_avro_write_long(&header, 2);
    if (rc == 0)
        rc = pm_avro_write_string(&header, "avro.schema");
    if (rc == 0)
        rc = pm_avro_write_string(&header, schema_json);
    if (rc == 0)
        rc = pm_avro_write_string(&header, "avro.codec");
    if (rc == 0)
        rc = pm_avro_write_string(&header, static_name);
    if (rc == 0)
        rc = pm_avro_write_long(&header, 0);
    if (rc == 0)
        rc = pm_buf_append(&header, w->sync, 16);
    rc = rc != 0 ? pm_buf_error(err, rc) : emit(w, header.data, header.len, err);
    pm_buf_free(&header);
    if (rc != 0)
        pm_avro_writer_abort(w); /* a failed open holds nothing (the header write failed) */
    return rc;
}

PM_MUST_CHECK static int flush_block(pm_avro_writer *w, paimon_error *err)
{
    size_t payload_start;
    int rc;

    if (w->block_count == 0)
        return 0;
    pm_buf_reset(&w->packed);
    /* Header placeholder is built after compression; compress into `packed` first, at an
     * offset leaving room for the two varints. */
    rc = pm_buf_zero(&w->packed, 2 * PM_UVARINT_MAX);
    if (rc != 0)
        return pm_buf_error(err, rc);
    payload_start = w->packed.len;
    if (w->codec == PM_CODEC_SNAPPY) {
        uint8_t crc[4];
        rc = pm_compress(w->ctx, PM_CODEC_SNAPPY, 0, w->block.data, w->block.len, &w->packed, err);
        if (rc != 0)
            return rc;
        pm_store_be32(crc, pm_crc32(w->block.data, w->block.len));
        if ((rc = pm_buf_append(&w->packed, crc, 4)) != 0)
            return pm_buf_error(err, rc);
    } else {
        rc = pm_compress(w->ctx, w->codec, w->level, w->block.data, w->block.len, &w->packed, err);
        if (rc != 0)
            return rc;
    }
    {
        uint8_t head[2 * PM_UVARINT_MAX];
        size_t hl = pm_uvarint_encode(head, pm_zigzag_encode(w->block_count));
        size_t payload = w->packed.len - payload_start;
        hl += pm_uvarint_encode(head + hl, pm_zigzag_encode((int64_t)payload));
        memcpy(w->packed.data + payload_start - hl, head, hl);
        if ((rc = pm_buf_append(&w->packed, w->sync, 16)) != 0)
            return pm_buf_error(err, rc);
        rc =
            emit(w, w->packed.data + payload_start - hl, w->packed.len - (payload_start - hl), err);
    }
    if (rc != 0)
        return rc;
    pm_buf_reset(&w->block);
    w->block_count = 0;
    return 0;
}

int pm_avro_writer_end_object(pm_avro_writer *w, paimon_error *err)
{
    w->block_count++;
    w->total_count++;
    if (w->block.len >= w->sync_interval)
        return flush_block(w, err);
    return 0;
}

void pm_avro_writer_abort(pm_avro_writer *w)
{
    pm_buf_free(&w->block);
    pm_buf_free(&w->packed);
    pm_codec_ctx_free(w->ctx);
    w->ctx = NULL;
}

int pm_avro_writer_close(pm_avro_writer *w, paimon_error *err)
{
    int rc = flush_block(w, err);
    pm_avro_writer_abort(w);
    return rc;
}
