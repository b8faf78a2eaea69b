/*
 * Helpers of the CDC layer: errors, a bounded buffer, LSN text, a clock (cdc_util.h).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cdc_util.h"

int pm_cdc_err(paimon_error *err, int code, const char *fmt, ...)
{
    va_list ap;
    if (err == NULL)
        return code;
    err->code = code;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof(err->message), fmt, ap);
    va_end(ap);
    return code;
}

int pm_cdc_err_prefix(paimon_error *err, int code, const char *fmt, ...)
{
    char head[256], old[sizeof(err->message)];
    va_list ap;
    if (err == NULL)
        return code;
    va_start(ap, fmt);
    vsnprintf(head, sizeof(head), fmt, ap);
    va_end(ap);
    memcpy(old, err->message, sizeof(old));
    old[sizeof(old) - 1] = '\0';
    {
        size_t h = strlen(head), n = strlen(old), cap = sizeof(err->message) - 1;
        if (h > cap)
            h = cap;
        if (n > cap - h)
            n = cap - h;
        memcpy(err->message, head, h);
        memcpy(err->message + h, old, n);
        err->message[h + n] = '\0';
    }
    err->code = code;
    return code;
}

void pm_cdc_buf_free(pm_cdc_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

int pm_cdc_buf_put(pm_cdc_buf *b, const void *p, size_t n)
{
    size_t max = b->max != 0 ? b->max : ((size_t)1 << 30);
    size_t need;
    if (__builtin_add_overflow(b->len, n + 1, &need) || need > max)
        return PAIMON_ELIMIT;
    if (need > b->cap) {
        size_t cap = b->cap < 256 ? 256 : b->cap;
        char *data;
        while (cap < need)
            cap = cap > max / 2 ? max : cap * 2;
        if ((data = realloc(b->data, cap)) == NULL)
            return PAIMON_ENOMEM;
        b->data = data;
        b->cap = cap;
    }
    if (n > 0)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

int pm_cdc_buf_putc(pm_cdc_buf *b, char c)
{
    return pm_cdc_buf_put(b, &c, 1);
}

void pm_cdc_lsn_format(uint64_t lsn, char *out, size_t cap)
{
    snprintf(out, cap, "%" PRIX32 "/%" PRIX32, (uint32_t)(lsn >> 32), (uint32_t)lsn);
}

bool pm_cdc_lsn_parse(const char *text, uint64_t *lsn)
{
    unsigned long long hi = 0, lo = 0;
    char *end;
    if (text == NULL || text[0] == '\0' || text[0] == '/')
        return false;
    hi = strtoull(text, &end, 16);
    if (*end != '/' || hi > UINT32_MAX || end[1] == '\0')
        return false;
    lo = strtoull(end + 1, &end, 16);
    if (*end != '\0' || lo > UINT32_MAX)
        return false;
    *lsn = ((uint64_t)hi << 32) | lo;
    return true;
}

int64_t pm_cdc_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
