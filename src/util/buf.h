/*
 * A growable byte buffer with a hard maximum (curl's dynbuf).  Decoders that size a buffer
 * from untrusted length fields set `max` so a hostile file cannot make them allocate
 * without bound: growing past it fails with PAIMON_ELIMIT instead.
 *
 * Invariants: data == NULL iff cap == 0; len <= cap <= max; when data != NULL there is
 * always one spare byte so pm_buf_cstr() can NUL-terminate.
 */
#ifndef PM_UTIL_BUF_H
#define PM_UTIL_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#define PM_BUF_NO_MAX ((size_t)1 << 40) /* 1 TiB: effectively unbounded, still overflow-safe */

typedef struct pm_buf {
    uint8_t *data; /* owned; NULL until the first append */
    size_t len;    /* bytes in use */
    size_t cap;    /* bytes allocated */
    size_t max;    /* growth limit: len never exceeds it */
} pm_buf;

/* Initializes an empty buffer that may grow to `max` bytes (0 means PM_BUF_NO_MAX). */
void pm_buf_init(pm_buf *b, size_t max);
void pm_buf_free(pm_buf *b);
void pm_buf_reset(pm_buf *b); /* len = 0, keeps the memory */

/* Each returns 0, PAIMON_ENOMEM or PAIMON_ELIMIT; the buffer is unchanged on failure. */
int pm_buf_reserve(pm_buf *b, size_t extra);
int pm_buf_append(pm_buf *b, const void *data, size_t len);
int pm_buf_putc(pm_buf *b, uint8_t c);
int pm_buf_puts(pm_buf *b, const char *s);
int pm_buf_printf(pm_buf *b, const char *fmt, ...) PM_PRINTF(2, 3);
int pm_buf_vprintf(pm_buf *b, const char *fmt, va_list ap);
int pm_buf_zero(pm_buf *b, size_t len); /* appends `len` zero bytes */

/* NUL-terminates and returns the contents as a string (never NULL: "" when empty). */
const char *pm_buf_cstr(pm_buf *b);

/* Hands the memory to the caller (release with pm_free) and resets the buffer. */
uint8_t *pm_buf_detach(pm_buf *b, size_t *len);

/* The invariants above (data == NULL iff cap == 0; len < cap once allocated; len <= max).
 * Debug builds assert them on every growth and on pm_buf_cstr(); code that sets `len`
 * directly must keep them. */
static inline bool pm_buf_is_valid(const pm_buf *b)
{
    return (b->data == NULL) == (b->cap == 0) &&
           (b->data == NULL ? b->len == 0 : b->len < b->cap) && b->len <= b->max;
}

/* Converts a pm_buf return code into a filled paimon_error. */
PM_MUST_CHECK int pm_buf_error(paimon_error *err, int rc);

#endif /* PM_UTIL_BUF_H */
