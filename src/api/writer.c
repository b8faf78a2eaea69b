/* Public writer functions (include/paimon/write.h): argument checks and Arrow import over
 * src/table/write/table_write.h; rows written one at a time are converted by
 * table/write/value.h and gathered into batches here. */
#include <string.h>

#include "data/arrow.h"
#include "api/api.h"
#include "data/input.h"
#include "data/types.h"
#include "paimon/write.h"
#include "table/table.h"
#include "table/write/table_write.h"
#include "table/write/value.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/pool.h"

#define ROW_BATCH 4096 /* rows gathered by paimon_writer_write_row() per batch */

struct paimon_writer {
    pm_table_write *tw;
    pm_batch *rows; /* rows written one at a time, not yet handed over */
    int8_t kinds[ROW_BATCH];
    int64_t handed; /* rows handed to the table write: numbers rows in messages */
    pm_buf scratch;
    pm_datum *datums;
    pm_column **nested; /* per column: a one-slot column holding a nested value given as
                           JSON text by paimon_writer_write_row(), made when first needed */
    bool failed;
};

PAIMON_API int paimon_writer_open(paimon_writer **out, paimon_table *table,
                                  const paimon_writer_options *options, paimon_error *err)
{
    paimon_writer_options given;
    paimon_writer *w;
    pm_table_write_opts o = {false, NULL, false};
    int rc;
    paimon_error_clear(err);
    if (out == NULL || table == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_writer_open: out and table needed");
    *out = NULL;
    if ((rc = pm_api_options_get(&pm_api_writer_options, "paimon_writer_open", options, &given,
                                 err)) != 0)
        return rc;
    o.overwrite = given.overwrite != 0;
    o.commit_user = given.commit_user;
    if ((w = pm_calloc(1, sizeof(*w))) == NULL)
        return pm_nomem(err);
    pm_buf_init(&w->scratch, 0);
    pm_table_begin(table); /* the writer's schema: the latest now */
    if ((rc = pm_table_write_new(&w->tw, table->fs, table->path, &o, err)) != 0) {
        paimon_writer_free(w);
        return rc;
    }
    if (given.threads > PM_POOL_MAX_THREADS) {
        paimon_writer_free(w);
        return pm_err_set(err, PAIMON_EINVALID, "paimon_writer_open: threads %u; at most %d",
                          given.threads, PM_POOL_MAX_THREADS);
    }
    if (given.async_compaction < PAIMON_COMPACTION_SYNC ||
        given.async_compaction > PAIMON_COMPACTION_ASYNC_FIXED) {
        paimon_writer_free(w);
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_writer_open: async_compaction %d; one of PAIMON_COMPACTION_*",
                          given.async_compaction);
    }
    pm_table_write_set_threads(w->tw, given.threads, (pm_compact_mode)given.async_compaction);
    if ((w->datums = pm_calloc(pm_table_write_type(w->tw)->field_count + 1, sizeof(pm_datum))) ==
            NULL ||
        (w->nested = pm_calloc(pm_table_write_type(w->tw)->field_count + 1, sizeof(pm_column *))) ==
            NULL) {
        paimon_writer_free(w);
        return pm_nomem(err);
    }
    *out = w;
    return 0;
}

PAIMON_API int paimon_writer_arrow_schema(const paimon_writer *writer, struct ArrowSchema *out,
                                          paimon_error *err)
{
    paimon_error_clear(err);
    if (writer == NULL || out == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_writer_arrow_schema: NULL argument");
    return pm_arrow_export_schema(pm_table_write_type(writer->tw), out, err);
}

/* The table write refused one row of the batch just handed over (rows from `handed` on):
 * name it, as the only layer that numbers the rows of this API.  Other failures name their
 * own context. */
static void name_row(const paimon_writer *w, paimon_error *err)
{
    int64_t bad = pm_table_write_bad_row(w->tw);
    if (bad >= 0)
        pm_err_prefix(err, PAIMON_EINVALID, "row %lld: ", (long long)(w->handed + bad));
}

/* Hands the rows written one at a time to the table write. */
PM_MUST_CHECK static int flush_rows(paimon_writer *w, paimon_error *err)
{
    int rc;
    if (w->rows == NULL || w->rows->row_count == 0)
        return 0;
    rc = pm_table_write_batch(w->tw, w->rows, w->kinds, err);
    if (rc != 0)
        name_row(w, err);
    w->handed += w->rows->row_count;
    pm_batch_reset(w->rows);
    if (rc != 0)
        w->failed = true;
    return rc;
}

PM_MUST_CHECK static int check_usable(const paimon_writer *w, const char *fn, paimon_error *err)
{
    if (w == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "%s: no writer", fn);
    if (w->failed)
        return pm_err_set(err, PAIMON_EINVALID, "%s: the writer failed before", fn);
    return 0;
}

PAIMON_API int paimon_writer_write_arrow(paimon_writer *writer, const struct ArrowSchema *schema,
                                         const struct ArrowArray *array, const int8_t *kinds,
                                         paimon_error *err)
{
    pm_batch *b = NULL;
    int rc;
    paimon_error_clear(err);
    if ((rc = check_usable(writer, "paimon_writer_write_arrow", err)) != 0)
        return rc;
    if (schema == NULL || array == NULL)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_writer_write_arrow: schema and array needed");
    if ((rc = flush_rows(writer, err)) != 0)
        return rc;
    if ((rc = pm_arrow_import_batch(pm_table_write_type(writer->tw), schema, array, &b, err)) != 0)
        return rc; /* nothing was written: the writer stays usable */
    rc = pm_table_write_batch(writer->tw, b, kinds, err);
    if (rc != 0)
        name_row(writer, err);
    writer->handed += b->row_count;
    pm_batch_free(b);
    if (rc != 0)
        writer->failed = true;
    return rc;
}

/* A nested column's value given as text: its canonical JSON, parsed (with every check of
 * `paimon write`) into the column's one-slot staging column, so that a bad value leaves no
 * partial row. */
PM_MUST_CHECK static int stage_nested(paimon_writer *w, size_t c, const pm_field *f,
                                      const paimon_value *v, int64_t row, paimon_error *err)
{
    int rc;
    if (w->nested[c] == NULL && (w->nested[c] = pm_column_new(f->type)) == NULL)
        return pm_nomem(err);
    pm_column_reset(w->nested[c]);
    if ((rc = pm_input_value(w->nested[c], f->name, (const uint8_t *)v->v.s.ptr, v->v.s.len,
                             err)) != 0)
        pm_err_prefix(err, rc, "row %lld, ", (long long)row);
    return rc;
}

PAIMON_API int paimon_writer_write_row(paimon_writer *writer, const paimon_value *values,
                                       size_t count, int8_t kind, paimon_error *err)
{
    const pm_type *t;
    int64_t row;
    int rc;
    paimon_error_clear(err);
    if ((rc = check_usable(writer, "paimon_writer_write_row", err)) != 0)
        return rc;
    t = pm_table_write_type(writer->tw);
    row = writer->handed + (writer->rows != NULL ? writer->rows->row_count : 0);
    if (values == NULL || count != t->field_count)
        return pm_err_set(err, PAIMON_EINVALID, "row %lld: %zu values, the table has %zu columns",
                          (long long)row, count, t->field_count);
    if (kind < PAIMON_ROW_INSERT || kind > PAIMON_ROW_DELETE)
        return pm_err_set(err, PAIMON_EINVALID, "row %lld: row kind %d", (long long)row, kind);
    if (writer->rows == NULL && (rc = pm_batch_new(&writer->rows, t, err)) != 0)
        return rc;
    /* convert everything first, so that a bad value leaves no partial row */
    writer->scratch.len = 0;
    for (size_t c = 0; c < count; c++) {
        if (values[c].type == PAIMON_VALUE_TEXT && pm_type_is_nested(t->fields[c].type))
            rc = stage_nested(writer, c, &t->fields[c], &values[c], row, err);
        else
            rc = pm_value_to_datum(&t->fields[c], &values[c], row, &writer->scratch,
                                   &writer->datums[c], err);
        if (rc != 0)
            return rc;
    }
    for (size_t c = 0; c < count; c++) {
        pm_column *col = writer->rows->columns[c];
        if (values[c].type == PAIMON_VALUE_TEXT && pm_type_is_nested(t->fields[c].type))
            rc = pm_column_append_from(col, writer->nested[c], 0);
        else if (writer->datums[c].is_null)
            rc = pm_column_append_null(col);
        else
            rc = pm_column_append_datum(col, &writer->datums[c]);
        if (rc != 0) {
            writer->failed = true;
            return pm_buf_error(err, rc);
        }
    }
    writer->kinds[writer->rows->row_count++] = kind;
    if (writer->rows->row_count == ROW_BATCH)
        return flush_rows(writer, err);
    return 0;
}

PAIMON_API int paimon_writer_prepare_commit(paimon_writer *writer, paimon_commit_messages *messages,
                                            paimon_error *err)
{
    int rc;
    paimon_error_clear(err);
    if ((rc = check_usable(writer, "paimon_writer_prepare_commit", err)) != 0)
        return rc;
    if (messages == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_writer_prepare_commit: no messages");
    if ((rc = flush_rows(writer, err)) != 0)
        return rc;
    if ((rc = pm_table_write_prepare(writer->tw, messages, err)) != 0)
        writer->failed = true;
    return rc;
}

PAIMON_API int paimon_writer_end_input(paimon_writer *writer, paimon_error *err)
{
    int rc;
    paimon_error_clear(err);
    if ((rc = check_usable(writer, "paimon_writer_end_input", err)) != 0)
        return rc;
    pm_table_write_end_input(writer->tw);
    return 0;
}

PAIMON_API int64_t paimon_writer_rows(const paimon_writer *writer)
{
    return writer != NULL ? pm_table_write_rows(writer->tw) : 0;
}

PAIMON_API void paimon_writer_free(paimon_writer *writer)
{
    if (writer == NULL)
        return;
    if (writer->nested != NULL) /* before the table write: they borrow its types */
        for (size_t c = 0; c < pm_table_write_type(writer->tw)->field_count; c++)
            pm_column_free(writer->nested[c]);
    pm_free(writer->nested);
    pm_table_write_free(writer->tw);
    pm_batch_free(writer->rows);
    pm_buf_free(&writer->scratch);
    pm_free(writer->datums);
    pm_free(writer);
}

/* ---- input rows ------------------------------------------------------------------------ */

struct paimon_input {
    pm_row_input *in;    /* data/input.h */
    pm_batch *batch;     /* the reader's last batch (borrowed from it) */
    const int8_t *kinds; /* its row kinds */
    int64_t off;         /* rows of `batch` already written */
    pm_batch *slice;     /* rows off..off+k when a limit cuts a batch */
    int64_t *idx;        /* their indexes */
    int64_t last_line;   /* line of the last row read */
    char *name;          /* owned: names the input in messages, or NULL */
};

PAIMON_API int paimon_input_open(paimon_input **out, const paimon_writer *writer, FILE *file,
                                 const char *format, paimon_error *err)
{
    paimon_input *in;
    pm_input_format f;
    int rc;
    paimon_error_clear(err);
    if (out == NULL || writer == NULL || file == NULL || format == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_input_open: NULL argument");
    *out = NULL;
    if ((rc = pm_input_format_parse(format, &f, err)) != 0)
        return rc;
    if ((in = pm_calloc(1, sizeof(*in))) == NULL)
        return pm_nomem(err);
    if ((rc = pm_input_open_file(&in->in, f, file, pm_table_write_type(writer->tw), NULL, err)) !=
        0) {
        pm_free(in);
        return rc;
    }
    *out = in;
    return 0;
}

PAIMON_API int paimon_input_set_name(paimon_input *input, const char *name, paimon_error *err)
{
    char *copy = NULL;
    paimon_error_clear(err);
    if (input == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_input_set_name: no input");
    if (name != NULL && (copy = pm_strdup(name)) == NULL)
        return pm_nomem(err);
    pm_free(input->name);
    input->name = copy;
    return 0;
}

/* An error about the input itself: named once, by the input's name. */
static void name_input(const paimon_input *in, int rc, paimon_error *err)
{
    if (in->name != NULL)
        pm_err_prefix(err, rc, "%s: ", in->name);
}

PAIMON_API int paimon_input_write(paimon_input *input, paimon_writer *writer, int64_t max_rows,
                                  int64_t *rows, paimon_error *err)
{
    int64_t done = 0;
    int rc = 0;
    paimon_error_clear(err);
    if (rows != NULL)
        *rows = 0;
    if (input == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_input_write: no input");
    if ((rc = check_usable(writer, "paimon_input_write", err)) != 0 ||
        (rc = flush_rows(writer, err)) != 0)
        return rc;
    while (max_rows <= 0 || done < max_rows) {
        const pm_batch *b;
        int64_t k, first = input->off;
        if (input->batch == NULL || input->off >= input->batch->row_count) {
            input->batch = NULL;
            input->off = 0;
            rc = pm_input_next(input->in, &input->batch, &input->kinds, err);
            if (rc != 0) {
                input->batch = NULL;
                if (rc != PAIMON_ITEROVER) {
                    writer->failed = true;      /* rows of this input were written: never commit */
                    name_input(input, rc, err); /* the reader says "line L, column C: " */
                }
                break;
            }
            first = 0;
        }
        k = input->batch->row_count - input->off;
        if (max_rows > 0 && k > max_rows - done)
            k = max_rows - done;
        b = input->batch;
        if (first != 0 || k != input->batch->row_count) {
            if (input->slice == NULL &&
                (rc = pm_batch_new(&input->slice, input->batch->type, err)) != 0)
                break;
            pm_batch_reset(input->slice);
            if ((input->idx = pm_realloc(input->idx, (size_t)k * sizeof(int64_t) + 8)) == NULL) {
                rc = pm_nomem(err);
                break;
            }
            for (int64_t i = 0; i < k; i++)
                input->idx[i] = first + i;
            if ((rc = pm_batch_take(input->slice, input->batch, input->idx, k, err)) != 0)
                break;
            b = input->slice;
        }
        rc = pm_table_write_batch(writer->tw, b, input->kinds + first, err);
        writer->handed += k;
        input->off += k;
        done += k;
        input->last_line = pm_input_row_line(input->in, first + k - 1);
        if (rc != 0) {
            int64_t bad = pm_table_write_bad_row(writer->tw);
            writer->failed = true;
            if (bad >= 0) { /* one row refused: its line, in the input */
                pm_err_prefix(err, rc,
                              "line %lld: ", (long long)pm_input_row_line(input->in, first + bad));
                name_input(input, rc, err);
            }
            break;
        }
    }
    if (rows != NULL)
        *rows = done;
    return rc;
}

PAIMON_API int64_t paimon_input_line(const paimon_input *input)
{
    return input != NULL ? input->last_line : 0;
}

PAIMON_API void paimon_input_free(paimon_input *input)
{
    if (input == NULL)
        return;
    pm_input_free(input->in);
    pm_free(input->name);
    pm_batch_free(input->slice);
    pm_free(input->idx);
    pm_free(input);
}
