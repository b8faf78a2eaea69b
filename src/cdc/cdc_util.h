/*
 * Small helpers of the CDC layer (src/cdc): error messages into the public paimon_error,
 * a growable byte buffer with a hard maximum, PostgreSQL LSNs in their text form
 * ("16/B374D848") and a monotonic clock.  The layer sits over the public API
 * (include/paimon.h) and so has its own copies of these few lines instead of src/util's.
 */
#ifndef PM_CDC_UTIL_H
#define PM_CDC_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "paimon.h"

/* A function whose error code must be looked at (src/util's macro; this layer cannot
 * include it). */
#ifndef PM_MUST_CHECK
#define PM_MUST_CHECK __attribute__((warn_unused_result))
#endif

/* Sets err (may be NULL) to `code` and the formatted message; returns `code`. */
PM_MUST_CHECK int pm_cdc_err(paimon_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Puts the formatted text before err's message; returns `code`. */
PM_MUST_CHECK int pm_cdc_err_prefix(paimon_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A growable buffer.  `max` bounds it (0: 1 GiB): growing past it is PAIMON_ELIMIT. */
typedef struct pm_cdc_buf {
    char *data; /* owned; NUL-terminated after pm_cdc_buf_put* */
    size_t len;
    size_t cap;
    size_t max;
} pm_cdc_buf;

void pm_cdc_buf_free(pm_cdc_buf *b);
int pm_cdc_buf_put(pm_cdc_buf *b, const void *p, size_t n);
int pm_cdc_buf_putc(pm_cdc_buf *b, char c);

/* "X/Y" (hex, as PostgreSQL prints an LSN) into `out` (at least 20 bytes). */
void pm_cdc_lsn_format(uint64_t lsn, char *out, size_t cap);
/* Parses "X/Y"; false when it is not one. */
bool pm_cdc_lsn_parse(const char *text, uint64_t *lsn);

/* Milliseconds of a monotonic clock. */
int64_t pm_cdc_now_ms(void);

#endif /* PM_CDC_UTIL_H */
