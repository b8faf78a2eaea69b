/*
 * Compacted changelog files (Java's CompactedChangelogPathResolver and
 * CompactedChangelogReadOnlyFormat, written by the Flink option precommit-compact, fallback
 * key changelog.precommit-compact; behaviour.md §4.3).
 *
 * At a commit, the small changelog files of one partition (of every bucket) are copied byte
 * for byte, one after the other, into one physical file in the bucket directory of the first
 * of them.  Each original file is then recorded in the manifest, in ITS bucket, under a name
 * that says where its bytes are:
 *
 *   bucket-B1/compacted-changelog-<uuid>$B1-L1.cc-<fmt>           the physical file; read
 *                                                                 bytes [0, L1) of it
 *   bucket-B2/compacted-changelog-<uuid>$B1-L1-OFF-LEN.cc-<fmt>   no such file: read bytes
 *                                                                 [OFF, OFF+LEN) of the
 *                                                                 file above (in bucket-B1)
 *
 * Each piece is a complete data file of the wrapped format <fmt> (parquet, orc, avro), so
 * it is read through a pm_input that shows only its bytes (pm_input_slice).  The real file
 * is found beside the named one: the bucket directory is replaced, the partition directories
 * and everything above are kept (an external path resolves the same way).
 *
 * Names are parsed strictly: what Java writes and nothing else; anything else is
 * PAIMON_ECORRUPT naming the file.  The pieces are decoded by the format readers, which
 * treat every byte as untrusted (and are fuzzed).
 */
#ifndef PM_FORMAT_COMPACTED_CHANGELOG_H
#define PM_FORMAT_COMPACTED_CHANGELOG_H

#include <stdbool.h>
#include <stdint.h>

#include "io/fs.h"
#include "util/buf.h"
#include "util/error.h"

#define PM_COMPACTED_CHANGELOG_PREFIX "compacted-changelog-"

/* A compacted changelog file name, decoded. */
typedef struct pm_compacted_changelog_name {
    size_t stem_len;    /* bytes of "compacted-changelog-<uuid>", the part before '$' */
    int32_t bucket;     /* the bucket whose directory holds the physical file */
    int64_t first_len;  /* bytes of the first piece: the length in the physical file's name */
    bool is_piece;      /* a name with -OFF-LEN: the physical file is elsewhere */
    int64_t off;        /* where the bytes start in the physical file (0 for its own name) */
    int64_t len;        /* how many bytes (first_len for the physical file's own name) */
    const char *format; /* the wrapped format, after ".cc-" (borrowed from the name) */
} pm_compacted_changelog_name;

/* True when the last component of `path` starts with "compacted-changelog-" (Java's
 * isCompactedChangelogPath: such names are always decoded, never read as they are). */
bool pm_compacted_changelog_is(const char *path);

/* Decodes `file_name` (a name, not a path).  PAIMON_ECORRUPT naming it when it is not one
 * of the two shapes above. */
PM_MUST_CHECK int pm_compacted_changelog_parse(const char *file_name,
                                               pm_compacted_changelog_name *out, paimon_error *err);

/* The physical file holding the bytes of `path` (appended to `real`) and their range; for a
 * physical file's own name, `path` itself and [0, first_len). */
PM_MUST_CHECK int pm_compacted_changelog_resolve(const char *path, pm_buf *real, uint64_t *off,
                                                 uint64_t *len, paimon_error *err);

/* Opens the bytes `path` names as a file of their own (see pm_input_slice); `*format` gets
 * the wrapped format's name, borrowed from `path`.  Pieces that run past the physical
 * file's end are PAIMON_ECORRUPT naming `path`.  Caller owns `*out` (release with its
 * close()). */
PM_MUST_CHECK int pm_compacted_changelog_open(pm_fs *fs, const char *path, pm_input **out,
                                              const char **format, paimon_error *err);

/* Appends the name of a piece to `out`: the physical file's own name when off == 0
 * ("compacted-changelog-<uuid>$<bucket>-<first_len>.cc-<format>"), else
 * "compacted-changelog-<uuid>$<bucket>-<first_len>-<off>-<len>.cc-<format>".
 * 0 or the pm_buf error. */
int pm_compacted_changelog_name_append(pm_buf *out, const char *uuid, int32_t bucket,
                                       int64_t first_len, int64_t off, int64_t len,
                                       const char *format);

#endif /* PM_FORMAT_COMPACTED_CHANGELOG_H */
