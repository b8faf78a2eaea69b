/*
 * Fuzz target: serialized RoaringBitmaps from disk.  After its first byte (bit 0: the 64-bit
 * format), the input becomes the blob of a deletion-vector record with a correct size and
 * CRC, so decoding gets past the checksum to the bitmaps; and the two halves of the input
 * become the operands of the rbm32 aggregate function.  Any result but a crash or a
 * sanitizer report is fine.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lsm/deletion_vector.h"
#include "lsm/field_agg.h"
#include "util/alloc.h"
#include "util/bytes.h"
#include "util/hash.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void decode_record(bool bitmap64, const uint8_t *data, size_t size)
{
    /* [size BE][magic][data][crc BE]: magic 32-bit (BE) or 64-bit (LE) by data[0] */
    size_t blob = size + 4;
    uint8_t *rec = pm_malloc(blob + 8);
    pm_dv *dv = NULL;
    paimon_error err;
    if (rec == NULL)
        return;
    pm_store_be32(rec, (uint32_t)blob);
    if (bitmap64)
        pm_store_le32(rec + 4, PM_DV_MAGIC_64);
    else
        pm_store_be32(rec + 4, PM_DV_MAGIC_32);
    if (size > 0)
        memcpy(rec + 8, data, size);
    pm_store_be32(rec + 4 + blob, pm_crc32(rec + 4, blob));
    if (pm_dv_decode(rec, blob + 8, -1, "fuzz", 0, &dv, &err) == 0) {
        (void)pm_dv_cardinality(dv);
        (void)pm_dv_contains(dv, 7);
    }
    pm_dv_free(dv);
    pm_free(rec);
}

static void union_halves(const uint8_t *data, size_t size)
{
    pm_schema schema;
    pm_type *bytes = pm_type_new(PM_TYPE_VARBINARY);
    pm_field field;
    pm_field_agg agg;
    pm_column *col;
    paimon_error err;
    pm_vref out;
    if (bytes == NULL)
        return;
    bytes->length = PM_MAX_LENGTH;
    memset(&schema, 0, sizeof(schema));
    pm_options_init(&schema.options);
    field.id = 0;
    field.name = "f";
    field.type = bytes;
    col = pm_column_new(bytes);
    if (col != NULL && pm_field_agg_init(&agg, &schema, &field, "rbm32", &err) == 0 &&
        pm_column_append_bytes(col, data, size / 2) == 0 &&
        pm_column_append_bytes(col, data + size / 2, size - size / 2) == 0)
        PM_IGNORE(pm_field_agg_agg(&agg, pm_vref_of(col, 0), pm_vref_of(col, 1), &out, &err));
    pm_field_agg_free(&agg);
    pm_column_free(col);
    pm_options_free(&schema.options);
    pm_type_free(bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1 << 20))
        return 0;
    if (size == 0)
        return 0;
    decode_record((data[0] & 1) != 0, data + 1, size - 1);
    union_halves(data + 1, size - 1);
    return 0;
}
