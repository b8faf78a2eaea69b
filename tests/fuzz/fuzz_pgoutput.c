/*
 * Fuzz target: the pgoutput decoder of the CDC source (src/cdc/pgoutput.c), and, for each
 * value of a decoded row, the text-form converters of every mapped PostgreSQL type
 * (src/cdc/pg_types.c) and of arrays of them (src/cdc/pg_array.c); then the input as one
 * line of COPY text format.  The bytes are what
 * a replication connection delivers: untrusted.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cdc/pg_types.h"
#include "cdc/pgoutput.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint32_t TYPES[] = {PM_PG_BOOL,         PM_PG_BYTEA,         PM_PG_INT8,
                                 PM_PG_INT2,         PM_PG_INT4,          PM_PG_TEXT,
                                 PM_PG_FLOAT4,       PM_PG_FLOAT8,        PM_PG_DATE,
                                 PM_PG_TIME,         PM_PG_TIMESTAMP,     PM_PG_TIMESTAMPTZ,
                                 PM_PG_NUMERIC,      PM_PG_UUID,          PM_PG_INT4_ARRAY,
                                 PM_PG_TEXT_ARRAY,   PM_PG_BYTEA_ARRAY,   PM_PG_TIMESTAMPTZ_ARRAY,
                                 PM_PG_FLOAT8_ARRAY, PM_PG_NUMERIC_ARRAY, PM_PG_BOOL_ARRAY,
                                 PM_PG_DATE_ARRAY};

static void values(const pm_pgo_tuple *t, pm_cdc_buf *scratch)
{
    for (uint16_t i = 0; i < t->count; i++) {
        paimon_value v;
        paimon_error err;
        if (t->values[i].kind != 't')
            continue;
        for (size_t k = 0; k < sizeof(TYPES) / sizeof(TYPES[0]); k++) {
            scratch->len = 0;
            if (pm_pgtype_value(TYPES[k], t->values[i].ptr, t->values[i].len, "fuzz", &v, scratch,
                                &err) == 0)
                pm_pgtype_fixup(&v, 1, scratch);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pm_pgo_decoder d;
    pm_pgo_msg m;
    pm_cdc_buf scratch = {0}, line = {0};
    pm_copy_field fields[16];
    size_t count;
    paimon_error err;
    char type[96];
    memset(&d, 0, sizeof(d));
    if (pm_pgo_decode(&d, data, size, &m, &err) == 0) {
        values(&m.old_tuple, &scratch);
        values(&m.new_tuple, &scratch);
        for (uint16_t i = 0; m.kind == 'R' && i < m.column_count; i++)
            (void)!pm_pgtype_map(m.columns[i].type_oid, m.columns[i].typmod, "fuzz", NULL, type,
                                 sizeof(type), &err);
    }
    (void)!pm_copy_split((const char *)data, size, fields, 16, &count, &line, &err);
    pm_cdc_buf_free(&line);
    pm_cdc_buf_free(&scratch);
    pm_pgo_decoder_free(&d);
    return 0;
}
