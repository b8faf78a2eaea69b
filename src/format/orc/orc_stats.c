/* ORC writer statistics: see orc_stats.h. */
#include "format/orc/orc_stats.h"

#include <stdio.h>
#include <string.h>

#include "util/utf8.h"

#define MAX_BYTES_RECORDED 1024
#define MAX_DECIMAL64      999999999999999999LL

void pm_orc_stats_init(pm_orc_stats_acc *a, const pm_orc_type *t)
{
    memset(a, 0, sizeof(*a));
    a->kind = t->kind;
    a->precision = t->precision;
    a->scale = t->scale;
    pm_buf_init(&a->smin, 0);
    pm_buf_init(&a->smax, 0);
    pm_orc_stats_reset(a);
}

void pm_orc_stats_free(pm_orc_stats_acc *a)
{
    pm_buf_free(&a->smin);
    pm_buf_free(&a->smax);
}

void pm_orc_stats_reset(pm_orc_stats_acc *a)
{
    a->count = 0;
    a->has_null = false;
    a->bytes_on_disk = 0;
    a->has_min = false;
    a->imin = a->imax = a->isum = 0;
    a->sum_overflow = false;
    a->dmin = a->dmax = a->dsum = 0;
    a->dec_min = a->dec_max = a->dec_sum = 0;
    pm_buf_reset(&a->smin);
    pm_buf_reset(&a->smax);
    a->lower_set = a->upper_set = false;
    a->min_nanos = 0;
    a->max_nanos = 999999;
    a->coll_min = UINT64_MAX;
    a->coll_max = a->coll_sum = 0;
    a->true_count = 0;
}

void pm_orc_stats_values(pm_orc_stats_acc *a, uint64_t n, uint64_t nulls)
{
    a->count += n - nulls;
    if (nulls > 0)
        a->has_null = true;
}

void pm_orc_stats_int(pm_orc_stats_acc *a, int64_t v)
{
    if (!a->has_min) {
        a->has_min = true;
        a->imin = a->imax = v;
    } else if (v < a->imin) {
        a->imin = v;
    } else if (v > a->imax) {
        a->imax = v;
    }
    if (!a->sum_overflow && __builtin_add_overflow(a->isum, v, &a->isum))
        a->sum_overflow = true;
}

void pm_orc_stats_date(pm_orc_stats_acc *a, int32_t days)
{
    if (!a->has_min) {
        a->has_min = true;
        a->imin = a->imax = days;
    } else {
        if (days < a->imin)
            a->imin = days;
        if (days > a->imax)
            a->imax = days;
    }
}

void pm_orc_stats_double(pm_orc_stats_acc *a, double v)
{
    if (!a->has_min) {
        a->has_min = true;
        a->dmin = a->dmax = v;
    } else if (v < a->dmin) {
        a->dmin = v;
    } else if (v > a->dmax) {
        a->dmax = v;
    }
    a->dsum += v;
}

static int cmp_bytes(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    size_t n = alen < blen ? alen : blen;
    int c = n > 0 ? memcmp(a, b, n) : 0;
    if (c != 0)
        return c;
    return alen < blen ? -1 : alen > blen ? 1 : 0;
}

/* At most 1024 bytes ending at a character boundary (Java's truncateLowerBound). */
static int lower_bound(pm_buf *out, const uint8_t *p, size_t len)
{
    (void)len;
    pm_buf_reset(out);
    return pm_buf_append(out, p, pm_utf8_char_start(p, 0, MAX_BYTES_RECORDED));
}

/* The truncated prefix with its last character incremented (truncateUpperBound). */
static int upper_bound(pm_buf *out, const uint8_t *p, size_t len)
{
    size_t following = pm_utf8_char_start(p, 0, MAX_BYTES_RECORDED);
    size_t last = pm_utf8_char_start(p, 0, following - 1);
    uint8_t enc[4];
    size_t n = following - last, k;
    int rc;
    (void)len;
    /* the code point of the last whole character, plus one */
    k = pm_utf8_encode_any(pm_utf8_value(p + last, n > 4 ? 4 : n) + 1, enc);
    pm_buf_reset(out);
    if ((rc = pm_buf_append(out, p, last)) != 0)
        return rc;
    return pm_buf_append(out, enc, k);
}

static int set_text(pm_buf *out, const uint8_t *p, size_t len)
{
    pm_buf_reset(out);
    return pm_buf_append(out, p, len);
}

int pm_orc_stats_string(pm_orc_stats_acc *a, const uint8_t *p, size_t len)
{
    int rc = 0;
    bool big = len > MAX_BYTES_RECORDED;
    if (!a->has_min) {
        a->has_min = true;
        if (big) {
            if ((rc = lower_bound(&a->smin, p, len)) == 0)
                rc = upper_bound(&a->smax, p, len);
            a->lower_set = a->upper_set = true;
        } else {
            if ((rc = set_text(&a->smin, p, len)) == 0)
                rc = set_text(&a->smax, p, len);
            a->lower_set = a->upper_set = false;
        }
    } else if (cmp_bytes(a->smin.data, a->smin.len, p, len) > 0) {
        rc = big ? lower_bound(&a->smin, p, len) : set_text(&a->smin, p, len);
        a->lower_set = big;
    } else if (cmp_bytes(a->smax.data, a->smax.len, p, len) < 0) {
        rc = big ? upper_bound(&a->smax, p, len) : set_text(&a->smax, p, len);
        a->upper_set = big;
    }
    a->isum += (int64_t)len;
    return rc;
}

void pm_orc_stats_binary(pm_orc_stats_acc *a, size_t len)
{
    a->isum += (int64_t)len;
}

void pm_orc_stats_bool(pm_orc_stats_acc *a, bool v)
{
    a->true_count += v ? 1 : 0;
}

void pm_orc_stats_decimal(pm_orc_stats_acc *a, __int128 v)
{
    if (!a->has_min) {
        a->has_min = true;
        a->dec_min = a->dec_max = v;
    } else {
        if (v < a->dec_min)
            a->dec_min = v;
        if (v > a->dec_max)
            a->dec_max = v;
    }
    if (!a->sum_overflow) {
        a->dec_sum += v;
        /* Decimal64 statistics keep the sum in 18 digits; wider ones in 38 */
        if (a->precision <= 18 ? (a->dec_sum > MAX_DECIMAL64 || a->dec_sum < -MAX_DECIMAL64)
                               : (a->dec_sum > (__int128)1e38 || a->dec_sum < -(__int128)1e38))
            a->sum_overflow = true;
    }
}

void pm_orc_stats_timestamp(pm_orc_stats_acc *a, int64_t v, int32_t nanos)
{
    if (!a->has_min) {
        a->has_min = true;
        a->imin = a->imax = v;
        a->min_nanos = a->max_nanos = nanos;
        return;
    }
    if (a->imin >= v) {
        if (a->imin > v || nanos < a->min_nanos)
            a->min_nanos = nanos;
        a->imin = v;
    }
    if (a->imax <= v) {
        if (a->imax < v || nanos > a->max_nanos)
            a->max_nanos = nanos;
        a->imax = v;
    }
}

void pm_orc_stats_collection(pm_orc_stats_acc *a, uint64_t length)
{
    if (length < a->coll_min)
        a->coll_min = length;
    if (length > a->coll_max)
        a->coll_max = length;
    a->coll_sum += length;
}

int pm_orc_stats_merge(pm_orc_stats_acc *d, const pm_orc_stats_acc *s)
{
    int rc = 0;
    switch (d->kind) {
    case PM_ORC_BYTE:
    case PM_ORC_SHORT:
    case PM_ORC_INT:
    case PM_ORC_LONG:
        if (!d->has_min) {
            d->has_min = s->has_min;
            d->imin = s->imin;
            d->imax = s->imax;
        } else if (s->has_min) {
            if (s->imin < d->imin)
                d->imin = s->imin;
            if (s->imax > d->imax)
                d->imax = s->imax;
        }
        d->sum_overflow |= s->sum_overflow;
        if (!d->sum_overflow && __builtin_add_overflow(d->isum, s->isum, &d->isum))
            d->sum_overflow = true;
        break;
    case PM_ORC_FLOAT:
    case PM_ORC_DOUBLE:
        if (!d->has_min) {
            d->has_min = s->has_min;
            d->dmin = s->dmin;
            d->dmax = s->dmax;
        } else if (s->has_min) {
            if (s->dmin < d->dmin)
                d->dmin = s->dmin;
            if (s->dmax > d->dmax)
                d->dmax = s->dmax;
        }
        d->dsum += s->dsum;
        break;
    case PM_ORC_STRING:
    case PM_ORC_VARCHAR:
    case PM_ORC_CHAR:
        if (d->count == 0) {
            if (s->count != 0) {
                if ((rc = set_text(&d->smin, s->smin.data, s->smin.len)) == 0)
                    rc = set_text(&d->smax, s->smax.data, s->smax.len);
                d->lower_set = s->lower_set;
                d->upper_set = s->upper_set;
                d->has_min = true;
            }
        } else if (s->count != 0) {
            if (cmp_bytes(d->smin.data, d->smin.len, s->smin.data, s->smin.len) > 0) {
                rc = set_text(&d->smin, s->smin.data, s->smin.len);
                d->lower_set = s->lower_set;
            }
            if (rc == 0 && cmp_bytes(d->smax.data, d->smax.len, s->smax.data, s->smax.len) < 0) {
                rc = set_text(&d->smax, s->smax.data, s->smax.len);
                d->upper_set = s->upper_set;
            }
        }
        d->isum += s->isum;
        break;
    case PM_ORC_BINARY: d->isum += s->isum; break;
    case PM_ORC_BOOLEAN: d->true_count += s->true_count; break;
    case PM_ORC_DECIMAL:
        if (d->count == 0) {
            d->has_min = s->has_min;
            d->dec_min = s->dec_min;
            d->dec_max = s->dec_max;
            d->dec_sum = s->dec_sum;
            d->sum_overflow = s->sum_overflow;
        } else if (s->has_min) {
            if (s->dec_min < d->dec_min)
                d->dec_min = s->dec_min;
            if (s->dec_max > d->dec_max)
                d->dec_max = s->dec_max;
            if (!d->sum_overflow && !s->sum_overflow) {
                d->dec_sum += s->dec_sum;
                d->sum_overflow = d->precision <= 18
                                      ? (d->dec_sum > MAX_DECIMAL64 || d->dec_sum < -MAX_DECIMAL64)
                                      : false;
            } else {
                d->sum_overflow = true;
            }
        }
        break;
    case PM_ORC_DATE:
        if (s->has_min) {
            if (!d->has_min || s->imin < d->imin)
                d->imin = s->imin;
            if (!d->has_min || s->imax > d->imax)
                d->imax = s->imax;
            d->has_min = true;
        }
        break;
    case PM_ORC_TIMESTAMP:
    case PM_ORC_TIMESTAMP_INSTANT:
        if (d->count == 0) {
            if (s->count != 0) {
                d->has_min = true;
                d->imin = s->imin;
                d->imax = s->imax;
                d->min_nanos = s->min_nanos;
                d->max_nanos = s->max_nanos;
            }
        } else if (s->count != 0) {
            if (d->imin >= s->imin) {
                if (d->imin > s->imin || d->min_nanos > s->min_nanos)
                    d->min_nanos = s->min_nanos;
                d->imin = s->imin;
            }
            if (d->imax <= s->imax) {
                if (d->imax < s->imax || d->max_nanos < s->max_nanos)
                    d->max_nanos = s->max_nanos;
                d->imax = s->imax;
            }
        }
        break;
    case PM_ORC_LIST:
    case PM_ORC_MAP:
        if (d->count == 0) {
            d->coll_min = s->coll_min;
            d->coll_max = s->coll_max;
        } else {
            if (s->coll_min < d->coll_min)
                d->coll_min = s->coll_min;
            if (s->coll_max > d->coll_max)
                d->coll_max = s->coll_max;
        }
        d->coll_sum += s->coll_sum;
        break;
    default: break;
    }
    d->count += s->count;
    d->has_null |= s->has_null;
    d->bytes_on_disk += s->bytes_on_disk;
    return rc;
}

void pm_orc_decimal_text(__int128 v, uint32_t scale, char *buf, size_t cap)
{
    char digits[48];
    unsigned __int128 u =
        v < 0 ? (unsigned __int128)0 - (unsigned __int128)v : (unsigned __int128)v;
    size_t n = 0, pos = 0;
    /* trailing zeros of the fraction go: HiveDecimal keeps values normalized */
    while (scale > 0 && u != 0 && u % 10 == 0) {
        u /= 10;
        scale--;
    }
    if (u == 0)
        scale = 0;
    do {
        digits[n++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u != 0);
    while (n <= scale)
        digits[n++] = '0';
    if (v < 0 && pos + 1 < cap)
        buf[pos++] = '-';
    for (size_t i = n; i > 0 && pos + 2 < cap; i--) {
        buf[pos++] = digits[i - 1];
        if (i - 1 == scale && scale > 0)
            buf[pos++] = '.';
    }
    buf[pos] = '\0';
}

void pm_orc_stats_out(pm_orc_stats_acc *a, pm_orc_stats *o, bool with_bytes)
{
    memset(o, 0, sizeof(*o));
    o->has = PM_OS_VALUES | PM_OS_HAS_NULL;
    o->number_of_values = a->count;
    o->has_null = a->has_null;
    if (with_bytes && a->bytes_on_disk != 0) {
        o->has |= PM_OS_BYTES;
        o->bytes_on_disk = a->bytes_on_disk;
    }
    switch (a->kind) {
    case PM_ORC_BYTE:
    case PM_ORC_SHORT:
    case PM_ORC_INT:
    case PM_ORC_LONG:
        o->kind = PM_OSK_INT;
        if (a->has_min) {
            o->has |= PM_OS_MIN | PM_OS_MAX;
            o->i_min = a->imin;
            o->i_max = a->imax;
        }
        if (!a->sum_overflow) {
            o->has |= PM_OS_SUM;
            o->i_sum = a->isum;
        }
        break;
    case PM_ORC_FLOAT:
    case PM_ORC_DOUBLE:
        o->kind = PM_OSK_DOUBLE;
        if (a->has_min) {
            o->has |= PM_OS_MIN | PM_OS_MAX;
            o->d_min = a->dmin;
            o->d_max = a->dmax;
        }
        o->has |= PM_OS_SUM;
        o->d_sum = a->dsum;
        break;
    case PM_ORC_STRING:
    case PM_ORC_VARCHAR:
    case PM_ORC_CHAR:
        o->kind = PM_OSK_STRING;
        if (a->count != 0) {
            pm_orc_bytes mn = {a->smin.data != NULL ? a->smin.data : (const uint8_t *)"",
                               a->smin.len};
            pm_orc_bytes mx = {a->smax.data != NULL ? a->smax.data : (const uint8_t *)"",
                               a->smax.len};
            if (a->lower_set)
                o->has |= PM_OS_LOWER, o->s_lower = mn;
            else
                o->has |= PM_OS_MIN, o->s_min = mn;
            if (a->upper_set)
                o->has |= PM_OS_UPPER, o->s_upper = mx;
            else
                o->has |= PM_OS_MAX, o->s_max = mx;
            o->has |= PM_OS_SUM;
            o->i_sum = a->isum;
        }
        break;
    case PM_ORC_BINARY:
        o->kind = PM_OSK_BINARY;
        o->has |= PM_OS_SUM;
        o->i_sum = a->isum;
        break;
    case PM_ORC_BOOLEAN:
        o->kind = PM_OSK_BUCKET;
        o->buckets = &a->true_count;
        o->bucket_count = 1;
        break;
    case PM_ORC_DECIMAL:
        o->kind = PM_OSK_DECIMAL;
        if (a->count != 0) {
            pm_orc_decimal_text(a->dec_min, a->scale, a->text[0], sizeof(a->text[0]));
            pm_orc_decimal_text(a->dec_max, a->scale, a->text[1], sizeof(a->text[1]));
            o->has |= PM_OS_MIN | PM_OS_MAX;
            o->s_min.ptr = (const uint8_t *)a->text[0];
            o->s_min.len = strlen(a->text[0]);
            o->s_max.ptr = (const uint8_t *)a->text[1];
            o->s_max.len = strlen(a->text[1]);
        }
        if (!a->sum_overflow) {
            pm_orc_decimal_text(a->dec_sum, a->scale, a->text[2], sizeof(a->text[2]));
            o->has |= PM_OS_SUM;
            o->dec_sum.ptr = (const uint8_t *)a->text[2];
            o->dec_sum.len = strlen(a->text[2]);
        }
        break;
    case PM_ORC_DATE:
        o->kind = PM_OSK_DATE;
        if (a->count != 0 && a->has_min) {
            o->has |= PM_OS_MIN | PM_OS_MAX;
            o->i_min = a->imin;
            o->i_max = a->imax;
        }
        break;
    case PM_ORC_TIMESTAMP:
    case PM_ORC_TIMESTAMP_INSTANT:
        o->kind = PM_OSK_TIMESTAMP;
        if (a->count != 0) {
            o->has |= PM_OS_MIN_UTC | PM_OS_MAX_UTC;
            o->ts_min_utc = a->imin;
            o->ts_max_utc = a->imax;
            if (a->min_nanos != 0)
                o->has |= PM_OS_MIN_NANOS, o->ts_min_nanos = a->min_nanos + 1;
            if (a->max_nanos != 999999)
                o->has |= PM_OS_MAX_NANOS, o->ts_max_nanos = a->max_nanos + 1;
        }
        break;
    case PM_ORC_LIST:
    case PM_ORC_MAP:
        o->kind = PM_OSK_COLLECTION;
        if (a->count != 0) {
            o->has |= PM_OS_MIN | PM_OS_MAX;
            o->coll_min = a->coll_min;
            o->coll_max = a->coll_max;
        }
        if (a->coll_sum != 0) {
            o->has |= PM_OS_COLL_TOTAL;
            o->coll_total = a->coll_sum;
        }
        break;
    default: o->kind = PM_OSK_NONE; break;
    }
}
