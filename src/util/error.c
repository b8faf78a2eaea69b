/* Error reporting: see error.h. */
#include "util/error.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/utf8.h"

PAIMON_API const char *paimon_strerror(int code)
{
    switch (code) {
    case PAIMON_OK: return "success";
    case PAIMON_ENOTFOUND: return "not found";
    case PAIMON_EEXISTS: return "already exists";
    case PAIMON_ECONFLICT: return "conflict";
    case PAIMON_ECORRUPT: return "corrupt data";
    case PAIMON_EUNSUPPORTED: return "not supported";
    case PAIMON_EINVALID: return "invalid argument";
    case PAIMON_ENOMEM: return "out of memory";
    case PAIMON_EIO: return "I/O error";
    case PAIMON_ELIMIT: return "limit exceeded";
    case PAIMON_ITEROVER: return "end of iteration";
    default: return "unknown error";
    }
}

PAIMON_API void paimon_error_clear(paimon_error *err)
{
    if (err == NULL)
        return;
    err->code = 0;
    err->message[0] = '\0';
}

/* Makes `msg` one printable line, whatever bytes its parts came from (names, paths and
 * values a user typed, strings read from damaged files): valid UTF-8 and printable ASCII
 * stay, \n \t \r are written so, any other control byte and any byte that is not
 * strict UTF-8 (overlong forms, surrogates, stray continuation bytes) becomes \xNN.  Text
 * already escaped so is unchanged: a message is escaped once however often it is
 * prefixed.  Cut at a character when the escaped form is longer than the buffer. */
static void printable(char *msg)
{
    static const char hex[] = "0123456789abcdef";
    char out[PAIMON_ERROR_MESSAGE_MAX];
    const uint8_t *s = (const uint8_t *)msg;
    size_t len = strlen(msg), o = 0, i = 0;
    bool changed = false;
    while (i < len) {
        uint8_t c = s[i];
        size_t seq = c < 0x80 ? 1 : pm_utf8_decode(s + i, len - i, NULL);
        size_t need = (c >= 0x20 && c != 0x7f && seq > 0)   ? seq
                      : c == '\n' || c == '\t' || c == '\r' ? 2
                                                            : 4;
        if (o + need >= sizeof(out))
            break;
        if (c >= 0x20 && c != 0x7f && seq > 0) {
            memcpy(out + o, s + i, seq);
            i += seq;
        } else {
            out[o] = '\\';
            if (need == 2) {
                out[o + 1] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
            } else {
                out[o + 1] = 'x';
                out[o + 2] = hex[c >> 4];
                out[o + 3] = hex[c & 15];
            }
            i++;
            changed = true;
        }
        o += need;
    }
    if (!changed && i == len)
        return;
    out[o] = '\0';
    memcpy(msg, out, o + 1);
}

static int vset(paimon_error *err, int code, const char *fmt, va_list ap)
{
    if (err == NULL)
        return code;
    err->code = code;
    vsnprintf(err->message, sizeof(err->message), fmt, ap);
    printable(err->message);
    return code;
}

int pm_err_set(paimon_error *err, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vset(err, code, fmt, ap);
    va_end(ap);
    return code;
}

int pm_err_prefix(paimon_error *err, int fallback, const char *fmt, ...)
{
    char joined[PAIMON_ERROR_MESSAGE_MAX];
    size_t n, rest;
    va_list ap;

    if (err == NULL)
        return fallback;
    va_start(ap, fmt);
    vsnprintf(joined, sizeof(joined), fmt, ap);
    va_end(ap);
    n = strlen(joined);
    rest = strlen(err->message);
    if (rest > sizeof(joined) - 1 - n)
        rest = sizeof(joined) - 1 - n;
    memcpy(joined + n, err->message, rest);
    joined[n + rest] = '\0';
    memcpy(err->message, joined, sizeof(joined));
    printable(err->message);
    if (err->code == 0)
        err->code = fallback;
    return err->code;
}

/* Every PAIMON_ECORRUPT is born here: keep this function out of line for breakpoints. */
__attribute__((noinline)) int pm_corrupt(paimon_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vset(err, PAIMON_ECORRUPT, fmt, ap);
    va_end(ap);
    return PAIMON_ECORRUPT;
}

int pm_nomem(paimon_error *err)
{
    return pm_err_set(err, PAIMON_ENOMEM, "out of memory");
}
