/* DELTA_BINARY_PACKED and BYTE_STREAM_SPLIT decoding: see encoding.h. */
#include "format/parquet/encoding.h"

#include <string.h>

#include "util/varint.h"

/* Limits far above what writers use (parquet-java: 128 values in 4 miniblocks; DuckDB and
 * Arrow: the same) that keep a hostile header from asking for absurd work per value. */
#define DELTA_MAX_BLOCK      (1u << 20)
#define DELTA_MAX_MINIBLOCKS 4096

PM_MUST_CHECK static int varint(pm_delta_decoder *d, uint64_t *v, paimon_error *err)
{
    size_t n = pm_uvarint_decode(d->p, d->end, v);
    if (n == 0)
        return pm_corrupt(err, "DELTA_BINARY_PACKED: truncated varint");
    d->p += n;
    return 0;
}

int pm_delta_init(pm_delta_decoder *d, const uint8_t *data, size_t len, int max_width,
                  paimon_error *err)
{
    uint64_t first;
    int rc;
    memset(d, 0, sizeof(*d));
    d->p = data;
    d->end = data + len;
    d->max_width = max_width;
    if ((rc = varint(d, &d->block_size, err)) != 0 || (rc = varint(d, &d->miniblocks, err)) != 0 ||
        (rc = varint(d, &d->total, err)) != 0 || (rc = varint(d, &first, err)) != 0)
        return rc;
    if (d->block_size == 0 || d->block_size % 128 != 0 || d->block_size > DELTA_MAX_BLOCK ||
        d->miniblocks == 0 || d->miniblocks > DELTA_MAX_MINIBLOCKS ||
        d->block_size % d->miniblocks != 0 || (d->block_size / d->miniblocks) % 32 != 0)
        return pm_corrupt(err, "DELTA_BINARY_PACKED: bad block size %llu / %llu miniblocks",
                          (unsigned long long)d->block_size, (unsigned long long)d->miniblocks);
    d->per_mini = d->block_size / d->miniblocks;
    d->last = (uint64_t)pm_zigzag_decode(first);
    d->first_pending = d->total > 0;
    d->mini_idx = d->miniblocks; /* forces a block header before the first delta */
    return 0;
}

PM_MUST_CHECK static int next_miniblock(pm_delta_decoder *d, paimon_error *err)
{
    uint64_t width, bytes, left, need;
    if (d->mini_idx + 1 >= d->miniblocks || d->widths == NULL) {
        uint64_t md;
        int rc = varint(d, &md, err);
        if (rc != 0)
            return rc;
        d->min_delta = (uint64_t)pm_zigzag_decode(md);
        if ((uint64_t)(d->end - d->p) < d->miniblocks)
            return pm_corrupt(err, "DELTA_BINARY_PACKED: truncated bit widths");
        d->widths = d->p;
        d->p += d->miniblocks;
        d->mini_idx = 0;
    } else {
        d->mini_idx++;
    }
    width = d->widths[d->mini_idx];
    if (width > 64)
        return pm_corrupt(err, "DELTA_BINARY_PACKED: bit width %llu", (unsigned long long)width);
    bytes = d->per_mini * width / 8;
    /* The last miniblock may be cut short by a lenient writer: accept it if the values
     * still to come fit. */
    left = d->total - d->emitted;
    need = ((left < d->per_mini ? left : d->per_mini) * width + 7) / 8;
    if (need > (uint64_t)(d->end - d->p))
        return pm_corrupt(err, "DELTA_BINARY_PACKED: truncated miniblock");
    d->mini = d->p;
    d->p += bytes <= (uint64_t)(d->end - d->p) ? bytes : (uint64_t)(d->end - d->p);
    d->mini_bit = 0;
    d->mini_left = d->per_mini;
    return 0;
}

int pm_delta_get64(pm_delta_decoder *d, int64_t *out, size_t n, paimon_error *err)
{
    uint64_t tmp[64];
    size_t done = 0;
    if (n > d->total - d->emitted)
        return pm_corrupt(err, "DELTA_BINARY_PACKED: %zu values asked, %llu left", n,
                          (unsigned long long)(d->total - d->emitted));
    while (done < n) {
        size_t take;
        int width;
        if (d->first_pending) {
            out[done++] = (int64_t)d->last;
            d->first_pending = false;
            d->emitted++;
            continue;
        }
        if (d->mini_left == 0) {
            int rc = next_miniblock(d, err);
            if (rc != 0)
                return rc;
        }
        width = d->widths[d->mini_idx];
        take = n - done;
        if (take > d->mini_left)
            take = (size_t)d->mini_left;
        if (take > 64)
            take = 64;
        pm_pq_unpack64_at(d->mini, d->mini_bit, width, tmp, take);
        for (size_t i = 0; i < take; i++) {
            d->last += d->min_delta + tmp[i];
            out[done + i] = (int64_t)d->last;
        }
        d->mini_bit += (uint64_t)take * (uint64_t)width;
        d->mini_left -= take;
        d->emitted += take;
        done += take;
    }
    return 0;
}

int pm_delta_get32(pm_delta_decoder *d, int32_t *out, size_t n, paimon_error *err)
{
    int64_t tmp[256];
    size_t done = 0;
    while (done < n) {
        size_t take = n - done < 256 ? n - done : 256;
        int rc = pm_delta_get64(d, tmp, take, err);
        if (rc != 0)
            return rc;
        for (size_t i = 0; i < take; i++)
            out[done + i] = (int32_t)(uint32_t)(uint64_t)tmp[i];
        done += take;
    }
    return 0;
}

int pm_delta_end(pm_delta_decoder *d, const uint8_t **end, paimon_error *err)
{
    int64_t tmp[256];
    while (pm_delta_remaining(d) > 0) {
        size_t take = pm_delta_remaining(d) < 256 ? (size_t)pm_delta_remaining(d) : 256;
        int rc = pm_delta_get64(d, tmp, take, err);
        if (rc != 0)
            return rc;
    }
    *end = d->p;
    return 0;
}

void pm_pq_bss_decode(const uint8_t *data, size_t count, size_t width, size_t first, size_t n,
                      uint8_t *out)
{
    for (size_t k = 0; k < width; k++) {
        const uint8_t *stream = data + k * count + first;
        for (size_t i = 0; i < n; i++)
            out[i * width + k] = stream[i];
    }
}
