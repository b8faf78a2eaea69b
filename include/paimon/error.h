/*
 * paimon-c: error codes and the caller-owned error struct.
 *
 * Every fallible function returns an int: 0 on success or one of the negative PAIMON_E*
 * codes below.  When the caller passes a paimon_error, the function also fills it with the
 * same code and a one-line message of the form "CONTEXT: MESSAGE", where CONTEXT names the
 * file, table, column or input line concerned.  The struct lives in caller memory, so it
 * works even when allocation has failed.  Passing NULL is allowed.
 *
 * Codes are appended, never renumbered.
 *
 * Thread safety: everything here is thread-safe.
 */
#ifndef PAIMON_ERROR_H
#define PAIMON_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define PAIMON_API
#else
#define PAIMON_API __attribute__((visibility("default")))
#endif

enum paimon_code {
    PAIMON_OK = 0,
    PAIMON_ENOTFOUND = -1,    /* a table, snapshot, schema, file, tag or column does not exist */
    PAIMON_EEXISTS = -2,      /* the thing to create exists already */
    PAIMON_ECONFLICT = -3,    /* a concurrent commit conflicts with this one */
    PAIMON_ECORRUPT = -4,     /* bytes from disk are malformed (the message names file, offset) */
    PAIMON_EUNSUPPORTED = -5, /* a valid feature this version does not implement yet */
    PAIMON_EINVALID = -6,     /* bad argument or user input (the message says what and where) */
    PAIMON_ENOMEM = -7,       /* out of memory */
    PAIMON_EIO = -8,          /* the operating system or storage failed */
    PAIMON_ELIMIT = -9,       /* a size limit was exceeded */
    PAIMON_ITEROVER = -10     /* not an error: an iteration has no more items */
};

#define PAIMON_ERROR_MESSAGE_MAX 512

/* Filled by a failing call.  `code` equals the return value; `message` is NUL-terminated. */
typedef struct paimon_error {
    int code;                               /* one of enum paimon_code */
    char message[PAIMON_ERROR_MESSAGE_MAX]; /* "CONTEXT: MESSAGE" */
} paimon_error;

/* A static English name for `code`, e.g. "corrupt data".  Never NULL. */
PAIMON_API const char *paimon_strerror(int code);

/* Resets `err` to code 0 and an empty message.  NULL is allowed. */
PAIMON_API void paimon_error_clear(paimon_error *err);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_ERROR_H */
