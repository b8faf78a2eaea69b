/*
 * Single data files of any format behind one interface: the dispatch point of
 * `paimon file cat/meta` and of the table readers.
 *
 * pm_data_file_open() reads the first bytes of the file and picks the format whose magic
 * they start with: Parquet "PAR1", ORC "ORC", Avro "Obj\x01" (a new format is its
 * pm_data_format and one line in data_file.c's table).  Another magic is
 * PAIMON_EUNSUPPORTED naming the file.
 *
 * A path whose name starts with "compacted-changelog-" names a range of another file
 * (format/compacted_changelog.h): that range is opened as the file, and its magic must be
 * the one of the format the name gives.
 *
 * Thread safety: one thread per pm_data_file.
 */
#ifndef PM_FORMAT_DATA_FILE_H
#define PM_FORMAT_DATA_FILE_H

#include "data/batch.h"
#include "data/predicate.h"
#include "io/fs.h"
#include "util/error.h"
#include "util/pool.h"

/* What to read; every field may be left 0 / NULL. */
typedef struct pm_read_options {
    const pm_type *read_type;   /* ROW type (field ids matter); NULL: the file's own */
    int64_t batch_rows;         /* rows per batch; 0: pm_batch_default_rows(read type) */
    const pm_predicate *filter; /* over read_type: prunes what cannot match (borrowed) */
    const int64_t *ranges;      /* [start, end) row position pairs, sorted (borrowed) */
    size_t range_count;
    pm_pool *pool; /* where a format may decompress at once (Parquet pages ahead, the streams
                    * of an ORC stripe), or NULL */
} pm_read_options;

/* One format's implementation. */
typedef struct pm_data_format {
    const char *name;  /* "parquet" */
    const char *magic; /* bytes the file starts with */
    size_t magic_len;
    /* Takes ownership of `in`, also on failure. */
    int (*open)(void **impl, pm_input *in, const char *path, paimon_error *err);
    void (*close)(void *impl);
    const pm_type *(*type)(void *impl); /* the file's columns as Paimon types */
    int64_t (*row_count)(void *impl);
    int (*start)(void *impl, const pm_read_options *o, paimon_error *err);
    int (*next)(void *impl, pm_batch **out, paimon_error *err);  /* PAIMON_ITEROVER at the end */
    int (*describe)(void *impl, pm_buf *out, paimon_error *err); /* `paimon file meta` text */
    /* The rows where a section of the file may begin without decoding again what the
     * section before it decodes: `*starts` (held by the file, ascending, the first 0) and
     * their count.  NULL: any row (Parquet skips pages by the offset index, Avro blocks by
     * their sizes).  ORC: the first row of each stripe, whose streams are decompressed
     * whole. */
    int (*section_starts)(void *impl, const int64_t **starts, size_t *count, paimon_error *err);
} pm_data_format;

typedef struct pm_data_file {
    const pm_data_format *format;
    void *impl;
} pm_data_file;

/* Opens `path` on `fs` and picks its format.  Caller owns `*out`; release with
 * pm_data_file_free(). */
PM_MUST_CHECK int pm_data_file_open(pm_data_file **out, pm_fs *fs, const char *path,
                                    paimon_error *err);
void pm_data_file_free(pm_data_file *f);

/* Cuts rows [0, rows) into at most `want` sections of about equal rows, each beginning at
 * one of `starts` (ascending; NULL: anywhere), the nearest to where an equal cut would
 * fall: writes the bounds to `bounds` (room for want + 1; bounds[0] = 0, bounds[count] =
 * rows) and returns the count, 1 when the rows are best read whole. */
size_t pm_section_bounds(int64_t rows, size_t want, const int64_t *starts, size_t start_count,
                         int64_t *bounds);

/* pm_section_bounds over file `f`'s rows and its format's section starts. */
PM_MUST_CHECK int pm_data_file_sections(pm_data_file *f, size_t want, int64_t *bounds,
                                        size_t *count, paimon_error *err);

/* The Parquet implementation (format/parquet/format_parquet.c). */
extern const pm_data_format pm_parquet_format;
/* The ORC implementation (format/orc/format_orc.c). */
extern const pm_data_format pm_orc_format;
/* Avro data files (format/avro/avro_data_read.c). */
extern const pm_data_format pm_avro_format;

#endif /* PM_FORMAT_DATA_FILE_H */
