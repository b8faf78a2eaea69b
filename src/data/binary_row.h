/*
 * BinaryRow: Paimon's fixed-layout row (metadata.md §10), used for partitions, keys,
 * statistics bounds and bucket hashing.  Its bytes are hashed and compared, so they must
 * match Java's exactly.
 *
 *   OFFSET        SIZE       DESCRIPTION
 *   0             W          header: byte 0 = RowKind, then one null bit per field
 *                            (bit i+8); W = ((arity + 63 + 8) / 64) * 8
 *   W + 8*i       8          slot of field i (little-endian): the value, or for var-length
 *                            data (offset << 32 | length), or inline bytes (length <= 7,
 *                            byte 7 = 0x80 | length)
 *   W + 8*arity   ...        variable part: each piece starts 8-aligned, zero-padded
 *
 * Quirks kept (metadata.md §10.2): INT slots are zero-extended, not sign-extended; DECIMAL
 * with precision > 18 always reserves 16 bytes; TIMESTAMP with precision > 3 keeps millis in
 * an 8-byte var part and nanos in the slot; a null non-compact DECIMAL/TIMESTAMP still
 * reserves its var bytes with slot = offset << 32.
 *
 * Serialized form inside manifests: a big-endian int32 arity, then the row bytes.
 *
 * BinaryArray (nested ARRAY values): [int32 count][null bits, (count+31)/32*4 bytes]
 * [count * element size][pad to 8][var part]; BinaryMap: [int32 key-array bytes][keys][values].
 */
#ifndef PM_DATA_BINARY_ROW_H
#define PM_DATA_BINARY_ROW_H

#include <stddef.h>
#include <stdint.h>

#include "data/datum.h"
#include "data/types.h"
#include "util/buf.h"
#include "util/error.h"

/* A read-only view of row bytes (borrowed). */
typedef struct pm_binrow {
    const uint8_t *data; /* first header byte */
    size_t len;          /* total row bytes */
    int32_t arity;       /* number of fields */
} pm_binrow;

static inline size_t pm_binrow_header_size(int32_t arity)
{
    return (size_t)((arity + 63 + 8) / 64) * 8;
}
static inline size_t pm_binrow_fixed_size(int32_t arity)
{
    return pm_binrow_header_size(arity) + 8 * (size_t)arity;
}

/* ---- writing --------------------------------------------------------------------------- */

/* Appends the row bytes for `arity` values of `types` (RowKind in byte 0).  Nested values
 * (ARRAY, MAP, MULTISET, ROW) are given as their encoded bytes in datum.v.s. */
int pm_binrow_write(pm_buf *out, const pm_type *const *types, const pm_datum *values, int32_t arity,
                    uint8_t row_kind);

/* Appends the manifest serialization: BE arity, then the row. */
int pm_binrow_serialize(pm_buf *out, const pm_type *const *types, const pm_datum *values,
                        int32_t arity);

/* ---- reading --------------------------------------------------------------------------- */

/* Views `len` bytes as a row of `arity` fields; checks the fixed part fits. */
PM_MUST_CHECK int pm_binrow_view(pm_binrow *row, const uint8_t *data, size_t len, int32_t arity,
                                 paimon_error *err);

/* Views a manifest-serialized row (BE arity prefix). */
PM_MUST_CHECK int pm_binrow_deserialize(pm_binrow *row, const uint8_t *data, size_t len,
                                        paimon_error *err);

/* Decodes a manifest-serialized key (a data file's min or max key) of `count` fields of
 * `types` into out[0..count).  Strings and binaries point into `data`.  PAIMON_ECORRUPT
 * when the arity is not `count` or a field does not decode. */
PM_MUST_CHECK int pm_binrow_decode_key(const uint8_t *data, size_t len, const pm_type *const *types,
                                       size_t count, pm_datum *out, paimon_error *err);

static inline bool pm_binrow_is_null(const pm_binrow *row, int32_t idx)
{
    int32_t bit = idx + 8;
    return (row->data[bit / 8] >> (bit % 8)) & 1;
}

static inline uint8_t pm_binrow_kind(const pm_binrow *row)
{
    return row->data[0];
}

/* Reads field `idx` as `type`.  Var-length references are bounds-checked against the row:
 * a reference outside it is PAIMON_ECORRUPT. */
PM_MUST_CHECK int pm_binrow_get(const pm_binrow *row, int32_t idx, const pm_type *type,
                                pm_datum *out, paimon_error *err);

/* ---- nested values --------------------------------------------------------------------- */

typedef struct pm_binarray {
    const uint8_t *data;
    size_t len;
    int32_t count;
} pm_binarray;

PM_MUST_CHECK int pm_binarray_view(pm_binarray *arr, const uint8_t *data, size_t len,
                                   paimon_error *err);
bool pm_binarray_is_null(const pm_binarray *arr, int32_t idx);
PM_MUST_CHECK int pm_binarray_get(const pm_binarray *arr, int32_t idx, const pm_type *elem,
                                  pm_datum *out, paimon_error *err);
/* Splits BinaryMap bytes into its key and value arrays. */
PM_MUST_CHECK int pm_binmap_view(pm_binarray *keys, pm_binarray *values, const uint8_t *data,
                                 size_t len, paimon_error *err);

/* Appends a BinaryArray of `count` values of `elem`. */
int pm_binarray_write(pm_buf *out, const pm_type *elem, const pm_datum *values, int32_t count);

/* ---- hashing --------------------------------------------------------------------------- */

/* BinaryRow.hashCode(): MurmurHash3 over the row bytes with seed 42. */
int32_t pm_binrow_hash(const uint8_t *row, size_t len);

/* Java's Math.abs(hash % numBuckets) (DefaultBucketFunction). */
static inline int32_t pm_bucket_of_hash(int32_t hash, int32_t num_buckets)
{
    int32_t m = hash % num_buckets;
    return m < 0 ? -m : m;
}

#endif /* PM_DATA_BINARY_ROW_H */
