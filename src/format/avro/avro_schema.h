/*
 * Avro schemas (https://avro.apache.org/docs/1.11.1/specification/): the JSON of a container
 * file's "avro.schema", parsed into a tree that decoders walk.
 *
 * Supported: every primitive, record, enum, array, map, union and fixed, named-type
 * references (by full name or by name within the enclosing namespace), logical-type
 * annotations (kept as strings, with decimal precision/scale).  The tree lives in the
 * arena given to pm_avro_schema_parse(); nodes are shared when a named type is referenced
 * again, so the tree is a DAG.
 *
 * Bounds, since the schema comes from a file's header and decoders walk it recursively,
 * once per value: nesting at most PM_AVRO_MAX_DEPTH schema nodes deep; no record that
 * refers to itself (Paimon never writes one and Java's converter cannot read one: a
 * recursive walk over it would never end); and at most PM_AVRO_MAX_NODES nodes when
 * references are expanded (a chain of records each naming the previous one twice would
 * otherwise expand to 2^depth nodes).  Beyond any of them the schema is PAIMON_ECORRUPT.
 */
#ifndef PM_FORMAT_AVRO_SCHEMA_H
#define PM_FORMAT_AVRO_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/types.h"
#include "util/arena.h"
#include "util/error.h"

/* Schema nodes per Paimon nesting level, at most: a nullable MAP with keys other than
 * strings is a union, an array, an entry record and its value field's union. */
#define PM_AVRO_MAX_DEPTH (4 * PM_MAX_NESTING + 4)
#define PM_AVRO_MAX_NODES (1 << 20)

typedef enum pm_avro_kind {
    PM_AVRO_NULL,
    PM_AVRO_BOOLEAN,
    PM_AVRO_INT,
    PM_AVRO_LONG,
    PM_AVRO_FLOAT,
    PM_AVRO_DOUBLE,
    PM_AVRO_BYTES,
    PM_AVRO_STRING,
    PM_AVRO_RECORD,
    PM_AVRO_ENUM,
    PM_AVRO_ARRAY,
    PM_AVRO_MAP,
    PM_AVRO_UNION,
    PM_AVRO_FIXED
} pm_avro_kind;

typedef struct pm_avro_schema pm_avro_schema;

typedef struct pm_avro_field {
    const char *name;
    pm_avro_schema *type;
} pm_avro_field;

struct pm_avro_schema {
    pm_avro_kind kind;
    const char *name;         /* full name of records, enums and fixed; NULL otherwise */
    const char *logical_type; /* "decimal", "date", "timestamp-millis", ...; or NULL */
    int32_t precision, scale; /* decimal */
    size_t size;              /* fixed: byte size; enum: number of symbols */
    pm_avro_field *fields;    /* record */
    size_t field_count;
    pm_avro_schema *items;     /* array items, map values */
    pm_avro_schema **branches; /* union */
    size_t branch_count;
    size_t expanded; /* nodes of this subtree with references expanded, at most
                        PM_AVRO_MAX_NODES + 1 */
    bool open;       /* a record whose fields are being parsed */
};

/* Parses schema JSON (`len` bytes).  Nodes are allocated in `arena`.  Malformed schemas are
 * PAIMON_ECORRUPT naming `what`. */
PM_MUST_CHECK int pm_avro_schema_parse(const char *json, size_t len, pm_arena *arena,
                                       const char *what, pm_avro_schema **out, paimon_error *err);

/* For a two-branch union with a null branch: the other branch and the index of the null
 * branch; NULL when `s` is not such a union. */
const pm_avro_schema *pm_avro_nullable_inner(const pm_avro_schema *s, int *null_branch);

/* The record field named `name`, or NULL. */
const pm_avro_field *pm_avro_record_field(const pm_avro_schema *record, const char *name,
                                          size_t *idx);

#endif /* PM_FORMAT_AVRO_SCHEMA_H */
