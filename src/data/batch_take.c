/*
 * Taking rows of one column into another by index (pm_column_take, batch.h): the hot
 * path of writers, which route the rows of an input batch to the buffer of their partition
 * and bucket and put buffered rows in key order.  Scalar layouts copy buffers directly;
 * nested columns go slot by slot through pm_column_append_from().
 */
#include <string.h>

#include "data/batch.h"

/* Appends the validity of the gathered slots, materializing dst's bitmap when a null comes
 * (the invariants of batch.h: bits at and beyond `length` are 0). */
static int gather_validity(pm_column *dst, const pm_column *src, const int64_t *idx, int64_t n)
{
    int64_t len = dst->length, nulls = 0;
    size_t need;
    int rc;
    if (src->null_count == 0 && dst->validity.len == 0)
        return 0;
    if (src->null_count == 0 || src->validity.len == 0) {
        /* all valid: set the new bits */
        need = (size_t)((len + n + 7) / 8);
        if (need > dst->validity.len &&
            (rc = pm_buf_zero(&dst->validity, need - dst->validity.len)))
            return rc;
        for (int64_t k = 0; k < n; k++)
            dst->validity.data[(len + k) >> 3] |= (uint8_t)(1u << ((len + k) & 7));
        return 0;
    }
    if (dst->validity.len == 0) {
        size_t full = (size_t)(len / 8);
        if ((rc = pm_buf_reserve(&dst->validity, full + 2)) != 0)
            return rc;
        memset(dst->validity.data, 0xff, full);
        dst->validity.len = full;
        if (len % 8 != 0)
            dst->validity.data[dst->validity.len++] = (uint8_t)((1u << (len % 8)) - 1);
    }
    need = (size_t)((len + n + 7) / 8);
    if (need > dst->validity.len && (rc = pm_buf_zero(&dst->validity, need - dst->validity.len)))
        return rc;
    for (int64_t k = 0; k < n; k++) {
        if (pm_column_is_valid(src, idx[k]))
            dst->validity.data[(len + k) >> 3] |= (uint8_t)(1u << ((len + k) & 7));
        else
            nulls++;
    }
    dst->null_count += nulls;
    return 0;
}

static int push_offsets(pm_column *dst, const pm_column *src, const int64_t *idx, int64_t n)
{
    size_t total = 0;
    int32_t end = (int32_t)dst->values.len;
    int rc;
    for (int64_t k = 0; k < n; k++)
        total += (size_t)(pm_column_offset(src, idx[k] + 1) - pm_column_offset(src, idx[k]));
    if (dst->values.len + total > INT32_MAX)
        return PAIMON_ELIMIT;
    if ((rc = pm_buf_reserve(&dst->values, total)) != 0 ||
        (rc = pm_buf_reserve(&dst->offsets, (size_t)n * 4 + 4)) != 0)
        return rc;
    if (dst->offsets.len == 0) { /* the leading 0 */
        memset(dst->offsets.data, 0, 4);
        dst->offsets.len = 4;
    }
    for (int64_t k = 0; k < n; k++) {
        int32_t a = pm_column_offset(src, idx[k]), b = pm_column_offset(src, idx[k] + 1);
        if (b > a) /* empty strings may have no value bytes at all (NULL buffers) */
            memcpy(dst->values.data + dst->values.len, src->values.data + a, (size_t)(b - a));
        dst->values.len += (size_t)(b - a);
        end += b - a;
        memcpy(dst->offsets.data + dst->offsets.len, &end, 4);
        dst->offsets.len += 4;
    }
    return 0;
}

int pm_column_take(pm_column *dst, const pm_column *src, const int64_t *idx, int64_t n)
{
    int rc = 0;
    if (n <= 0)
        return 0;
    switch (src->layout) {
    case PM_LAYOUT_FIXED: {
        uint32_t w = src->width;
        uint8_t *p;
        if ((rc = pm_buf_reserve(&dst->values, (size_t)n * w)) != 0 ||
            (rc = gather_validity(dst, src, idx, n)) != 0)
            return rc;
        p = dst->values.data + dst->values.len;
        switch (w) {
        case 1:
            for (int64_t k = 0; k < n; k++)
                p[k] = src->values.data[idx[k]];
            break;
        case 4:
            for (int64_t k = 0; k < n; k++)
                memcpy(p + 4 * k, src->values.data + 4 * (size_t)idx[k], 4);
            break;
        case 8:
            for (int64_t k = 0; k < n; k++)
                memcpy(p + 8 * k, src->values.data + 8 * (size_t)idx[k], 8);
            break;
        default:
            for (int64_t k = 0; k < n; k++)
                memcpy(p + (size_t)w * k, src->values.data + (size_t)w * idx[k], w);
            break;
        }
        dst->values.len += (size_t)n * w;
        dst->length += n;
        return 0;
    }
    case PM_LAYOUT_BITS: {
        size_t need = (size_t)((dst->length + n + 7) / 8);
        if ((need > dst->values.len && (rc = pm_buf_zero(&dst->values, need - dst->values.len))) ||
            (rc = gather_validity(dst, src, idx, n)) != 0)
            return rc;
        for (int64_t k = 0; k < n; k++) {
            int64_t at = dst->length + k;
            if ((src->values.data[idx[k] >> 3] >> (idx[k] & 7)) & 1)
                dst->values.data[at >> 3] |= (uint8_t)(1u << (at & 7));
        }
        dst->length += n;
        return 0;
    }
    case PM_LAYOUT_VAR:
        if ((rc = push_offsets(dst, src, idx, n)) != 0 ||
            (rc = gather_validity(dst, src, idx, n)) != 0)
            return rc;
        dst->length += n;
        return 0;
    default:
        for (int64_t k = 0; k < n && rc == 0; k++)
            rc = pm_column_append_from(dst, src, idx[k]);
        return rc;
    }
}

int pm_batch_take(pm_batch *dst, const pm_batch *src, const int64_t *idx, int64_t n,
                  paimon_error *err)
{
    for (size_t c = 0; c < src->column_count; c++) {
        int rc = pm_column_take(dst->columns[c], src->columns[c], idx, n);
        if (rc != 0)
            return pm_buf_error(err, rc);
    }
    dst->row_count += n;
    return 0;
}
