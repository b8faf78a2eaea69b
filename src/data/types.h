/*
 * Paimon data types (metadata.md §3.3) as a tree of pm_type.
 *
 * A type is an id, nullability and parameters; ROW types own their fields, each with the
 * Paimon field id that identifies a column across schema versions (DESIGN.md invariant 4).
 * A table's columns are a ROW type.  Types are plain owned trees: pm_type_free() releases
 * the whole tree, pm_type_clone() copies it.
 *
 * String forms:
 *  - pm_type_parse() reads the SQL-ish form of the schema JSON (`BIGINT`, `DECIMAL(18, 2)`,
 *    `TIMESTAMP(3) WITH LOCAL TIME ZONE`, `INT NOT NULL`, …, the aliases Java accepts) and
 *    additionally the nested forms `ARRAY<T>`, `MAP<K, V>`, `MULTISET<T>`, `ROW<n T, …>` of
 *    the `paimon create` COLUMNS syntax (DESIGN.md).
 *  - pm_type_format() writes the form Java writes for atomic types (`STRING` for
 *    VARCHAR(2147483647), `BYTES` for VARBINARY(2147483647), `DECIMAL(p, s)`) and the nested
 *    forms above for composite types.
 *  - pm_type_from_json()/pm_type_to_json() convert the schema-file JSON (strings for atomic
 *    types, objects for ARRAY/MAP/MULTISET/ROW).
 *
 * Thread safety: types are immutable once built and may be shared between threads.
 */
#ifndef PM_DATA_TYPES_H
#define PM_DATA_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "util/error.h"

typedef enum pm_type_id {
    PM_TYPE_BOOLEAN,
    PM_TYPE_TINYINT,
    PM_TYPE_SMALLINT,
    PM_TYPE_INT,
    PM_TYPE_BIGINT,
    PM_TYPE_FLOAT,
    PM_TYPE_DOUBLE,
    PM_TYPE_DECIMAL,       /* precision 1..38, scale 0..precision */
    PM_TYPE_CHAR,          /* length 1..2^31-1 */
    PM_TYPE_VARCHAR,       /* length 1..2^31-1; 2^31-1 is STRING */
    PM_TYPE_BINARY,        /* length 1..2^31-1 */
    PM_TYPE_VARBINARY,     /* length 1..2^31-1; 2^31-1 is BYTES */
    PM_TYPE_DATE,          /* days since 1970-01-01 */
    PM_TYPE_TIME,          /* precision 0..9; stored as milliseconds of the day */
    PM_TYPE_TIMESTAMP,     /* precision 0..9; local date-time */
    PM_TYPE_TIMESTAMP_LTZ, /* precision 0..9; an instant */
    PM_TYPE_ARRAY,         /* element */
    PM_TYPE_MAP,           /* key, value */
    PM_TYPE_MULTISET,      /* element (stored as MAP<element, INT NOT NULL>) */
    PM_TYPE_ROW,           /* fields */
    PM_TYPE_VARIANT,       /* 1.2+: parsed and carried, not read or written */
    PM_TYPE_BLOB           /* 1.4+: parsed and carried, not read or written */
} pm_type_id;

/* The deepest nesting of a Paimon type: ARRAY, MAP, MULTISET and ROW constructors around the
 * innermost atomic type of one column (`ARRAY<ROW<a INT>>` is 2; the table's own row does not
 * count).  Java sets no limit (its structured field ids assume less than 1024 levels); 64 is
 * far beyond any real schema and keeps every recursion over types, values and file schemas
 * shallow.  Every parser or decoder that builds a type from user input or file bytes refuses
 * deeper types (types, schema JSON, Avro, Parquet and ORC file schemas), so the recursive
 * functions over pm_type trees (free, clone, equality, format, casts, Arrow, batches) never
 * see one; the bounds on nested values (JSON input, Avro schemas, Parquet levels) derive
 * from it.  A file's root row (ORC's root struct) is the table row, one level above its
 * columns. */
#define PM_MAX_NESTING 64

#define PM_MAX_LENGTH                      2147483647 /* Integer.MAX_VALUE: VARCHAR(MAX) = STRING */
#define PM_DECIMAL_MAX_PRECISION           38
#define PM_DECIMAL_MAX_COMPACT_PRECISION   18 /* precision that fits an int64 unscaled value */
#define PM_TIMESTAMP_MAX_COMPACT_PRECISION 3

typedef struct pm_type pm_type;

typedef struct pm_field {
    int32_t id;          /* Paimon field id, unique within the schema (nested rows too) */
    char *name;          /* owned, UTF-8 */
    pm_type *type;       /* owned */
    char *description;   /* owned, or NULL */
    char *default_value; /* owned, or NULL (schema JSON "defaultValue", 1.2+) */
} pm_field;

struct pm_type {
    pm_type_id id;
    bool nullable;
    int32_t length;     /* CHAR, VARCHAR, BINARY, VARBINARY */
    int32_t precision;  /* DECIMAL, TIME, TIMESTAMP, TIMESTAMP_LTZ */
    int32_t scale;      /* DECIMAL */
    pm_type *element;   /* ARRAY, MULTISET: element type; MAP: key type (owned) */
    pm_type *value;     /* MAP: value type (owned) */
    pm_field *fields;   /* ROW: owned array */
    size_t field_count; /* ROW */
};

/* ---- construction ---------------------------------------------------------------------- */

/* A nullable atomic type with Java's default parameters.  NULL on allocation failure. */
pm_type *pm_type_new(pm_type_id id);
void pm_type_free(pm_type *t);
pm_type *pm_type_clone(const pm_type *t);

/* Appends a field (takes ownership of `type`, also on failure); copies the name. */
int pm_type_row_add(pm_type *row, int32_t id, const char *name, pm_type *type);

/* ---- inspection ------------------------------------------------------------------------ */

/* Deep equality including nullability, parameters, field ids and names. */
bool pm_type_equals(const pm_type *a, const pm_type *b);
/* Equality ignoring nullability at the top level only. */
bool pm_type_equals_ignore_nullable(const pm_type *a, const pm_type *b);

static inline bool pm_type_is_string(const pm_type *t)
{
    return t->id == PM_TYPE_CHAR || t->id == PM_TYPE_VARCHAR;
}
static inline bool pm_type_is_binary(const pm_type *t)
{
    return t->id == PM_TYPE_BINARY || t->id == PM_TYPE_VARBINARY;
}
static inline bool pm_type_is_nested(const pm_type *t)
{
    return t->id == PM_TYPE_ARRAY || t->id == PM_TYPE_MAP || t->id == PM_TYPE_MULTISET ||
           t->id == PM_TYPE_ROW;
}
/* DECIMAL p <= 18 and TIMESTAMP p <= 3 fit the 8-byte BinaryRow slot ("compact"). */
bool pm_type_is_compact(const pm_type *t);

/* The field of a ROW type by name (exact match), or NULL. */
const pm_field *pm_type_field_by_name(const pm_type *row, const char *name, size_t *idx);
const pm_field *pm_type_field_by_id(const pm_type *row, int32_t id, size_t *idx);

/* The nesting depth of `t` (see PM_MAX_NESTING): 0 for atomic types, 1 + the deepest child
 * for ARRAY, MAP, MULTISET and ROW (a ROW without fields is 1).  Stops counting past
 * PM_MAX_NESTING + 1, so it is safe on any tree. */
int pm_type_nesting(const pm_type *t);

/* The highest field id in the tree (nested rows included); -1 when there is none. */
int32_t pm_type_highest_field_id(const pm_type *t);

/* Checks that field ids are unique across the tree (Java: "Broken schema, field id %s is
 * duplicated") and names unique within each row. */
PM_MUST_CHECK int pm_type_check_ids(const pm_type *row, paimon_error *err);

/* ---- string forms ---------------------------------------------------------------------- */

/* Parses a type string (see top).  Bad syntax is PAIMON_EINVALID with the position. */
PM_MUST_CHECK int pm_type_parse(const char *text, pm_type **out, paimon_error *err);

/* Appends the type's string form. */
int pm_type_format(const pm_type *t, pm_buf *out);

/* Parses the COLUMNS syntax of `paimon create`: `name TYPE [NOT NULL] [COMMENT 'x'], …`.
 * Names are [A-Za-z_][A-Za-z0-9_]* or back-quoted (`` `a b` ``, doubled `` ` `` escapes).
 * Field ids are assigned as Java assigns them at table creation (metadata.md §3.4): each
 * top-level column takes the next id, then its nested ROW fields are numbered, a child's
 * nested fields before the child.  Returns a ROW type. */
PM_MUST_CHECK int pm_columns_parse(const char *text, pm_type **out, paimon_error *err);

#endif /* PM_DATA_TYPES_H */
