/*
 * Internal error helpers over the public paimon_error (include/paimon/error.h).
 *
 * Conventions (STYLE.md): functions return 0 or a negative PAIMON_E* code and fill the
 * caller's paimon_error (which may be NULL).  A caller that adds context prefixes the
 * message with pm_err_prefix() and returns the code unchanged.  Corrupt input always goes
 * through pm_corrupt() so a single breakpoint catches every PAIMON_ECORRUPT.  Messages are
 * one printable line: whatever bytes a caller formats into one (a name or value a user
 * typed, a string from a damaged file), control characters and bytes that are not strict
 * UTF-8 are escaped (\n, \t, \r, \xNN) by pm_err_set, pm_err_prefix and pm_corrupt.
 */
#ifndef PM_UTIL_ERROR_H
#define PM_UTIL_ERROR_H

#include "paimon/error.h"

#if defined(__GNUC__)
#define PM_PRINTF(fmt_idx, arg_idx) __attribute__((format(printf, fmt_idx, arg_idx)))
#define PM_MUST_CHECK               __attribute__((warn_unused_result))
#else
#define PM_PRINTF(fmt_idx, arg_idx)
#define PM_MUST_CHECK
#endif

/* Internal functions that return an error code and fill a paimon_error are declared
 * PM_MUST_CHECK: a call that drops the code does not compile (-Werror).  A caller that
 * means to ignore a failure (best-effort cleanup, a hint) says so with PM_IGNORE(call),
 * since GCC does not accept a (void) cast for this attribute. */
#define PM_IGNORE(expr)                                                                            \
    do {                                                                                           \
        if ((expr) != 0) {                                                                         \
        }                                                                                          \
    } while (0)

/* Sets err->code = code and formats the message; returns `code`. */
int pm_err_set(paimon_error *err, int code, const char *fmt, ...) PM_PRINTF(3, 4);

/* Prepends formatted context ("manifest-x-0: ") to err->message; returns err->code, or
 * `fallback` when err is NULL. */
int pm_err_prefix(paimon_error *err, int fallback, const char *fmt, ...) PM_PRINTF(3, 4);

/* Reports corrupt input: "WHERE: MESSAGE" with PAIMON_ECORRUPT.  Set a breakpoint here. */
int pm_corrupt(paimon_error *err, const char *fmt, ...) PM_PRINTF(2, 3);

/* Reports an allocation failure (PAIMON_ENOMEM). */
int pm_nomem(paimon_error *err);

/* Propagate a nonzero code: `PM_TRY(x);` jumps to the function's `done:` label with rc set. */
#define PM_TRY(expr)                                                                               \
    do {                                                                                           \
        rc = (expr);                                                                               \
        if (rc != 0)                                                                               \
            goto done;                                                                             \
    } while (0)

#endif /* PM_UTIL_ERROR_H */
