/* Growable buffer with a hard maximum: see buf.h. */
#include "util/buf.h"

#include <stdio.h>
#include <string.h>

#include "util/alloc.h"
#include "util/assert.h"

void pm_buf_init(pm_buf *b, size_t max)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->max = max == 0 ? PM_BUF_NO_MAX : max;
}

void pm_buf_free(pm_buf *b)
{
    pm_free(b->data);
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}

void pm_buf_reset(pm_buf *b)
{
    b->len = 0;
}

int pm_buf_reserve(pm_buf *b, size_t extra)
{
    size_t need, cap;
    uint8_t *grown;

    PM_ASSERT(pm_buf_is_valid(b));
    if (__builtin_add_overflow(b->len, extra, &need) || need > b->max)
        return PAIMON_ELIMIT;
    if (need + 1 <= b->cap)
        return 0;
    cap = b->cap < 64 ? 64 : b->cap;
    while (cap < need + 1)
        cap = cap > (SIZE_MAX / 2) ? need + 1 : cap * 2;
    grown = pm_realloc(b->data, cap);
    if (grown == NULL)
        return PAIMON_ENOMEM;
    b->data = grown;
    b->cap = cap;
    PM_ASSERT(pm_buf_is_valid(b));
    return 0;
}

int pm_buf_append(pm_buf *b, const void *data, size_t len)
{
    int rc = pm_buf_reserve(b, len);
    if (rc != 0)
        return rc;
    if (len > 0)
        memcpy(b->data + b->len, data, len);
    b->len += len;
    return 0;
}

int pm_buf_putc(pm_buf *b, uint8_t c)
{
    if (b->len + 1 < b->cap && b->len < b->max) {
        b->data[b->len++] = c;
        return 0;
    }
    return pm_buf_append(b, &c, 1);
}

int pm_buf_puts(pm_buf *b, const char *s)
{
    return pm_buf_append(b, s, strlen(s));
}

int pm_buf_zero(pm_buf *b, size_t len)
{
    int rc = pm_buf_reserve(b, len);
    if (rc != 0)
        return rc;
    memset(b->data + b->len, 0, len);
    b->len += len;
    return 0;
}

int pm_buf_vprintf(pm_buf *b, const char *fmt, va_list ap)
{
    va_list copy;
    int n, rc;

    va_copy(copy, ap);
    n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0)
        return PAIMON_EINVALID;
    rc = pm_buf_reserve(b, (size_t)n);
    if (rc != 0)
        return rc;
    vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
    return 0;
}

int pm_buf_printf(pm_buf *b, const char *fmt, ...)
{
    va_list ap;
    int rc;
    va_start(ap, fmt);
    rc = pm_buf_vprintf(b, fmt, ap);
    va_end(ap);
    return rc;
}

const char *pm_buf_cstr(pm_buf *b)
{
    PM_ASSERT(pm_buf_is_valid(b));
    if (b->data == NULL)
        return "";
    b->data[b->len] = '\0'; /* cap > len always holds once data exists */
    return (const char *)b->data;
}

uint8_t *pm_buf_detach(pm_buf *b, size_t *len)
{
    uint8_t *data = b->data;
    PM_ASSERT(pm_buf_is_valid(b));
    if (len != NULL)
        *len = b->len;
    if (data != NULL)
        data[b->len] = '\0';
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    return data;
}

int pm_buf_error(paimon_error *err, int rc)
{
    if (rc == PAIMON_ELIMIT)
        return pm_err_set(err, rc, "buffer limit exceeded");
    if (rc == PAIMON_ENOMEM)
        return pm_nomem(err);
    return rc == 0 ? 0 : pm_err_set(err, rc, "buffer error");
}
