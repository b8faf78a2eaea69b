/*
 * paimon-c: the Arrow C Data Interface and C Stream Interface structs.
 *
 * Columnar data crosses the paimon-c API as these structs, declared exactly as the Arrow
 * specification defines them (https://arrow.apache.org/docs/format/CDataInterface.html and
 * CStreamInterface.html) and guarded by the standard macros, so this header coexists with
 * arrow/c/abi.h, nanoarrow.h or DuckDB's copy of the same declarations.  paimon-c does not
 * link any Arrow library.
 *
 * How paimon-c maps its types to Arrow formats is described in src/data/batch.h and
 * docs/format/parquet.md: BOOLEAN b, TINYINT c, SMALLINT s, INT i, BIGINT l, FLOAT f,
 * DOUBLE g, DECIMAL(p, s) d:p,s (decimal128), CHAR/VARCHAR u, BINARY/VARBINARY z, DATE tdD,
 * TIME(p) ttm/ttu/ttn, TIMESTAMP(p) tss:/tsm:/tsu:/tsn: by precision (WITH LOCAL TIME ZONE
 * adds the time zone "UTC"), ARRAY +l, MAP and MULTISET +m, ROW +s.  A batch is a +s array
 * whose children are the columns.
 *
 * Ownership follows the Arrow specification: whoever receives a struct with a non-NULL
 * `release` owns it and must call release() exactly once; paimon-c's arrays own their
 * buffers, and every child array may be moved out and released on its own.
 */
#ifndef PAIMON_ARROW_H
#define PAIMON_ARROW_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* clang-format off: the declarations below are the Arrow specification's text. */
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE           2
#define ARROW_FLAG_MAP_KEYS_SORTED    4

struct ArrowSchema {
    /* Array type description */
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;

    /* Release callback */
    void (*release)(struct ArrowSchema *);
    /* Opaque producer-specific data */
    void *private_data;
};

struct ArrowArray {
    /* Array data description */
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;

    /* Release callback */
    void (*release)(struct ArrowArray *);
    /* Opaque producer-specific data */
    void *private_data;
};

#endif /* ARROW_C_DATA_INTERFACE */

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
    /* Callbacks providing stream functionality */
    int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
    int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
    const char *(*get_last_error)(struct ArrowArrayStream *);

    /* Release callback */
    void (*release)(struct ArrowArrayStream *);

    /* Opaque producer-specific data */
    void *private_data;
};

#endif /* ARROW_C_STREAM_INTERFACE */
/* clang-format on */

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_ARROW_H */
