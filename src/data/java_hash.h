/*
 * Java's hashCode() and equals() of the objects Java Paimon holds for values in its merge
 * functions (Integer, Long, BinaryString, Decimal, Timestamp, byte[], ...), so results that
 * Java builds in a HashMap or HashSet come out in the same order (util/java_hashmap.h) and
 * with the same duplicates.
 *
 *   BOOLEAN                  Boolean: 1231 true, 1237 false
 *   TINYINT..INT, DATE, TIME Byte/Short/Integer: the value
 *   BIGINT                   Long: (int) (v ^ v >>> 32)
 *   FLOAT, DOUBLE            Float/Double: of the IEEE bits (NaN canonical); equals by bits
 *   DECIMAL                  BigDecimal: 31 * BigInteger.hashCode(unscaled) + scale
 *   CHAR, VARCHAR            BinaryString: MurmurHash (pm_murmur3_bytes_java, seed 42)
 *   BINARY, VARBINARY        byte[]: identity -- equal only to itself, never to another
 *                            value; the hash is a function of the bytes (any value is right)
 *   TIMESTAMP(_LTZ)          Timestamp: 31 * ((int) ms ^ (int) (ms >> 32)) + nanoOfMilli
 *   ROW, ARRAY, MAP          by value (their Java classes disagree with each other; keys of
 *                            these types are not used by Paimon's functions in practice)
 * A null hashes to 0.
 */
#ifndef PM_DATA_JAVA_HASH_H
#define PM_DATA_JAVA_HASH_H

#include <stdbool.h>
#include <stdint.h>

#include "data/batch.h"

/* hashCode() of value `i` of `c`. */
int32_t pm_java_hash_code(const pm_column *c, int64_t i);

/* a.equals(b) for value `i` of `a` and value `j` of `b` (columns of the same type); two
 * nulls are equal. */
bool pm_java_equals(const pm_column *a, int64_t i, const pm_column *b, int64_t j);

/* Equality by value, as Paimon's generated RecordEqualiser compares fields: binaries by
 * their bytes, floats with ==, nested values element by element. */
bool pm_value_equals(const pm_column *a, int64_t i, const pm_column *b, int64_t j);

#endif /* PM_DATA_JAVA_HASH_H */
