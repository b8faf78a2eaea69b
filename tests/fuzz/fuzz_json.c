/*
 * Fuzz target: the JSON readers (schema files, snapshot and tag files), the type-string
 * and COLUMNS parsers, and the filter-expression parser (over a fixed row of every
 * comparable type), all fed the same input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "data/expr.h"
#include "data/types.h"
#include "meta/schema.h"
#include "meta/snapshot.h"
#include "util/buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pm_schema *schema = NULL;
    pm_snapshot *snap = NULL;
    pm_type *type = NULL;
    paimon_error err;
    char *text;

    if (pm_schema_parse(data, size, "fuzz", &schema, &err) == 0) {
        pm_buf out;
        pm_buf_init(&out, 0);
        PM_IGNORE(pm_schema_validate(schema, &err));
        pm_schema_write_json(schema, &out);
        pm_buf_free(&out);
        pm_schema_free(schema);
    }
    if (pm_snapshot_parse(data, size, "fuzz", &snap, &err) == 0) {
        pm_buf out;
        pm_buf_init(&out, 0);
        pm_snapshot_write_json(snap, &out);
        pm_buf_free(&out);
        pm_snapshot_free(snap);
    }
    text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    if (pm_type_parse(text, &type, &err) == 0) {
        pm_buf out;
        pm_buf_init(&out, 0);
        pm_type_format(type, &out);
        pm_buf_free(&out);
        pm_type_free(type);
    }
    if (pm_columns_parse(text, &type, &err) == 0)
        pm_type_free(type);
    {
        static pm_type *row = NULL;
        pm_predicate *p = NULL;
        if (row == NULL &&
            pm_columns_parse("id BIGINT, name STRING, amount DECIMAL(10, 2), d DATE, "
                             "ts TIMESTAMP(3), t TIME, ok BOOLEAN, b BYTES, f DOUBLE, `in` INT",
                             &row, &err) != 0)
            abort();
        if (pm_expr_parse(text, row, &p, &err) == 0)
            pm_predicate_free(p);
    }
    free(text);
    return 0;
}
