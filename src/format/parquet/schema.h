/*
 * The Parquet schema as a tree, its Paimon types, and read plans.
 *
 * Tree: the flat, depth-first SchemaElement list of the footer becomes nodes with parents,
 * children, and the Dremel levels of each node: def(N) counts the non-REQUIRED nodes on the
 * path from the root to N (inclusive), rep(N) the REPEATED ones.  A leaf's max levels are
 * its own def and rep.  Levels are limited to PQ_MAX_LEVEL so they fit a byte, and the
 * Paimon types of the nodes to PM_MAX_NESTING (PAIMON_ECORRUPT beyond either).
 *
 * Types: pm_pq_node_type() maps a node to the Paimon type Java Paimon reads it as
 * (shared/spec/canonical-rows.md, "A single data file"; ParquetSchemaConverter):
 *   INT32: DATE, TIME(MILLIS) -> TIME(3), DECIMAL(p,s), INT(8/16) -> TINYINT/SMALLINT,
 *          UINT(8/16/32) -> SMALLINT/INT/BIGINT, otherwise INT
 *   INT64: TIMESTAMP(MILLIS/MICROS/NANOS) -> TIMESTAMP(3/6/9) (WITH LOCAL TIME ZONE when
 *          isAdjustedToUTC), TIME(MICROS/NANOS) -> TIME(6/9), DECIMAL, UINT(64) ->
 *          DECIMAL(20, 0), otherwise BIGINT
 *   INT96 -> TIMESTAMP(9); FLOAT, DOUBLE, BOOLEAN as named
 *   BYTE_ARRAY: STRING/ENUM/JSON -> STRING, DECIMAL, otherwise BYTES
 *   FIXED_LEN_BYTE_ARRAY: DECIMAL, UUID -> STRING (as text), FLOAT16 -> FLOAT, otherwise BYTES
 *   groups: LIST -> ARRAY (3-level lists and the legacy 2-level forms of LogicalTypes.md's
 *           backward-compatibility rules), MAP / MAP_KEY_VALUE -> MAP, other groups -> ROW,
 *           a REPEATED field outside a LIST/MAP group -> ARRAY<T NOT NULL> NOT NULL
 * REQUIRED nodes are NOT NULL; field ids come from the nodes' field_id (-1 without).
 *
 * Plans: pm_pq_plan_build() matches a requested ROW type against the file -- top-level and
 * nested ROW fields by field id when the file has ids, otherwise by name -- and records for
 * every requested column the Parquet node, the leaf columns to read, the value conversion
 * from the physical type to the batch layout, and the level thresholds the assembler needs:
 *   slot_rep, slot_def   a level entry (d, r) starts a slot of this column when
 *                        r <= slot_rep and d >= slot_def
 *   present_def          the slot holds a value (is not null) when d >= present_def
 *   elem_rep, elem_def   ARRAY/MAP: the thresholds of the element slots
 */
#ifndef PM_FORMAT_PARQUET_SCHEMA_H
#define PM_FORMAT_PARQUET_SCHEMA_H

#include "data/types.h"
#include "format/parquet/meta.h"
#include "util/error.h"

/* The highest definition level: a Paimon type of PM_MAX_NESTING levels takes at most two
 * per level (an optional LIST or MAP group and its repeated child) and one for its leaf;
 * deeper files are refused (a byte still holds every level). */
#define PQ_MAX_LEVEL (2 * PM_MAX_NESTING + 1)

typedef struct pq_node {
    const pq_schema_elem *elem; /* borrowed from the file metadata */
    int parent;                 /* node index, -1 for the root */
    int *children;              /* node indices (arena) */
    int child_count;
    int def, rep; /* levels at this node */
    int leaf;     /* leaf index, -1 for groups */
} pq_node;

typedef struct pq_leaf {
    int node; /* node index */
    int type; /* physical type */
    int32_t type_length;
    int max_def, max_rep;
} pq_leaf;

typedef struct pq_schema {
    pq_node *nodes; /* nodes[0] is the root */
    int node_count;
    pq_leaf *leaves; /* in column-chunk order */
    int leaf_count;
    bool has_ids; /* some top-level field carries a field_id */
} pq_schema;

/* Builds the tree; PAIMON_ECORRUPT (naming `path`) for a malformed element list. */
PM_MUST_CHECK int pm_pq_schema_build(const pq_file_meta *m, pm_arena *a, pq_schema *out,
                                     const char *path, paimon_error *err);

/* The Paimon type of node `n` (see above).  PAIMON_EUNSUPPORTED for annotations without a
 * Paimon type (INTERVAL, a MAP without values, ...).  Caller owns `*out`. */
PM_MUST_CHECK int pm_pq_node_type(const pq_schema *s, int n, pm_type **out, paimon_error *err);

/* The whole file as a ROW type (the root's fields). */
PM_MUST_CHECK int pm_pq_file_type(const pq_schema *s, pm_type **out, const char *path,
                                  paimon_error *err);

/* ---- plans ----------------------------------------------------------------------------- */

/* Value conversions from a physical type to a batch layout. */
typedef enum pq_conv {
    PQ_CONV_NONE,      /* same bytes: INT32->4, INT64->8, FLOAT, DOUBLE, BOOLEAN, byte arrays */
    PQ_CONV_I32_I8,    /* INT32 -> TINYINT */
    PQ_CONV_I32_I16,   /* INT32 -> SMALLINT (and UINT_8) */
    PQ_CONV_U8_I16,    /* UINT_8 -> SMALLINT */
    PQ_CONV_U16_I32,   /* UINT_16 -> INT */
    PQ_CONV_I32_I64,   /* INT32 -> BIGINT */
    PQ_CONV_U32_I64,   /* UINT_32 -> BIGINT */
    PQ_CONV_I32_DEC,   /* INT32 DECIMAL -> decimal128 */
    PQ_CONV_I64_DEC,   /* INT64 DECIMAL -> decimal128 */
    PQ_CONV_U64_DEC,   /* UINT_64 -> DECIMAL(20, 0) */
    PQ_CONV_BIN_DEC,   /* FLBA / BYTE_ARRAY big-endian two's complement -> decimal128 */
    PQ_CONV_I96_TS,    /* INT96 (nanos of day, Julian day) -> timestamp in the target unit */
    PQ_CONV_I64_SCALE, /* INT64 -> INT64 times `mul` divided (floor) by `div` */
    PQ_CONV_I32_SCALE, /* INT32 -> INT64 times `mul` (TIME millis -> time64) */
    PQ_CONV_I64_I32,   /* INT64 -> INT32 divided (floor) by `div` (TIME micros -> millis) */
    PQ_CONV_UUID_STR,  /* FLBA(16) -> the 36-character text form */
    PQ_CONV_F16_F32    /* FLBA(2) half float -> FLOAT */
} pq_conv;

typedef enum pq_plan_kind {
    PQ_PLAN_LEAF,   /* a primitive column */
    PQ_PLAN_STRUCT, /* ROW */
    PQ_PLAN_LIST,   /* ARRAY */
    PQ_PLAN_MAP,    /* MAP or MULTISET */
    PQ_PLAN_MISSING /* not in the file: every slot null */
} pq_plan_kind;

typedef struct pq_plan pq_plan;
struct pq_plan {
    pq_plan_kind kind;
    const pm_type *type; /* requested type (borrowed) */
    int node;            /* Parquet node (-1 when missing) */
    int leaf;            /* LEAF: leaf index */
    int rep_leaf;        /* a leaf under this column whose levels give its structure */
    int slot_rep, slot_def, present_def;
    int elem_rep, elem_def; /* LIST, MAP */
    pq_conv conv;           /* LEAF */
    int64_t mul, div;       /* LEAF: scale factors of the SCALE conversions */
    pq_plan *children;      /* STRUCT: per field; LIST: 1; MAP: 2 (arena) */
    int child_count;
};

/* Plans `want` (a ROW type) against the file.  Fields not in the file become MISSING plans
 * when nullable, PAIMON_ENOTFOUND otherwise; a field whose file type cannot be converted
 * to the requested type is PAIMON_EINVALID naming it.  Plans live in the arena. */
PM_MUST_CHECK int pm_pq_plan_build(const pq_schema *s, const pm_type *want, pm_arena *a,
                                   pq_plan **out, const char *path, paimon_error *err);

/* A LEAF plan reading leaf `leaf` as its own scalar type (*type, caller owns it), for
 * leaves read only for the structure of their parents. */
PM_MUST_CHECK int pm_pq_leaf_value_plan(const pq_schema *s, int leaf, pq_plan *p, pm_type **type,
                                        const char *path, paimon_error *err);

/* Whether a top-level field of the file matches `f` (by id when the file has ids). */
int pm_pq_find_field(const pq_schema *s, int parent, const pm_field *f);

#endif /* PM_FORMAT_PARQUET_SCHEMA_H */
