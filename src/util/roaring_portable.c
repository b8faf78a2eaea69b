/* Validation of serialized RoaringBitmaps: see roaring_portable.h. */
#include "util/roaring_portable.h"

#include "util/bytes.h"

#define COOKIE_NO_RUNS      12346
#define COOKIE_RUNS         12347
#define NO_OFFSET_THRESHOLD 4
#define ARRAY_MAX           4096
#define BITSET_BYTES        8192
#define MAX_CONTAINERS      65536

static bool check_runs(const uint8_t *p, size_t avail, uint32_t card, size_t *size)
{
    uint32_t n, total = 0;
    int64_t prev_end = -1;
    if (avail < 2)
        return false;
    n = pm_load_le16(p);
    if ((size_t)n * 4 > avail - 2)
        return false;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t start = pm_load_le16(p + 2 + 4 * i), len = pm_load_le16(p + 4 + 4 * i);
        if ((int64_t)start <= prev_end || start + len > 65535)
            return false;
        prev_end = start + len;
        total += len + 1;
    }
    *size = 2 + (size_t)n * 4;
    return total == card;
}

static bool check_array(const uint8_t *p, size_t avail, uint32_t card, size_t *size)
{
    int32_t prev = -1;
    if ((size_t)card * 2 > avail)
        return false;
    for (uint32_t i = 0; i < card; i++) {
        int32_t v = pm_load_le16(p + 2 * i);
        if (v <= prev)
            return false;
        prev = v;
    }
    *size = (size_t)card * 2;
    return true;
}

static bool check_bitset(const uint8_t *p, size_t avail, uint32_t card, size_t *size)
{
    uint32_t bits = 0;
    if (avail < BITSET_BYTES)
        return false;
    for (size_t i = 0; i < BITSET_BYTES; i += 8)
        bits += (uint32_t)__builtin_popcountll(pm_load_le64(p + i));
    *size = BITSET_BYTES;
    return bits == card;
}

bool pm_roaring_portable_valid(const uint8_t *p, size_t len, size_t *used)
{
    uint32_t cookie, count;
    const uint8_t *runs = NULL, *header, *offsets = NULL;
    size_t pos;
    int32_t prev_key = -1;

    if (len < 4)
        return false;
    cookie = pm_load_le32(p);
    if (cookie == COOKIE_NO_RUNS) {
        if (len < 8)
            return false;
        count = pm_load_le32(p + 4);
        if (count > MAX_CONTAINERS)
            return false;
        pos = 8;
    } else if ((cookie & 0xffff) == COOKIE_RUNS) {
        count = (cookie >> 16) + 1;
        runs = p + 4;
        pos = 4 + (count + 7) / 8;
    } else {
        return false;
    }
    if (pos > len || (size_t)count * 4 > len - pos)
        return false;
    header = p + pos;
    pos += (size_t)count * 4;
    if (runs == NULL || count >= NO_OFFSET_THRESHOLD) {
        if ((size_t)count * 4 > len - pos)
            return false;
        offsets = p + pos;
        pos += (size_t)count * 4;
    }
    for (uint32_t i = 0; i < count; i++) {
        int32_t key = pm_load_le16(header + 4 * i);
        uint32_t card = (uint32_t)pm_load_le16(header + 4 * i + 2) + 1;
        bool is_run = runs != NULL && (runs[i / 8] >> (i % 8)) & 1;
        size_t size = 0;
        bool ok;
        if (key <= prev_key)
            return false;
        prev_key = key;
        if (offsets != NULL && pm_load_le32(offsets + 4 * i) != pos)
            return false;
        if (is_run)
            ok = check_runs(p + pos, len - pos, card, &size);
        else if (card <= ARRAY_MAX)
            ok = check_array(p + pos, len - pos, card, &size);
        else
            ok = check_bitset(p + pos, len - pos, card, &size);
        if (!ok)
            return false;
        pos += size;
    }
    *used = pos;
    return true;
}
