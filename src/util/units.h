/*
 * Typed values written as text, parsed with exactly the grammars Java Paimon 1.4.2 uses for
 * option values (OptionsUtils.convertValue), so that a value means the same thing in
 * paimon-c as in Java and is refused where Java refuses it:
 *
 *   int, long    Integer.parseInt / Long.parseLong: an optional '+' or '-', then one or
 *                more decimal digits; nothing else (no spaces, no unit).
 *   boolean      "true" or "false" in any case, nothing around them.
 *   double       Double.parseDouble: spaces (and control characters) around are ignored; an
 *                optional sign; "NaN", "Infinity", a decimal ("1", "1.", ".5", "2.5e-3") or a
 *                hexadecimal ("0x1.8p1", the binary exponent is required) number; an optional
 *                suffix f, F, d or D.  Out-of-range values become infinity or zero, as in Java.
 *   memory size  MemorySize.parse: spaces around ignored, digits (no sign), optional spaces,
 *                an optional unit in any case: b bytes | k kb kibibytes | m mb mebibytes |
 *                g gb gibibytes | t tb tebibytes (powers of 1024).  "64 mb", "64MB", "4096".
 *   duration     TimeUtils.parseDuration: spaces around ignored, digits (no sign), optional
 *                spaces, an optional unit in lower or upper case: d day days | h hour hours |
 *                min m minute minutes | s sec secs second seconds | ms milli millis
 *                millisecond milliseconds | µs micro micros microsecond microseconds | ns nano
 *                nanos nanosecond nanoseconds; no unit is milliseconds.  ("us" and "mins" are
 *                not units in Java.)
 *   enum         the constant's string form, compared ignoring case (strcasecmp).
 *   map          OptionsUtils.convertToProperties: "k1:v1,k2:v2"; items and both halves
 *                trimmed, or quoted with ' or " (a doubled quote inside stands for one);
 *                every item exactly one key and one value; no key twice (Collectors.toMap).
 *
 * "Spaces" are Java's String.trim(): every byte up to 0x20.  Where Java's case mapping or
 * Character.digit reaches beyond ASCII (Unicode decimal digits such as "１２" in parseInt,
 * "falſe" for false, the Kelvin sign U+212A for the k of "kb"), these parsers refuse the
 * value: such text depends on the JDK's Unicode tables, and a clear refusal is better than
 * a guess.
 *
 * Every parser returns 0, PAIMON_EINVALID when Java would refuse the text, PAIMON_ELIMIT
 * when the text has the right form but its value does not fit (Java refuses those too; the
 * caller's message can say "out of range"), or PAIMON_ENOMEM.  Nothing is written to *out
 * on failure.  These are plain text parsers: the option catalogue (meta/option_catalog.h)
 * says which key has which type.
 */
#ifndef PM_UTIL_UNITS_H
#define PM_UTIL_UNITS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/strlist.h"

int pm_parse_int32(const char *text, int32_t *out);
int pm_parse_int64(const char *text, int64_t *out);
int pm_parse_bool(const char *text, bool *out);
int pm_parse_double(const char *text, double *out);

/* Bytes. */
int pm_parse_memory_size(const char *text, int64_t *bytes);

/* Milliseconds, as Java's Duration.toMillis() gives them (sub-millisecond parts dropped).
 * PAIMON_ELIMIT when the duration does not fit in a long of milliseconds: Java accepts
 * "9223372036854775807 s" as a Duration but every reader of it in milliseconds fails. */
int pm_parse_duration_ms(const char *text, int64_t *ms);

/* Appends key, value, key, value... to `out` (in the text's order).  On failure `out` may
 * hold part of the pairs. */
int pm_parse_map(const char *text, pm_strlist *out);

#endif /* PM_UTIL_UNITS_H */
