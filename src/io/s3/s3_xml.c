/* The bounded tag scanner for S3's XML answers: see s3_xml.h. */
#include "io/s3/s3_xml.h"

#include <stdint.h>
#include <string.h>

#include "util/alloc.h"
#include "util/error.h"

static bool is_name_end(char c)
{
    return c == '>' || c == '/' || c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Index of the first occurrence of `needle` in doc[from..len), or len. */
static size_t find(const char *doc, size_t len, size_t from, const char *needle, size_t n)
{
    if (n == 0 || from > len)
        return len;
    for (size_t i = from; i + n <= len; i++) {
        const char *p = memchr(doc + i, needle[0], len - i - n + 1);
        if (p == NULL)
            return len;
        i = (size_t)(p - doc);
        if (memcmp(p, needle, n) == 0)
            return i;
    }
    return len;
}

bool pm_s3_xml_next(const char *doc, size_t len, size_t *pos, const char *name,
                    pm_s3_xml_span *inner)
{
    size_t n = strlen(name);
    size_t at = *pos;
    while (at < len) {
        size_t lt = find(doc, len, at, "<", 1);
        if (lt >= len || lt + 1 + n >= len) {
            *pos = len;
            return false;
        }
        at = lt + 1;
        if (memcmp(doc + at, name, n) != 0 || !is_name_end(doc[at + n]))
            continue;
        /* the end of the start tag */
        size_t gt = find(doc, len, at + n, ">", 1);
        if (gt >= len) {
            *pos = len;
            return false;
        }
        if (doc[gt - 1] == '/') { /* <Name/> */
            inner->ptr = doc + gt + 1;
            inner->len = 0;
            *pos = gt + 1;
            return true;
        }
        /* the end tag: "</Name" then optional spaces then '>' */
        size_t from = gt + 1;
        for (;;) {
            size_t close = find(doc, len, from, "</", 2);
            if (close >= len || close + 2 + n > len) {
                *pos = len;
                return false;
            }
            size_t e = close + 2;
            if (memcmp(doc + e, name, n) == 0) {
                e += n;
                while (e < len &&
                       (doc[e] == ' ' || doc[e] == '\t' || doc[e] == '\r' || doc[e] == '\n'))
                    e++;
                if (e < len && doc[e] == '>') {
                    inner->ptr = doc + gt + 1;
                    inner->len = close - (gt + 1);
                    *pos = e + 1;
                    return true;
                }
            }
            from = close + 2;
        }
    }
    *pos = len;
    return false;
}

static int put_utf8(pm_buf *out, uint32_t cp)
{
    uint8_t b[4];
    size_t n;
    if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return PAIMON_ECORRUPT;
    if (cp < 0x80) {
        b[0] = (uint8_t)cp;
        n = 1;
    } else if (cp < 0x800) {
        b[0] = (uint8_t)(0xC0 | (cp >> 6));
        b[1] = (uint8_t)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        b[0] = (uint8_t)(0xE0 | (cp >> 12));
        b[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (uint8_t)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        b[0] = (uint8_t)(0xF0 | (cp >> 18));
        b[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        b[3] = (uint8_t)(0x80 | (cp & 0x3F));
        n = 4;
    }
    return pm_buf_append(out, b, n);
}

static int numeric_ref(pm_buf *out, const char *s, size_t n)
{
    uint32_t cp = 0;
    bool hex = n > 0 && (s[0] == 'x' || s[0] == 'X');
    size_t i = hex ? 1 : 0;
    if (i >= n || n - i > 8)
        return PAIMON_ECORRUPT;
    for (; i < n; i++) {
        char c = s[i];
        uint32_t d;
        if (c >= '0' && c <= '9')
            d = (uint32_t)(c - '0');
        else if (hex && c >= 'a' && c <= 'f')
            d = (uint32_t)(c - 'a' + 10);
        else if (hex && c >= 'A' && c <= 'F')
            d = (uint32_t)(c - 'A' + 10);
        else
            return PAIMON_ECORRUPT;
        cp = cp * (hex ? 16 : 10) + d;
        if (cp > 0x10FFFF)
            return PAIMON_ECORRUPT;
    }
    return put_utf8(out, cp);
}

int pm_s3_xml_unescape(pm_buf *out, const char *s, size_t len)
{
    static const struct {
        const char *name;
        char c;
    } NAMED[] = {{"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
    int rc = 0;
    size_t i = 0;
    while (i < len) {
        const char *amp = memchr(s + i, '&', len - i);
        size_t run = amp != NULL ? (size_t)(amp - (s + i)) : len - i;
        PM_TRY(pm_buf_append(out, s + i, run));
        i += run;
        if (i >= len)
            break;
        const char *semi = memchr(s + i, ';', len - i < 12 ? len - i : 12);
        if (semi == NULL)
            return PAIMON_ECORRUPT;
        const char *ent = s + i + 1;
        size_t n = (size_t)(semi - ent);
        if (n > 0 && ent[0] == '#') {
            PM_TRY(numeric_ref(out, ent + 1, n - 1));
        } else {
            size_t k = 0;
            for (; k < sizeof(NAMED) / sizeof(NAMED[0]); k++)
                if (strlen(NAMED[k].name) == n && memcmp(NAMED[k].name, ent, n) == 0)
                    break;
            if (k == sizeof(NAMED) / sizeof(NAMED[0]))
                return PAIMON_ECORRUPT;
            PM_TRY(pm_buf_putc(out, (uint8_t)NAMED[k].c));
        }
        i = (size_t)(semi - s) + 1;
    }
done:
    return rc;
}

int pm_s3_xml_text(const char *doc, size_t len, const char *name, char **out)
{
    int rc = 0;
    size_t pos = 0;
    pm_s3_xml_span span;
    pm_buf b;
    *out = NULL;
    if (!pm_s3_xml_next(doc, len, &pos, name, &span))
        return PAIMON_ENOTFOUND;
    pm_buf_init(&b, len + 1);
    PM_TRY(pm_s3_xml_unescape(&b, span.ptr, span.len));
    PM_TRY(pm_buf_putc(&b, '\0'));
    size_t n;
    *out = (char *)pm_buf_detach(&b, &n);
done:
    if (rc == PAIMON_ELIMIT)
        rc = PAIMON_ECORRUPT;
    pm_buf_free(&b);
    return rc;
}
