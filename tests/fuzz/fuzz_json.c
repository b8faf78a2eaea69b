/*
 * Fuzz target: the JSON readers (schema files, snapshot and tag files) and the type-string
 * and COLUMNS parsers, all fed the same input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
        pm_schema_validate(schema, &err);
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
    free(text);
    return 0;
}
