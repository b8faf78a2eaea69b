/* Gathering slots of many batches into one column: see pm_column_gather in batch.h. */
#include <string.h>

#include "data/batch.h"
#include "paimon/error.h"

/* One fixed-width slot: the common widths as constant-size copies the compiler inlines
 * instead of a call to memcpy per value. */
static inline void copy_slot(uint8_t *d, const uint8_t *s, size_t w)
{
    switch (w) {
    case 8: memcpy(d, s, 8); break;
    case 4: memcpy(d, s, 4); break;
    case 2: memcpy(d, s, 2); break;
    case 1: *d = *s; break;
    case 16: memcpy(d, s, 16); break;
    default: memcpy(d, s, w); break;
    }
}

static int gather_fixed(pm_column *dst, const pm_batch *const *batches, const int64_t *rows,
                        size_t n, size_t column)
{
    size_t w = dst->width;
    uint8_t *v;
    int rc;
    if ((rc = pm_buf_reserve(&dst->values, n * w)) != 0)
        return rc;
    for (size_t i = 0; i < n; i++) {
        const pm_column *src = batches[i]->columns[column];
        bool valid = pm_column_is_valid(src, rows[i]);
        if ((!valid || dst->validity.len > 0) && (rc = pm_column_push_validity(dst, valid)) != 0)
            return rc;
        /* The bitmap may have grown: the values buffer did not move since the reserve. */
        v = dst->values.data + dst->values.len;
        copy_slot(v, src->values.data + (size_t)rows[i] * w, w); /* a null slot holds zeros */
        dst->values.len += w;
        dst->length++;
    }
    return 0;
}

static int gather_var(pm_column *dst, const pm_batch *const *batches, const int64_t *rows, size_t n,
                      size_t column)
{
    size_t bytes = 0;
    int rc;
    for (size_t i = 0; i < n; i++) {
        const pm_column *src = batches[i]->columns[column];
        bytes += (size_t)(pm_column_offset(src, rows[i] + 1) - pm_column_offset(src, rows[i]));
    }
    if (dst->values.len + bytes > INT32_MAX)
        return PAIMON_ELIMIT;
    if ((rc = pm_buf_reserve(&dst->values, bytes)) != 0 ||
        (rc = pm_buf_reserve(&dst->offsets, (n + 1) * 4)) != 0)
        return rc;
    if (dst->offsets.len == 0) { /* the leading 0 */
        memset(dst->offsets.data, 0, 4);
        dst->offsets.len = 4;
    }
    for (size_t i = 0; i < n; i++) {
        const pm_column *src = batches[i]->columns[column];
        int32_t a = pm_column_offset(src, rows[i]), b = pm_column_offset(src, rows[i] + 1);
        bool valid = pm_column_is_valid(src, rows[i]);
        int32_t end;
        if ((!valid || dst->validity.len > 0) && (rc = pm_column_push_validity(dst, valid)) != 0)
            return rc;
        if (b > a) {
            memcpy(dst->values.data + dst->values.len, src->values.data + a, (size_t)(b - a));
            dst->values.len += (size_t)(b - a);
        }
        end = (int32_t)dst->values.len;
        memcpy(dst->offsets.data + dst->offsets.len, &end, 4);
        dst->offsets.len += 4;
        dst->length++;
    }
    return 0;
}

int pm_column_gather(pm_column *dst, const pm_batch *const *batches, const int64_t *rows, size_t n,
                     size_t column)
{
    int rc = 0;
    switch (dst->layout) {
    case PM_LAYOUT_FIXED: return gather_fixed(dst, batches, rows, n, column);
    case PM_LAYOUT_VAR: return gather_var(dst, batches, rows, n, column);
    default:
        for (size_t i = 0; rc == 0 && i < n; i++)
            rc = pm_column_append_from(dst, batches[i]->columns[column], rows[i]);
        return rc;
    }
}
