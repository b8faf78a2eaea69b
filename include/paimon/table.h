/*
 * paimon-c: opening and creating tables.
 *
 * A table is a directory (a local path, or `s3://bucket/path`: paimon/storage.h) holding
 * schema/, snapshot/, manifest/ and the data files.  paimon_table is a handle on it: opening reads the latest
 * schema; everything else is read on demand, so a handle sees commits made after it was
 * opened.
 *
 * Thread safety: one thread per paimon_table at a time.
 */
#ifndef PAIMON_TABLE_H
#define PAIMON_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "paimon/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct paimon_table paimon_table;

/* Opens the table at `path` (its root directory).  A path that holds no schema is
 * PAIMON_ENOTFOUND.  Caller owns `*out`; release with paimon_table_free(). */
PAIMON_API int paimon_table_open(paimon_table **out, const char *path, paimon_error *err);

/* Releases the handle.  NULL is allowed. */
PAIMON_API void paimon_table_free(paimon_table *table);

/* The table root as given to paimon_table_open() (a `file:` URI as its local path, without
 * a trailing '/').  Borrowed; valid until the table is freed. */
PAIMON_API const char *paimon_table_path(const paimon_table *table);

/* What paimon_table_create() creates.  Version the struct with PAIMON_CREATE_OPTIONS_INIT or
 * paimon_create_options_init(). */
typedef struct paimon_create_options {
    unsigned int version;            /* PAIMON_CREATE_OPTIONS_VERSION */
    const char *columns;             /* "id BIGINT NOT NULL, name STRING, ..." (DESIGN.md) */
    const char *const *primary_keys; /* column names, or NULL */
    size_t primary_key_count;
    const char *const *partition_keys; /* column names, or NULL */
    size_t partition_key_count;
    const char *const *option_keys; /* table options, recorded verbatim */
    const char *const *option_values;
    size_t option_count;
    const char *comment; /* or NULL */
} paimon_create_options;

#define PAIMON_CREATE_OPTIONS_VERSION 1
#define PAIMON_CREATE_OPTIONS_INIT                                                                 \
    {                                                                                              \
        PAIMON_CREATE_OPTIONS_VERSION, NULL, NULL, 0, NULL, 0, NULL, NULL, 0, NULL                 \
    }

/* Fills `options` with the defaults of version `version` of the struct (normally
 * PAIMON_CREATE_OPTIONS_VERSION), as PAIMON_CREATE_OPTIONS_INIT does, writing only the bytes
 * that version has.  0, or PAIMON_EINVALID for a version this library does not know. */
PAIMON_API int paimon_create_options_init(paimon_create_options *options, unsigned int version);

/* Creates a table at `path` by writing schema/schema-0 with the create-if-absent protocol.
 * NULL `options` are the defaults, which name no columns: PAIMON_EINVALID.
 * Fails with PAIMON_EEXISTS if the table exists, PAIMON_EINVALID for a bad column list,
 * unknown key columns or primary keys that do not include the partition keys... (the
 * message says which).  Primary-key columns become NOT NULL, as in Java. */
PAIMON_API int paimon_table_create(const char *path, const paimon_create_options *options,
                                   paimon_error *err);

/* Checks a COLUMNS string (the syntax of paimon_create_options.columns) without creating
 * anything: 0, or PAIMON_EINVALID with the position of the first problem. */
PAIMON_API int paimon_columns_check(const char *columns, paimon_error *err);

/* Checks a TYPE string (one column's type in the COLUMNS syntax, as an alter-type change
 * gives it) without changing anything: 0, or PAIMON_EINVALID with the position of the first
 * problem (an unknown type, bad parameters, nesting deeper than a table can hold). */
PAIMON_API int paimon_type_check(const char *type, paimon_error *err);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_TABLE_H */
