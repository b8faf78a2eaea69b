/*
 * A local lookup file: the keys of one data file mapped to what a lookup returns (Java's
 * LookupFile over a LookupStoreWriter/Reader).  Built by paimon-c, read only by paimon-c,
 * deleted when evicted: the format is private and never shared with Java (Java 1.4.2 uses
 * its SortLookupStore here; the semantics -- which bytes come back for which key -- are
 * the same).
 *
 *   OFFSET        SIZE          DESCRIPTION (all integers little-endian)
 *   0             8             magic "PMLKUP01"
 *   8             8             record count
 *   16            8             slot count: a power of two
 *   24            8             offset of the slot table
 *   32            8             offset of the bloom filter payload, 0 when there is none
 *   40            8             length of the bloom filter payload
 *   48            ...           records, in the order added: u32 key length, u32 value
 *                               length, key bytes, value bytes
 *   slot table    16 * slots    open addressing with linear probing: u64 key hash
 *                               (XXH64, seed 0), u64 record offset (0: empty slot)
 *   bloom         ...           format/file_index.h bloom payload over the key hashes
 *
 * A key is found by byte equality: keys are BinaryRows of the key columns, whose bytes are
 * equal exactly when the keys are (the writer and the reader build them the same way).
 * Keys are unique within a data file of a primary-key table; if one repeats, the first
 * record added wins.
 *
 * Bytes on disk are still checked (the file could be damaged under us): every offset and
 * length is bounds-checked and a bad one is PAIMON_ECORRUPT naming the file.
 */
#ifndef PM_LSM_LOOKUP_FILE_H
#define PM_LSM_LOOKUP_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lsm/lookup_cache.h"
#include "util/error.h"

typedef struct pm_lookup_file_writer pm_lookup_file_writer;
typedef struct pm_lookup_file pm_lookup_file;

/* Creates `path` (which must not exist) for about `expected` records; with `bloom_fpp` > 0
 * a bloom filter at that false-positive rate; `load_factor` is the slot table's fill
 * (lookup.hash-load-factor).  Borrows `path` until freed.  Caller owns `*out`. */
PM_MUST_CHECK int pm_lookup_file_writer_open(pm_lookup_file_writer **out, const char *path,
                                             int64_t expected, double bloom_fpp, double load_factor,
                                             paimon_error *err);
PM_MUST_CHECK int pm_lookup_file_writer_add(pm_lookup_file_writer *w, const uint8_t *key,
                                            size_t key_len, const uint8_t *value, size_t value_len,
                                            paimon_error *err);
/* Writes the slot table, the bloom filter and the header, and closes the file. */
PM_MUST_CHECK int pm_lookup_file_writer_finish(pm_lookup_file_writer *w, paimon_error *err);
/* Releases the writer; an unfinished file is removed. */
void pm_lookup_file_writer_free(pm_lookup_file_writer *w);

/* Opens a finished file; its pages are read through `cache` (borrowed until closed) under
 * `file_id`, unique among the cache's files.  Caller owns `*out`. */
PM_MUST_CHECK int pm_lookup_file_open(pm_lookup_file **out, const char *path,
                                      pm_lookup_cache *cache, uint64_t file_id, paimon_error *err);

/* Looks `key` up.  On a hit *found is true and *value / *value_len hold the value (borrowed;
 * valid until the next get or close). */
PM_MUST_CHECK int pm_lookup_file_get(pm_lookup_file *f, const uint8_t *key, size_t key_len,
                                     bool *found, const uint8_t **value, size_t *value_len,
                                     paimon_error *err);

/* The file's size in bytes, and the gets the bloom filter answered alone. */
int64_t pm_lookup_file_size(const pm_lookup_file *f);
int64_t pm_lookup_file_bloom_skips(const pm_lookup_file *f);

/* Closes the file and drops its cached pages; with `remove`, also deletes it.  NULL is
 * allowed. */
void pm_lookup_file_close(pm_lookup_file *f, bool remove);

#endif /* PM_LSM_LOOKUP_FILE_H */
