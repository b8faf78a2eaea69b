/*
 * Manifests stored as ORC (metadata.md §9A; tables with manifest.format=orc): manifest
 * lists, manifests and index manifests read into, and written from, the same C structs as
 * their Avro form (manifest.h), driven by the same record descriptors (pm_avro_rdesc).
 *
 * Reading matches ORC STRUCT fields to descriptor fields *by name* at every level, as
 * Java's ORC SchemaEvolution does: fields the file lacks read as null (a NOT NULL one is
 * corrupt), fields the descriptor does not know are not read at all, column numbers and
 * `paimon.id` attributes play no part (0.9/1.0 files have none).  ORC kinds map onto the
 * descriptor types:
 *
 *   descriptor        ORC kinds accepted
 *   PM_AF_INT         tinyint, smallint, int       (_KIND and _FILE_SOURCE are tinyint)
 *   PM_AF_LONG        tinyint, smallint, int, bigint
 *   PM_AF_TS_MILLIS   timestamp (the writer's wall clock, the same LocalDateTime the Avro
 *                     field holds), timestamp with local time zone
 *   PM_AF_STRING      string, varchar, char, binary
 *   PM_AF_BYTES       binary, string, varchar, char
 *   PM_AF_RECORD      struct
 *   PM_AF_ARRAY       array of the item kind
 *
 * Writing produces the layout of Java 1.4.2's ORC manifests: the type tree of
 * OrcTypeUtil.convertToOrcSchema with `paimon.id` attributes (top-level `_VERSION` -1, the
 * other fields numbered from 0 at each level, list elements 536870911 + id * 1024 + 1),
 * ORC's stripe and index layout, and `_CREATION_TIME` as wall-clock seconds with writer
 * time zone "UTC", which Java reads back as the same LocalDateTime.
 */
#ifndef PM_META_MANIFEST_ORC_H
#define PM_META_MANIFEST_ORC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/avro/avro_record.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/error.h"

#define PM_ORC_MAGIC "ORC"

typedef struct pm_manifest_orc_reader pm_manifest_orc_reader;

/* Opens an in-memory ORC manifest of records described by `rd`.  `data` and `what` are
 * borrowed until close.  With `retain` the records stay valid as long as `arena`;
 * otherwise `arena` is reset before each record (flat memory).  Caller owns `*out`;
 * release with pm_manifest_orc_reader_close(). */
PM_MUST_CHECK int pm_manifest_orc_reader_open(pm_manifest_orc_reader **out, const uint8_t *data,
                                              size_t len, const char *what, const pm_avro_rdesc *rd,
                                              pm_arena *arena, bool retain, paimon_error *err);
/* Decodes the next record into `record` (an rd->size struct); PAIMON_ITEROVER at the end. */
PM_MUST_CHECK int pm_manifest_orc_reader_next(pm_manifest_orc_reader *r, void *record,
                                              paimon_error *err);
void pm_manifest_orc_reader_close(pm_manifest_orc_reader *r);

/* Encodes `count` records as an ORC file appended to `out`.  `compression` is the Paimon
 * option value ("zstd", "snappy", "lz4", "zlib", "none"; NULL = zstd), `level` the zstd
 * level (0 = 1). */
PM_MUST_CHECK int pm_manifest_orc_encode(const pm_avro_rdesc *rd, const void *records, size_t count,
                                         const char *compression, int level, pm_buf *out,
                                         paimon_error *err);

#endif /* PM_META_MANIFEST_ORC_H */
