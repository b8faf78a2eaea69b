/*
 * UTF-8: decoding, encoding, validation, counting and cutting, one copy for every layer.
 *
 * Two ways of reading bytes as characters exist in the formats paimon-c follows, and both
 * are here, each named for the rule it follows:
 *
 *  - Strict UTF-8 (RFC 3629, what JSON text and the write path's input validation require):
 *    shortest form only (no C0/C1 leads, no E0 80..9F or F0 80..8F overlongs), no
 *    surrogates (ED A0..BF), nothing past U+10FFFF (F4 90.. and F5..FF leads).
 *    pm_utf8_decode, pm_utf8_validate, pm_utf8_next (which replaces an invalid byte by
 *    U+FFFD, as Java's String decoding does for BinaryString.toString).
 *  - Counting by leading bytes, which never fails.  Paimon's BinaryString
 *    (numBytesForFirstByte: a lead 0xxxxxxx is one byte, C2..DF two, E0..EF three, F0..F7
 *    four, anything else one) for numChars and substring: pm_utf8_char_len,
 *    pm_utf8_count, pm_utf8_prefix; statistics truncation (TruncateSimpleColStatsCollector)
 *    and casts to CHAR(n)/VARCHAR(n) cut with it.  ORC's and Parquet's writers instead count a
 *    character per byte that is not a continuation byte (10xxxxxx): pm_utf8_lead_prefix,
 *    pm_utf8_char_start.
 *  For valid UTF-8 both rules agree; they differ only on invalid bytes.
 *
 * Encoding (pm_utf8_encode) writes a lone surrogate as '?', as Java's String encoder does;
 * pm_utf8_encode_any encodes surrogates as three bytes, as modified UTF-8 (Java's
 * DataOutput.writeUTF) and ORC's statistics do.
 *
 * Thread safety: pure functions.
 */
#ifndef PM_UTIL_UTF8_H
#define PM_UTIL_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

#define PM_UTF8_REPLACEMENT 0xfffd /* U+FFFD */

/* The length (1..4) of the strictly valid sequence at s[0..avail), its code point in *cp
 * (may be NULL); 0 when the bytes there are not valid UTF-8 (avail must be > 0). */
size_t pm_utf8_decode(const uint8_t *s, size_t avail, uint32_t *cp);

/* The code point at s[*i] (*i < len), advancing *i past it; an invalid sequence yields
 * U+FFFD for one byte. */
uint32_t pm_utf8_next(const uint8_t *s, size_t len, size_t *i);

/* Whether s[0..n) is strictly valid UTF-8; *chars (may be NULL) its code points. */
bool pm_utf8_validate(const uint8_t *s, size_t n, size_t *chars);

/* Encodes `cp` (<= U+10FFFF) into out; returns its length (1..4).  A surrogate (U+D800 to
 * U+DFFF) becomes '?'. */
size_t pm_utf8_encode(uint32_t cp, uint8_t out[4]);

/* Encodes `cp` (<= U+10FFFF) by its magnitude alone, surrogates as three bytes; returns
 * its length (1..4). */
size_t pm_utf8_encode_any(uint32_t cp, uint8_t out[4]);

/* The value of the character s[0..n) (n = 1..4) known to be n bytes long: the lead's
 * payload bits for that length and six bits of each following byte, nothing checked. */
uint32_t pm_utf8_value(const uint8_t *s, size_t n);

/* Appends pm_utf8_encode(cp) to `b`: 0 or the pm_buf error. */
int pm_utf8_put(pm_buf *b, uint32_t cp);

/* Bytes of the character whose leading byte is `lead` (BinaryString.numBytesForFirstByte). */
static inline size_t pm_utf8_char_len(uint8_t lead)
{
    return lead < 0x80                    ? 1
           : lead >= 0xc2 && lead <= 0xdf ? 2
           : (lead & 0xf0) == 0xe0        ? 3
           : (lead & 0xf8) == 0xf0        ? 4
                                          : 1;
}

/* Characters in s[0..len) by pm_utf8_char_len (BinaryString.numChars). */
size_t pm_utf8_count(const uint8_t *s, size_t len);

/* Bytes of the first `chars` characters of s[0..len) by pm_utf8_char_len
 * (BinaryString.substring(0, chars)), at most len. */
size_t pm_utf8_prefix(const uint8_t *s, size_t len, size_t chars);

/* Bytes of the first `chars` characters of s[0..len), a character starting at every byte
 * that is not a continuation byte (ORC's and Hive's rule); *counted (may be NULL) the
 * characters in it. */
size_t pm_utf8_lead_prefix(const uint8_t *s, size_t len, size_t chars, size_t *counted);

/* The start of the character holding byte `at`: `at` moved back over continuation bytes,
 * but not before `from` (ORC's Utf8Utils.findLastCharacter; a Parquet bound's cut). */
static inline size_t pm_utf8_char_start(const uint8_t *s, size_t from, size_t at)
{
    while (at > from && (s[at] & 0xc0) == 0x80)
        at--;
    return at;
}

#endif /* PM_UTIL_UTF8_H */
