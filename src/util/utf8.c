/* UTF-8 decoding, encoding, validation and cutting: see utf8.h. */
#include "util/utf8.h"

#include <string.h>

size_t pm_utf8_decode(const uint8_t *s, size_t avail, uint32_t *cp)
{
    uint8_t c = s[0];
    size_t n;
    uint32_t v;
    if (c < 0x80) {
        if (cp != NULL)
            *cp = c;
        return 1;
    }
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        v = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        v = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        v = c & 0x07;
    } else {
        return 0;
    }
    if (n > avail)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3f);
    }
    if ((n == 3 && (v < 0x800 || (v >= 0xd800 && v <= 0xdfff))) ||
        (n == 4 && (v < 0x10000 || v > 0x10ffff)))
        return 0;
    if (cp != NULL)
        *cp = v;
    return n;
}

uint32_t pm_utf8_next(const uint8_t *s, size_t len, size_t *i)
{
    uint32_t cp;
    size_t n = pm_utf8_decode(s + *i, len - *i, &cp);
    if (n == 0) {
        (*i)++;
        return PM_UTF8_REPLACEMENT;
    }
    *i += n;
    return cp;
}

bool pm_utf8_validate(const uint8_t *s, size_t n, size_t *chars)
{
    size_t i = 0, count = 0;
    while (i < n) {
        uint8_t c = s[i];
        if (c < 0x80) {
            /* runs of ASCII, 8 bytes at a time */
            while (i + 8 <= n) {
                uint64_t w;
                memcpy(&w, s + i, 8);
                if (w & 0x8080808080808080ull)
                    break;
                i += 8;
                count += 8;
            }
            while (i < n && s[i] < 0x80) {
                i++;
                count++;
            }
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf) {
            if (i + 1 >= n || (s[i + 1] & 0xc0) != 0x80)
                return false;
            i += 2;
        } else if (c >= 0xe0 && c <= 0xef) {
            uint8_t lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
            if (i + 2 >= n || s[i + 1] < lo || s[i + 1] > hi || (s[i + 2] & 0xc0) != 0x80)
                return false;
            i += 3;
        } else if (c >= 0xf0 && c <= 0xf4) {
            uint8_t lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
            if (i + 3 >= n || s[i + 1] < lo || s[i + 1] > hi || (s[i + 2] & 0xc0) != 0x80 ||
                (s[i + 3] & 0xc0) != 0x80)
                return false;
            i += 4;
        } else {
            return false;
        }
        count++;
    }
    if (chars != NULL)
        *chars = count;
    return true;
}

size_t pm_utf8_encode(uint32_t cp, uint8_t out[4])
{
    if (cp >= 0xd800 && cp <= 0xdfff) { /* a lone surrogate: Java's encoder writes '?' */
        out[0] = '?';
        return 1;
    }
    return pm_utf8_encode_any(cp, out);
}

uint32_t pm_utf8_value(const uint8_t *s, size_t n)
{
    uint32_t cp = n == 1 ? s[0] : (uint32_t)(s[0] & (0xff >> (n + 1)));
    for (size_t i = 1; i < n; i++)
        cp = cp << 6 | (s[i] & 0x3f);
    return cp;
}

size_t pm_utf8_encode_any(uint32_t cp, uint8_t out[4])
{
    if (cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (uint8_t)(0xc0 | cp >> 6);
        out[1] = (uint8_t)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (uint8_t)(0xe0 | cp >> 12);
        out[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
        out[2] = (uint8_t)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (uint8_t)(0xf0 | cp >> 18);
    out[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3f));
    out[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
    out[3] = (uint8_t)(0x80 | (cp & 0x3f));
    return 4;
}

int pm_utf8_put(pm_buf *b, uint32_t cp)
{
    uint8_t t[4];
    return pm_buf_append(b, t, pm_utf8_encode(cp, t));
}

size_t pm_utf8_count(const uint8_t *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i += pm_utf8_char_len(s[i]))
        n++;
    return n;
}

size_t pm_utf8_prefix(const uint8_t *s, size_t len, size_t chars)
{
    size_t i = 0;
    for (size_t c = 0; c < chars && i < len; c++)
        i += pm_utf8_char_len(s[i]);
    return i < len ? i : len;
}

size_t pm_utf8_lead_prefix(const uint8_t *s, size_t len, size_t chars, size_t *counted)
{
    size_t seen = 0, i = 0;
    for (; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            if (seen == chars)
                break;
            seen++;
        }
    }
    if (counted != NULL)
        *counted = seen;
    return i;
}
