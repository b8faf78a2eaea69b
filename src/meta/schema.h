/*
 * Table schemas: `schema/schema-<id>` files (metadata.md §3).
 *
 * A schema is immutable once written; a table's schemas are numbered from 0 and each data
 * file records the id it was written with (DESIGN.md invariant 4: columns are matched across
 * schemas by field id).  Reading applies Java's compatibility rules (SchemaSerializer): a
 * missing "version" is 1; version <= 1 without "bucket" gets bucket=1; version <= 2 without
 * "file.format" gets file.format=orc.  Writing produces the 1.4.2 layout: version 3, keys in
 * Java's order, Jackson's pretty printing.
 *
 * Thread safety: a pm_schema is immutable after construction and may be shared.
 */
#ifndef PM_META_SCHEMA_H
#define PM_META_SCHEMA_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "data/types.h"
#include "io/fs.h"
#include "meta/options.h"
#include "util/strlist.h"
#include "util/error.h"

#define PM_SCHEMA_VERSION 3

typedef struct pm_schema {
    int32_t version;          /* as read (1 when absent); written as 3 */
    int64_t id;               /* equals the file suffix */
    pm_type *row;             /* the columns: a ROW NOT NULL type with field ids */
    int32_t highest_field_id; /* max id ever used, nested fields included */
    pm_strlist partition_keys;
    pm_strlist primary_keys;
    pm_options options;  /* as recorded; defaults are not filled in */
    char *comment;       /* NULL when absent */
    int64_t time_millis; /* creation time; 0 when absent */
} pm_schema;

void pm_schema_free(pm_schema *s);

/* Parses schema JSON.  `what` names the file in errors (PAIMON_ECORRUPT). */
PM_MUST_CHECK int pm_schema_parse(const uint8_t *data, size_t len, const char *what,
                                  pm_schema **out, paimon_error *err);

/* Appends the Java 1.4.2 layout of `s` (version 3). */
int pm_schema_write_json(const pm_schema *s, pm_buf *out);

/* Builds the JSON object (caller owns the reference); NULL on allocation failure. */
json_t *pm_schema_to_json(const pm_schema *s);

/* Checks what Java checks when a schema is created or altered: unique field ids and names,
 * partition and primary keys that are columns, listed once, primary keys that include the
 * partition keys (and leave at least one column), a highest field id that covers every id;
 * types no deeper than PM_MAX_NESTING, and what the table's file.format cannot store
 * (Java's FileFormat.validateDataFields: VARIANT in ORC; in Avro TIMESTAMP above 6 and TIME
 * above 3 digits, VARIANT, names that are not Avro names, pm_avro_data_check). */
PM_MUST_CHECK int pm_schema_validate(const pm_schema *s, paimon_error *err);

/* ---- derived views --------------------------------------------------------------------- */

/* The option value, or NULL.  Borrowed. */
static inline const char *pm_schema_option(const pm_schema *s, const char *key)
{
    return pm_options_get(&s->options, key);
}

/* The field named `name`, or NULL. */
const pm_field *pm_schema_field(const pm_schema *s, const char *name);

/* Partition columns in partitionKeys order (types borrowed from the schema); `*count`
 * fields written to `out` (capacity `cap`).  PAIMON_ECORRUPT if a key is not a column. */
PM_MUST_CHECK int pm_schema_partition_fields(const pm_schema *s, const pm_field **out, size_t cap,
                                             size_t *count, paimon_error *err);

/* Primary keys minus partition keys ("trimmed primary keys"), in primaryKeys order. */
PM_MUST_CHECK int pm_schema_trimmed_pk_fields(const pm_schema *s, const pm_field **out, size_t cap,
                                              size_t *count, paimon_error *err);

/* ---- files ----------------------------------------------------------------------------- */

/* "<table>/schema/schema-<id>"; release with pm_free. */
char *pm_schema_path(const char *table, int64_t id);

/* Schema ids present in the table, ascending.  A missing schema directory gives none. */
PM_MUST_CHECK int pm_schema_list_ids(pm_fs *fs, const char *table, int64_t **ids, size_t *count,
                                     paimon_error *err);

/* Reads schema `id`.  PAIMON_ENOTFOUND names the file when it is missing. */
PM_MUST_CHECK int pm_schema_read(pm_fs *fs, const char *table, int64_t id, pm_schema **out,
                                 paimon_error *err);

/* The schema with the highest id; PAIMON_ENOTFOUND when the table has none.  Found and
 * read once per file system (schema_memo.c: a table handle owns its file system, so once
 * per handle): later calls parse the remembered bytes, asking the store nothing. */
PM_MUST_CHECK int pm_schema_read_latest(pm_fs *fs, const char *table, pm_schema **out,
                                        paimon_error *err);

/* Writes `s` as schema-<s->id> with the create-if-absent protocol: PAIMON_EEXISTS when a
 * concurrent writer took the id. */
PM_MUST_CHECK int pm_schema_commit(pm_fs *fs, const char *table, const pm_schema *s,
                                   paimon_error *err);

/* Makes the next pm_schema_read_latest of `table` on `fs` find the latest schema again
 * (the commit calls it after losing a race: another writer may have changed the schema). */
void pm_schema_forget(pm_fs *fs, const char *table);

/* The memo behind pm_schema_read_latest (schema_memo.c): a copy of the remembered bytes of
 * `table`'s latest schema file (NUL-terminated; caller frees), or *json NULL when none;
 * and remembering them (a copy; nothing happens without memory). */
PM_MUST_CHECK int pm_schema_memo_get(pm_fs *fs, const char *table, uint8_t **json, size_t *len,
                                     paimon_error *err);
void pm_schema_memo_put(pm_fs *fs, const char *table, const uint8_t *json, size_t len);

/* The same memo for a file that is never rewritten (a manifest list: its name is unique),
 * read twice by one command (a writer's restore and its commit): the last few are kept.
 * pm_memo_file_get gives a copy (NUL-terminated; caller frees) or *data NULL. */
PM_MUST_CHECK int pm_memo_file_get(pm_fs *fs, const char *path, uint8_t **data, size_t *len,
                                   paimon_error *err);
void pm_memo_file_put(pm_fs *fs, const char *path, const uint8_t *data, size_t len);

#endif /* PM_META_SCHEMA_H */
