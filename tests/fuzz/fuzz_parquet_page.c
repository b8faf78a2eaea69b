/*
 * libFuzzer target: the page-level decoders on their own, so mutations reach them without
 * first getting through a footer and a CRC.  The first bytes choose what to decode:
 *
 *   byte 0   physical type (mod 8)        byte 1   encoding (mod 10)
 *   byte 2   value count                  byte 3   dictionary entries (for *_DICTIONARY)
 *   rest     a page header (Thrift) tried first, then the same bytes as a values section;
 *            for dictionary encodings the dictionary page body comes first (PLAIN)
 *
 * Also runs the RLE/bit-packed hybrid, BIT_PACKED levels and DELTA_BINARY_PACKED straight
 * on the bytes.  Corpus: tests/fuzz/corpus/parquet_page.
 */
#include <stdlib.h>
#include <string.h>

#include "format/parquet/column.h"
#include "format/parquet/encoding.h"
#include "util/alloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const TYPES[] = {"BOOLEAN", "INT",    "BIGINT", "TIMESTAMP(9)",
                                    "FLOAT",   "DOUBLE", "STRING", "DECIMAL(38, 2)"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    paimon_error err = {0};
    uint8_t *buf;
    size_t len;
    int phys, encoding, count, dict;
    pm_type *type = NULL;
    pq_leaf leaf;
    pq_plan plan;
    pq_col_reader r;
    pm_column *col = NULL;

    if (size < 4)
        return 0;
    phys = data[0] % 8;
    encoding = data[1] % 10;
    count = data[2];
    dict = data[3];
    len = size - 4;
    buf = malloc(len + PM_PQ_PADDING);
    if (buf == NULL)
        return 0;
    memcpy(buf, data + 4, len);
    memset(buf + len, 0, PM_PQ_PADDING);

    /* a page header */
    {
        pm_thrift_reader tr;
        pq_page_header h;
        pm_thrift_reader_init(&tr, buf, len, 0, "page", &err);
        pm_pq_read_page_header(&tr, &h);
    }
    /* raw level and integer decoders */
    {
        pm_rle_decoder d;
        uint32_t out[256];
        uint8_t levels[256];
        pm_delta_decoder dd;
        int64_t v[256];
        pm_rle_init(&d, buf, len, count % 33);
        pm_rle_get_u32(&d, out, 256, &err);
        PM_IGNORE(pm_pq_bitpacked_levels(buf, len, count % 9, levels, 256, &err));
        if (pm_delta_init(&dd, buf, len, 64, &err) == 0) {
            size_t n = pm_delta_remaining(&dd) < 256 ? (size_t)pm_delta_remaining(&dd) : 256;
            PM_IGNORE(pm_delta_get64(&dd, v, n, &err));
        }
    }
    /* a values section through the column reader's decoders */
    if (pm_type_parse(TYPES[phys], &type, &err) != 0)
        goto done;
    memset(&leaf, 0, sizeof(leaf));
    memset(&plan, 0, sizeof(plan));
    leaf.type = phys == 3   ? PQ_INT96
                : phys == 1 ? PQ_INT32
                : phys == 2 ? PQ_INT64
                : phys == 4 ? PQ_FLOAT
                : phys == 5 ? PQ_DOUBLE
                : phys == 6 ? PQ_BYTE_ARRAY
                : phys == 7 ? PQ_FIXED_LEN_BYTE_ARRAY
                            : PQ_BOOLEAN;
    leaf.type_length = 16;
    plan.kind = PQ_PLAN_LEAF;
    plan.type = type;
    plan.mul = plan.div = 1;
    plan.conv = phys == 3 ? PQ_CONV_I96_TS : phys == 7 ? PQ_CONV_BIN_DEC : PQ_CONV_NONE;
    if (phys == 3)
        plan.mul = 1000000000;
    pm_pq_col_init(&r, "page", &leaf, &plan, PQ_UNCOMPRESSED, NULL);
    if ((col = pm_column_new(type)) == NULL)
        goto free_reader;
    r.data = buf;
    r.data_len = len;
    r.encoding = encoding;
    r.page_values = count;
    if (encoding == PQ_PLAIN_DICTIONARY || encoding == PQ_RLE_DICTIONARY) {
        size_t half = len / 2;
        if (pm_pq_dict_load(&r, buf, half, dict, &err) != 0)
            goto free_reader;
        r.data = buf + half;
        r.data_len = len - half;
    }
    if (pm_pq_values_begin(&r, &err) == 0 && pm_pq_values_decode(&r, count / 2, col, &err) == 0)
        PM_IGNORE(pm_pq_values_decode(&r, count - count / 2, col, &err));
free_reader:
    pm_pq_col_free(&r);
done:
    pm_column_free(col);
    pm_type_free(type);
    free(buf);
    return 0;
}
