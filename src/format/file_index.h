/*
 * Data-file indexes (behaviour.md §9, metadata.md §9.6): Java's FileIndexFormat container
 * and the bloom filter index (BloomFilterFileIndex over BloomFilter64 and FastHash).
 *
 * Container, version 1, all integers big-endian:
 *
 *   OFFSET  SIZE  DESCRIPTION
 *   0       8     magic 1493475289347502
 *   8       4     version 1
 *   12      4     head length H (everything up to the end of the redundant block)
 *   16      4     column count
 *   20      ...   per column: name (Java writeUTF: u16 length + modified UTF-8), index
 *                 count, then per index: type name (writeUTF), start (absolute: H + offset
 *                 in the body; -1 for an empty index), length
 *   H - 4   4     redundant length 0
 *   H       ...   body: the index payloads in head order
 *
 * Bloom filter payload: int32 number of hash functions k, then the bit array (bit i in
 * byte i >> 3, mask 1 << (i & 7)).  From `items` and `fpp`: nb = (int)(-items * ln(fpp) /
 * ln(2)^2), numBits = nb + (8 - nb % 8), k = max(1, round(numBits / items * ln(2))).  A
 * 64-bit hash h sets bits c % numBits for c = (int)h + i * (int)(h >>> 32), i = 1..k, with
 * c = ~c when negative.  Hashes (FastHash): XXH64 (seed 0) of the bytes of strings and
 * binaries; Thomas Wang's 64-bit mix of the value sign-extended for TINYINT..BIGINT, DATE,
 * TIME, of Float.floatToIntBits / Double.doubleToLongBits, of epoch millis (TIMESTAMP p <= 3)
 * or micros.  BOOLEAN, DECIMAL and nested types have no bloom filter.  Nulls are not added;
 * testing a null answers "may contain".
 */
#ifndef PM_FORMAT_FILE_INDEX_H
#define PM_FORMAT_FILE_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/datum.h"
#include "data/types.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/error.h"

#define PM_FILE_INDEX_MAGIC   1493475289347502LL
#define PM_FILE_INDEX_VERSION 1

/* ---- bloom filter ---------------------------------------------------------------------- */

typedef struct pm_bloom {
    int32_t num_hashes;
    int32_t num_bits;
    uint8_t *bits; /* num_bits / 8 bytes */
    bool owned;    /* bits allocated here (writers) */
} pm_bloom;

/* A new, empty filter for `items` values at false-positive rate `fpp`.  0,
 * PAIMON_EINVALID (bad parameters) or PAIMON_ENOMEM. */
int pm_bloom_init(pm_bloom *b, int64_t items, double fpp);
/* A filter over a serialized payload (borrowed); PAIMON_ECORRUPT when malformed. */
PM_MUST_CHECK int pm_bloom_view(pm_bloom *b, const uint8_t *payload, size_t len, paimon_error *err);
void pm_bloom_free(pm_bloom *b);

void pm_bloom_add(pm_bloom *b, uint64_t hash);
bool pm_bloom_test(const pm_bloom *b, uint64_t hash);
/* Appends the payload (k, then the bits). */
int pm_bloom_serialize(const pm_bloom *b, pm_buf *out);

/* Whether Java's FastHash has a function for the type. */
bool pm_bloom_supports(const pm_type *t);
/* The FastHash of a non-null value of type `t` (a datum as batches give them). */
uint64_t pm_bloom_hash(const pm_type *t, const pm_datum *d);

/* ---- container ------------------------------------------------------------------------- */

/* One index of one column. */
typedef struct pm_file_index_item {
    const char *column;
    const char *type;    /* "bloom-filter", ... */
    const uint8_t *data; /* payload; NULL for an empty index */
    size_t len;
} pm_file_index_item;

/* Appends the container of `items`, which are grouped by column in the order to write. */
PM_MUST_CHECK int pm_file_index_serialize(const pm_file_index_item *items, size_t count,
                                          pm_buf *out, paimon_error *err);

/* Parses a container (bytes borrowed; strings in `arena`).  `what` names it in errors
 * (PAIMON_ECORRUPT with the offset). */
PM_MUST_CHECK int pm_file_index_parse(const uint8_t *data, size_t len, const char *what,
                                      pm_arena *arena, pm_file_index_item **items, size_t *count,
                                      paimon_error *err);

#endif /* PM_FORMAT_FILE_INDEX_H */
