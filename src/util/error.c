/* Error reporting: see error.h. */
#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

static int vset(paimon_error *err, int code, const char *fmt, va_list ap)
{
    if (err == NULL)
        return code;
    err->code = code;
    vsnprintf(err->message, sizeof(err->message), fmt, ap);
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
