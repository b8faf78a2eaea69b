/*
 * Schema-resolved Avro records decoded straight into C structs, and encoded from them.
 *
 * A record type the library reads or writes (a manifest entry, a manifest-list entry, an
 * index-manifest entry, ...) is described once by a pm_avro_rdesc: its Avro record name and
 * fields, each with its Avro type, nullability and where it lives in the C struct.  That one
 * table gives three things:
 *   - the writer schema JSON, exactly as Java's AvroSchemaConverter prints it (record names
 *     "record", "record__FILE", ...; nullable fields as ["null", T] with default null);
 *   - an encoder (struct -> Avro binary);
 *   - a decoder for files written with *any* schema: pm_avro_plan_compile() resolves the
 *     file's writer schema against the descriptor by field name, as Java does (unknown
 *     writer fields are skipped, reader fields the writer lacks read as null, int widens to
 *     long, ["null", T] unions are accepted where a bare T is declared — at any level,
 *     including the top, as pre-0.9 Paimon wrote them).  The compiled plan is a flat list
 *     of ops, so decoding a record costs one switch per field and no allocation except for
 *     strings and arrays (from the caller's arena).
 *
 * C representation by field type:
 *   PM_AF_INT        int32_t
 *   PM_AF_LONG       int64_t
 *   PM_AF_TS_MILLIS  int64_t (Avro long with logicalType timestamp-millis)
 *   PM_AF_STRING     const char * (NUL-terminated copy in the arena; NULL when null)
 *   PM_AF_BYTES      pm_avro_bytes (view into the decoded block, which the arena keeps
 *                    alive; ptr NULL when null)
 *   PM_AF_RECORD     the nested struct, embedded at the offset
 *   PM_AF_ARRAY      pm_avro_array; items of item_type in the arena
 * A nullable INT/LONG/TS_MILLIS/RECORD/ARRAY has a `bool` presence flag at present_offset
 * (arrays use pm_avro_array.present).  Nullable long array items use PM_AVRO_NULL_LONG.
 */
#ifndef PM_FORMAT_AVRO_RECORD_H
#define PM_FORMAT_AVRO_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/avro/avro_container.h"
#include "format/avro/avro_io.h"
#include "format/avro/avro_schema.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/error.h"

#define PM_AVRO_NAMESPACE "org.apache.paimon.avro.generated"
#define PM_AVRO_NULL_LONG INT64_MIN /* a null item of an array<["null","long"]> */

typedef enum pm_avro_ftype {
    PM_AF_INT,
    PM_AF_LONG,
    PM_AF_TS_MILLIS,
    PM_AF_STRING,
    PM_AF_BYTES,
    PM_AF_RECORD,
    PM_AF_ARRAY
} pm_avro_ftype;

typedef struct pm_avro_bytes {
    const uint8_t *ptr; /* NULL when null */
    size_t len;
} pm_avro_bytes;

/* Unsigned lexicographic order of two byte strings, a proper prefix first (the order of
 * serialized BinaryRows that groups entries by partition); <0, 0 or >0. */
int pm_avro_bytes_cmp(const pm_avro_bytes *a, const pm_avro_bytes *b);

typedef struct pm_avro_array {
    void *items; /* item_type values: int32_t, int64_t, const char *, or record structs */
    size_t count;
    bool present; /* false when a nullable array is null */
} pm_avro_array;

typedef struct pm_avro_rdesc pm_avro_rdesc;

typedef struct pm_avro_fdesc {
    const char *name;
    pm_avro_ftype type;
    bool nullable;               /* ["null", T] with "default": null */
    size_t offset;               /* of the value in the C struct */
    long present_offset;         /* of the bool presence flag, or -1 */
    const pm_avro_rdesc *record; /* PM_AF_RECORD, or items of a record array */
    pm_avro_ftype item_type;     /* PM_AF_ARRAY */
    bool item_nullable;          /* PM_AF_ARRAY: items are ["null", T] */
} pm_avro_fdesc;

struct pm_avro_rdesc {
    const char *name; /* Avro record name, e.g. "record__FILE" */
    size_t size;      /* sizeof the C struct */
    size_t field_count;
    const pm_avro_fdesc *fields;
};

/* Appends the compact writer-schema JSON of `rd` as the top-level record (with namespace). */
int pm_avro_schema_json(const pm_avro_rdesc *rd, pm_buf *out);

/* Appends the binary encoding of the struct at `src`.  Returns a pm_buf code. */
int pm_avro_encode(const pm_avro_rdesc *rd, const void *src, pm_buf *out);

typedef struct pm_avro_plan pm_avro_plan;

/* Resolves `writer` (a file's schema) against `rd`.  The plan is allocated in `arena`.
 * Incompatible types, or a NOT NULL field the writer lacks, are PAIMON_ECORRUPT. */
PM_MUST_CHECK int pm_avro_plan_compile(const pm_avro_schema *writer, const pm_avro_rdesc *rd,
                                       pm_arena *arena, const char *what, pm_avro_plan **out,
                                       paimon_error *err);

/* Decodes one record at the cursor into `target` (zeroed first); strings and arrays are
 * allocated in `arena`. */
PM_MUST_CHECK int pm_avro_decode(const pm_avro_plan *plan, pm_avro_cursor *c, void *target,
                                 pm_arena *arena, const char *what, paimon_error *err);

/* Skips one value of type `s` (any schema). */
bool pm_avro_skip_value(const pm_avro_schema *s, pm_avro_cursor *c, int depth);

/* ---- whole files ----------------------------------------------------------------------- */

/* Iterates the records of a container file held in memory, in one of two modes:
 *   retain:    decoded BYTES point into block buffers handed to `arena`, and strings and
 *              arrays are allocated there: every record stays valid as long as the arena;
 *   streaming: one block buffer is reused and `arena` is reset before each record, so a
 *              record is valid until the next call and memory stays flat whatever the
 *              file's size. */
typedef struct pm_avro_file_reader {
    pm_avro_reader file;
    pm_avro_plan *plan;
    pm_arena *arena;
    bool retain;
    pm_buf block; /* streaming: the reused block buffer */
    pm_avro_cursor cursor;
    int64_t remaining;            /* records left in the current block */
    size_t block_off;             /* file offset of the current block */
    struct pm_avro_skipper *skip; /* filtered reads: skips a rejected record's rest */
    size_t skip_from;             /* filtered reads: the op the record's rest starts at */
} pm_avro_file_reader;

PM_MUST_CHECK int pm_avro_file_open(pm_avro_file_reader *r, const uint8_t *data, size_t len,
                                    const char *what, const pm_avro_rdesc *rd, pm_arena *arena,
                                    bool retain, paimon_error *err);
/* Decodes the next record into `target`; PAIMON_ITEROVER at the end. */
PM_MUST_CHECK int pm_avro_file_next(pm_avro_file_reader *r, void *target, paimon_error *err);
/* Reads records but decodes only those a filter accepts: the fields before `stop_field`
 * (in the file's order) are decoded first and `accept` sees the record with only those set;
 * a rejected record's other fields are skipped without decoding.  Planning uses it to drop
 * manifest entries of other partitions and buckets before their file metadata is decoded. */
typedef struct pm_avro_prefilter {
    const char *stop_field; /* the first field decoded only for accepted records */
    bool (*accept)(void *ctx, const void *record);
    void *ctx;
} pm_avro_prefilter;

/* As pm_avro_file_next, for the next record `f` accepts. */
PM_MUST_CHECK int pm_avro_file_next_filtered(pm_avro_file_reader *r, void *target,
                                             const pm_avro_prefilter *f, paimon_error *err);

void pm_avro_file_close(pm_avro_file_reader *r);

#endif /* PM_FORMAT_AVRO_RECORD_H */
