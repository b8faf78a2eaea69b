/* Java's hashCode()/equals() of Paimon's value objects: see java_hash.h. */
#include "data/java_hash.h"

#include <string.h>

#include "util/hash.h"

static int32_t long_hash(int64_t v)
{
    return (int32_t)(uint32_t)((uint64_t)v ^ ((uint64_t)v >> 32));
}

static uint32_t float_bits(float f)
{
    uint32_t b;
    if (f != f)
        return 0x7fc00000u; /* floatToIntBits: every NaN is the canonical one */
    memcpy(&b, &f, 4);
    return b;
}

static uint64_t double_bits(double d)
{
    uint64_t b;
    if (d != d)
        return 0x7ff8000000000000ull;
    memcpy(&b, &d, 8);
    return b;
}

/* BigInteger.hashCode() of the unscaled value: 31 * h + word over the magnitude's 32-bit
 * words, most significant first without leading zero words, times the sign. */
static int32_t big_integer_hash(pm_int128 v)
{
    bool negative = v < 0;
    unsigned __int128 mag = negative ? (unsigned __int128)(-(v + 1)) + 1 : (unsigned __int128)v;
    uint32_t words[4], h = 0;
    int n = 0;
    for (int k = 3; k >= 0; k--) {
        uint32_t w = (uint32_t)(mag >> (32 * k));
        if (n == 0 && w == 0)
            continue;
        words[n++] = w;
    }
    for (int k = 0; k < n; k++)
        h = 31 * h + words[k];
    return negative ? (int32_t)(0u - h) : (int32_t)h;
}

static int32_t combine(int32_t h, int32_t x)
{
    return (int32_t)(31u * (uint32_t)h + (uint32_t)x);
}

int32_t pm_java_hash_code(const pm_column *c, int64_t i)
{
    pm_datum d;
    if (!pm_column_is_valid(c, i))
        return 0;
    switch (c->layout) {
    case PM_LAYOUT_LIST:
    case PM_LAYOUT_MAP: {
        int32_t h = 1;
        for (int32_t k = pm_column_offset(c, i); k < pm_column_offset(c, i + 1); k++)
            for (size_t ch = 0; ch < c->child_count; ch++)
                h = combine(h, pm_java_hash_code(c->children[ch], k));
        return h;
    }
    case PM_LAYOUT_STRUCT: {
        int32_t h = 1;
        for (size_t ch = 0; ch < c->child_count; ch++)
            h = combine(h, pm_java_hash_code(c->children[ch], i));
        return h;
    }
    default: break;
    }
    pm_column_get_datum(c, i, &d);
    switch (c->type->id) {
    case PM_TYPE_BOOLEAN: return d.v.b ? 1231 : 1237;
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_DATE:
    case PM_TYPE_TIME: return (int32_t)d.v.i;
    case PM_TYPE_BIGINT: return long_hash(d.v.i);
    case PM_TYPE_FLOAT: return (int32_t)float_bits(d.v.f);
    case PM_TYPE_DOUBLE: return long_hash((int64_t)double_bits(d.v.d));
    case PM_TYPE_DECIMAL: return combine(big_integer_hash(d.v.dec), c->type->scale);
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY: return pm_murmur3_bytes_java(d.v.s.ptr, d.v.s.len, 42);
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: {
        int32_t h = (int32_t)(uint32_t)d.v.ts.millis ^ (int32_t)(uint32_t)(d.v.ts.millis >> 32);
        return combine(h, d.v.ts.nanos);
    }
    default: return 0;
    }
}

static bool equals(const pm_column *a, int64_t i, const pm_column *b, int64_t j, bool java)
{
    bool va = pm_column_is_valid(a, i), vb = pm_column_is_valid(b, j);
    pm_datum x, y;
    if (!va || !vb)
        return va == vb;
    switch (a->layout) {
    case PM_LAYOUT_LIST:
    case PM_LAYOUT_MAP: {
        int32_t ai = pm_column_offset(a, i), an = pm_column_offset(a, i + 1) - ai;
        int32_t bj = pm_column_offset(b, j), bn = pm_column_offset(b, j + 1) - bj;
        if (an != bn)
            return false;
        for (int32_t k = 0; k < an; k++)
            for (size_t ch = 0; ch < a->child_count; ch++)
                if (!equals(a->children[ch], ai + k, b->children[ch], bj + k, false))
                    return false;
        return true;
    }
    case PM_LAYOUT_STRUCT:
        for (size_t ch = 0; ch < a->child_count; ch++)
            if (!equals(a->children[ch], i, b->children[ch], j, false))
                return false;
        return true;
    default: break;
    }
    pm_column_get_datum(a, i, &x);
    pm_column_get_datum(b, j, &y);
    switch (a->type->id) {
    case PM_TYPE_BOOLEAN: return x.v.b == y.v.b;
    case PM_TYPE_FLOAT: return java ? float_bits(x.v.f) == float_bits(y.v.f) : x.v.f == y.v.f;
    case PM_TYPE_DOUBLE: return java ? double_bits(x.v.d) == double_bits(y.v.d) : x.v.d == y.v.d;
    case PM_TYPE_DECIMAL: return x.v.dec == y.v.dec;
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY:
        if (java) /* byte[] has identity equality */
            return a == b && i == j;
        /* fall through */
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
        return x.v.s.len == y.v.s.len &&
               (x.v.s.len == 0 || memcmp(x.v.s.ptr, y.v.s.ptr, x.v.s.len) == 0);
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ:
        return x.v.ts.millis == y.v.ts.millis && x.v.ts.nanos == y.v.ts.nanos;
    default: return x.v.i == y.v.i;
    }
}

bool pm_java_equals(const pm_column *a, int64_t i, const pm_column *b, int64_t j)
{
    return equals(a, i, b, j, true);
}

bool pm_value_equals(const pm_column *a, int64_t i, const pm_column *b, int64_t j)
{
    return equals(a, i, b, j, false);
}
