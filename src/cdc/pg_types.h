/*
 * PostgreSQL types as Paimon types, and PostgreSQL's text form of a value as a value of the
 * public writer (paimon_value).  The mapping follows Java Paimon's PostgresTypeUtils where
 * it has one, and is documented in docs/CDC.md:
 *
 *   PostgreSQL                     Paimon
 *   boolean                        BOOLEAN
 *   smallint, integer, bigint      SMALLINT, INT, BIGINT
 *   real, double precision         FLOAT, DOUBLE
 *   numeric(p, s)                  DECIMAL(p, s)
 *   numeric                        DECIMAL(38, 18)
 *   text, json, jsonb, uuid        STRING
 *   varchar(n), varchar            VARCHAR(n), STRING
 *   char(n)                        CHAR(n)
 *   bytea                          BYTES
 *   date                           DATE
 *   time(p)                        TIME(p)           (p: 6 when not given)
 *   timestamp(p)                   TIMESTAMP(p)
 *   timestamptz(p)                 TIMESTAMP(p) WITH LOCAL TIME ZONE
 *   T[] (T any type above)         ARRAY<the type of T>   (one dimension: pg_array.c)
 *
 * Values arrive in PostgreSQL's text output form (pgoutput and COPY text use the same
 * output functions); timestamptz values in UTC, as the connections set TimeZone=UTC.
 */
#ifndef PM_CDC_PG_TYPES_H
#define PM_CDC_PG_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "cdc_util.h"
#include "paimon.h"

#define PM_PG_BOOL        16
#define PM_PG_BYTEA       17
#define PM_PG_INT8        20
#define PM_PG_INT2        21
#define PM_PG_INT4        23
#define PM_PG_TEXT        25
#define PM_PG_JSON        114
#define PM_PG_FLOAT4      700
#define PM_PG_FLOAT8      701
#define PM_PG_BPCHAR      1042
#define PM_PG_VARCHAR     1043
#define PM_PG_DATE        1082
#define PM_PG_TIME        1083
#define PM_PG_TIMESTAMP   1114
#define PM_PG_TIMESTAMPTZ 1184
#define PM_PG_NUMERIC     1700
#define PM_PG_UUID        2950
#define PM_PG_JSONB       3802

/* The array types of the types above (pg_type.typarray). */
#define PM_PG_JSON_ARRAY        199
#define PM_PG_BOOL_ARRAY        1000
#define PM_PG_BYTEA_ARRAY       1001
#define PM_PG_INT2_ARRAY        1005
#define PM_PG_INT4_ARRAY        1007
#define PM_PG_TEXT_ARRAY        1009
#define PM_PG_BPCHAR_ARRAY      1014
#define PM_PG_VARCHAR_ARRAY     1015
#define PM_PG_INT8_ARRAY        1016
#define PM_PG_FLOAT4_ARRAY      1021
#define PM_PG_FLOAT8_ARRAY      1022
#define PM_PG_TIMESTAMP_ARRAY   1115
#define PM_PG_DATE_ARRAY        1182
#define PM_PG_TIME_ARRAY        1183
#define PM_PG_TIMESTAMPTZ_ARRAY 1185
#define PM_PG_NUMERIC_ARRAY     1231
#define PM_PG_UUID_ARRAY        2951
#define PM_PG_JSONB_ARRAY       3807

/* The element type of array type `oid`, or 0 when it is not one of those above. */
uint32_t pm_pgtype_array_elem(uint32_t oid);

/* Appends to `out` the canonical JSON (a JSON array) of text[0..len), the text form of a
 * one-dimensional array of `elem`; each element is converted as pm_pgtype_value() converts
 * a value of `elem`.  A multi-dimensional value is PAIMON_EUNSUPPORTED, a malformed one or
 * a bad element PAIMON_EINVALID, naming `what`. */
PM_MUST_CHECK int pm_pgtype_array_json(uint32_t elem, const char *text, size_t len,
                                       const char *what, pm_cdc_buf *out, paimon_error *err);

/* The value type pm_pgtype_value() gives an array until pm_pgtype_fixup(): its JSON is in
 * `scratch` at the offset in v.s.ptr; the fixup makes it PAIMON_VALUE_TEXT, which a nested
 * column of the public writer parses as JSON. */
#define PM_PG_VALUE_JSON_AT ((paimon_value_type)(PAIMON_VALUE_TIMESTAMP + 64))

/* Writes the Paimon type of (oid, typmod) into out ("DECIMAL(10, 2)").  `what` names the
 * column and `type_name` the PostgreSQL type for the message of a type with no mapping:
 * PAIMON_EUNSUPPORTED. */
PM_MUST_CHECK int pm_pgtype_map(uint32_t oid, int32_t typmod, const char *what,
                                const char *type_name, char *out, size_t cap, paimon_error *err);

/* Converts the text form text[0..len) of a value of type `oid` into *out.  Strings point
 * into `text`; bytea is decoded into `scratch`, and its value holds the offset there until
 * pm_pgtype_fixup() (the buffer may move while a row's values are converted).
 * A value Paimon cannot hold (numeric NaN, an infinite date or timestamp) is
 * PAIMON_EINVALID naming `what`.  An array becomes its canonical JSON in `scratch`
 * (PM_PG_VALUE_JSON_AT until the fixup). */
PM_MUST_CHECK int pm_pgtype_value(uint32_t oid, const char *text, size_t len, const char *what,
                                  paimon_value *out, pm_cdc_buf *scratch, paimon_error *err);

/* Turns the scratch offsets of a row's BYTES and array values into pointers, once every
 * value of the row is converted. */
void pm_pgtype_fixup(paimon_value *values, size_t count, const pm_cdc_buf *scratch);

/* Splits one line of COPY ... TO STDOUT text format (without its newline) into fields,
 * unescaping backslash sequences into `scratch`; \N is a null (ptr NULL).  `fields` has
 * room for `cap`; *count receives the number.  PAIMON_ECORRUPT for more fields than cap or
 * a bad escape. */
typedef struct pm_copy_field {
    const char *ptr; /* NULL: null; else into scratch (offsets fixed up after the line) */
    size_t len;
} pm_copy_field;
PM_MUST_CHECK int pm_copy_split(const char *line, size_t len, pm_copy_field *fields, size_t cap,
                                size_t *count, pm_cdc_buf *scratch, paimon_error *err);

#endif /* PM_CDC_PG_TYPES_H */
