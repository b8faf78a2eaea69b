/* The $binlog shape of a change stream: see binlog.h. */
#include "api/binlog.h"

#include <string.h>

#include "table/file_reader.h"
#include "util/alloc.h"

struct pm_binlog {
    const pm_type *type;
    bool pack;
    pm_batch *held; /* one row: a -U waiting for its +U, or NULL */
};

int pm_binlog_type(const pm_type *changes, pm_type **out, paimon_error *err)
{
    pm_type *row = pm_type_new(PM_TYPE_ROW), *kind;
    *out = NULL;
    if (row == NULL || changes->field_count < 1 ||
        (kind = pm_type_clone(changes->fields[0].type)) == NULL)
        goto nomem;
    row->nullable = false;
    if (pm_type_row_add(row, changes->fields[0].id, "rowkind", kind) != 0)
        goto nomem;
    for (size_t i = 1; i < changes->field_count; i++) {
        pm_type *array;
        if (changes->fields[i].id == PM_SEQUENCE_NUMBER_ID) { /* a value, as in BinlogTable */
            pm_type *seq = pm_type_clone(changes->fields[i].type);
            if (seq == NULL ||
                pm_type_row_add(row, changes->fields[i].id, changes->fields[i].name, seq) != 0)
                goto nomem;
            continue;
        }
        array = pm_type_new(PM_TYPE_ARRAY);
        pm_type *element = pm_type_clone(changes->fields[i].type);
        if (array == NULL || element == NULL) {
            pm_type_free(array);
            pm_type_free(element);
            goto nomem;
        }
        element->nullable = true; /* BinlogTable: field.type().nullable() */
        array->element = element;
        if (pm_type_row_add(row, changes->fields[i].id, changes->fields[i].name, array) != 0)
            goto nomem;
    }
    *out = row;
    return 0;
nomem:
    pm_type_free(row);
    return pm_nomem(err);
}

int pm_binlog_new(pm_binlog **out, const pm_type *type, bool pack, paimon_error *err)
{
    pm_binlog *b = pm_calloc(1, sizeof(*b));
    *out = NULL;
    if (b == NULL)
        return pm_nomem(err);
    b->type = type;
    b->pack = pack;
    *out = b;
    return 0;
}

void pm_binlog_free(pm_binlog *b)
{
    if (b == NULL)
        return;
    pm_batch_free(b->held);
    pm_free(b);
}

/* The kind of row `i` ("+I", ...) from column 0; "" when it is not a kind. */
static const char *kind_of(const pm_batch *in, int64_t i, char buf[3])
{
    const pm_column *c = in->columns[0];
    int32_t from = pm_column_offset(c, i), to = pm_column_offset(c, i + 1);
    buf[0] = '\0';
    if (to - from == 2) {
        memcpy(buf, c->values.data + from, 2);
        buf[2] = '\0';
    }
    return buf;
}

/* Appends a binlog row of kind `kind`: arrays of row `i` of `a` and, if `b`, row `j` of b. */
PM_MUST_CHECK static int emit(pm_batch *out, const char *kind, const pm_batch *a, int64_t i,
                              const pm_batch *b, int64_t j, paimon_error *err)
{
    if (pm_column_append_bytes(out->columns[0], kind, strlen(kind)) != 0)
        return pm_nomem(err);
    for (size_t c = 1; c < out->column_count; c++) {
        pm_column *array = out->columns[c];
        /* _SEQUENCE_NUMBER: the first row's (BinlogTable.convertToArray) */
        if (out->type->fields[c].id == PM_SEQUENCE_NUMBER_ID) {
            if (pm_column_append_from(array, a->columns[c], i) != 0)
                return pm_nomem(err);
            continue;
        }
        if (pm_column_append_from(array->children[0], a->columns[c], i) != 0 ||
            (b != NULL && pm_column_append_from(array->children[0], b->columns[c], j) != 0) ||
            pm_column_list_end(array, true) != 0)
            return pm_nomem(err);
    }
    return 0;
}

int pm_binlog_convert(pm_binlog *b, const pm_batch *in, pm_batch **out, paimon_error *err)
{
    pm_batch *o = NULL;
    int64_t rows = 0;
    int rc = pm_batch_new(&o, b->type, err);
    *out = NULL;
    if (rc != 0)
        return rc;
    for (int64_t i = 0; i < in->row_count; i++) {
        char buf[3];
        const char *kind = kind_of(in, i, buf);
        if (b->held != NULL) {
            bool pair = strcmp(kind, "+U") == 0;
            PM_TRY(emit(o, pair ? "+U" : "-U", b->held, 0, pair ? in : NULL, i, err));
            rows++;
            pm_batch_free(b->held);
            b->held = NULL;
            if (pair)
                continue;
        }
        if (b->pack && strcmp(kind, "-U") == 0) {
            int64_t at = i;
            PM_TRY(pm_batch_new(&b->held, in->type, err));
            PM_TRY(pm_batch_take(b->held, in, &at, 1, err));
            continue;
        }
        PM_TRY(emit(o, kind, in, i, NULL, 0, err));
        rows++;
    }
    PM_TRY(pm_batch_set_rows(o, rows, err));
    if (rows > 0) {
        *out = o;
        o = NULL;
    }
done:
    pm_batch_free(o);
    return rc;
}

int pm_binlog_finish(pm_binlog *b, pm_batch **out, paimon_error *err)
{
    pm_batch *o = NULL;
    int rc = 0;
    *out = NULL;
    if (b->held == NULL)
        return 0;
    PM_TRY(pm_batch_new(&o, b->type, err));
    PM_TRY(emit(o, "-U", b->held, 0, NULL, 0, err));
    PM_TRY(pm_batch_set_rows(o, 1, err));
    *out = o;
    o = NULL;
done:
    pm_batch_free(b->held);
    b->held = NULL;
    pm_batch_free(o);
    return rc;
}
