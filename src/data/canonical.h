/*
 * The canonical text of values (shared/spec/canonical-rows.md): the JSON form every test,
 * `paimon cat --format jsonl` and the oracle agree on, plus the pieces other formats reuse
 * (dates, times, decimals, shortest floats, base64, JSON string escaping).
 */
#ifndef PM_DATA_CANONICAL_H
#define PM_DATA_CANONICAL_H

#include <stddef.h>
#include <stdint.h>

#include "data/datum.h"
#include "data/types.h"
#include "util/buf.h"
#include "util/json.h" /* pm_json_quote */
#include "util/error.h"

/* Appends the canonical JSON value of `d` (nested types decoded from their binary form).
 * Fails with PAIMON_ECORRUPT only when nested binary data is malformed. */
PM_MUST_CHECK int pm_canonical_json(pm_buf *out, const pm_type *t, const pm_datum *d,
                                    paimon_error *err);

/* Pieces (no quotes added). */
int pm_format_date(pm_buf *out, int64_t days);                         /* YYYY-MM-DD */
int pm_format_time(pm_buf *out, int64_t millis_of_day, int precision); /* HH:MM:SS[.f] */
/* TIME from nanoseconds of the day, for TIME(p) with sub-millisecond digits (p > 3). */
int pm_format_time_nanos(pm_buf *out, int64_t nanos_of_day, int precision);
int pm_format_timestamp(pm_buf *out, int64_t millis, int32_t nanos, int precision);
int pm_format_decimal(pm_buf *out, pm_int128 unscaled, int scale); /* -12.30 */
/* The shortest decimal that reads back as v (util/shortest.h), laid out as printf's %g with
 * that many digits, exponent JSON-style: "0.1", "12345.678", "1e-7", "1e2", "-0"; NaN,
 * Infinity and -Infinity bare (the caller quotes them). */
int pm_format_double(pm_buf *out, double v);
int pm_format_float(pm_buf *out, float v); /* the same for binary32 */
int pm_base64(pm_buf *out, const uint8_t *data, size_t len);

#endif /* PM_DATA_CANONICAL_H */
