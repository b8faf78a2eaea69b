/*
 * Fuzz target: BinaryRow decoding.  The first byte picks how many fields to read, the next
 * ones their types (from a table covering every type, nested included); the rest is the
 * serialized row (BE arity prefix, then the row).  Every field is decoded and rendered as
 * canonical JSON, which walks nested arrays, maps and rows.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "data/binary_row.h"
#include "data/canonical.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static pm_type T(pm_type_id id, int32_t precision, int32_t scale)
{
    pm_type t;
    memset(&t, 0, sizeof(t));
    t.id = id;
    t.nullable = true;
    t.precision = precision;
    t.scale = scale;
    t.length = 10;
    return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static pm_type base[20], arr, map, nested_row;
    static pm_field row_fields[2];
    static int ready;
    const pm_type *types[16];
    pm_binrow row;
    paimon_error err;
    size_t n;

    if (!ready) {
        pm_type_id ids[] = {PM_TYPE_BOOLEAN, PM_TYPE_TINYINT, PM_TYPE_SMALLINT, PM_TYPE_INT,
                            PM_TYPE_BIGINT,  PM_TYPE_FLOAT,   PM_TYPE_DOUBLE,   PM_TYPE_DATE,
                            PM_TYPE_TIME,    PM_TYPE_VARCHAR, PM_TYPE_VARBINARY};
        for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
            base[i] = T(ids[i], 3, 0);
        base[11] = T(PM_TYPE_DECIMAL, 10, 2);
        base[12] = T(PM_TYPE_DECIMAL, 38, 10);
        base[13] = T(PM_TYPE_TIMESTAMP, 3, 0);
        base[14] = T(PM_TYPE_TIMESTAMP, 9, 0);
        base[15] = T(PM_TYPE_TIMESTAMP_LTZ, 6, 0);
        arr = T(PM_TYPE_ARRAY, 0, 0);
        arr.element = &base[9];
        map = T(PM_TYPE_MAP, 0, 0);
        map.element = &base[3];
        map.value = &base[12];
        row_fields[0].name = "a";
        row_fields[0].type = &base[14];
        row_fields[1].name = "b";
        row_fields[1].type = &arr;
        nested_row = T(PM_TYPE_ROW, 0, 0);
        nested_row.fields = row_fields;
        nested_row.field_count = 2;
        base[16] = arr;
        base[17] = map;
        base[18] = nested_row;
        base[19] = T(PM_TYPE_MULTISET, 0, 0);
        base[19].element = &base[9];
        ready = 1;
    }
    if (size < 1)
        return 0;
    n = data[0] % 16;
    if (size < 1 + n)
        return 0;
    for (size_t i = 0; i < n; i++)
        types[i] = &base[data[1 + i] % 20];
    data += 1 + n;
    size -= 1 + n;
    if (pm_binrow_deserialize(&row, data, size, &err) != 0)
        return 0;
    if ((size_t)row.arity < n)
        n = (size_t)row.arity;
    for (size_t i = 0; i < n; i++) {
        pm_datum d;
        pm_buf out;
        if (pm_binrow_get(&row, (int32_t)i, types[i], &d, &err) != 0)
            continue;
        pm_buf_init(&out, 1 << 20);
        PM_IGNORE(pm_canonical_json(&out, types[i], &d, &err));
        pm_binrow_hash(row.data, row.len & ~(size_t)3);
        pm_buf_free(&out);
    }
    return 0;
}
