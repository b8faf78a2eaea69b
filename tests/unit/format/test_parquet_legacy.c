/* Legacy list forms no writer at hand produces (LogicalTypes.md, backward compatibility):
 * a 2-level LIST whose repeated field is the primitive element (`array`), a repeated field
 * outside any LIST group, a 2-level LIST of `<name>_tuple` groups, and a file without field
 * ids read by name.  The file is assembled here from the metadata structs and hand-encoded
 * v1 pages (RLE levels with their length prefix, PLAIN values, no compression). */
#include <stdio.h>

#include "format/parquet/encoding.h"
#include "format/parquet/meta.h"
#include "format/parquet/thrift.h"
#include "parquet_test_util.h"
#include "util/bytes.h"

typedef struct leaf_data {
    const char *path[4];
    uint32_t path_len;
    int max_def, max_rep;
    uint8_t def[8], rep[8];
    int entries;
    int32_t values[8];
    int value_count;
} leaf_data;

static void put_levels(pm_buf *b, const uint8_t *levels, int n, int max)
{
    pm_rle_encoder e;
    size_t at = b->len;
    pm_buf_zero(b, 4);
    pm_rle_encoder_init(&e, b, pm_pq_bit_width((uint64_t)max));
    for (int i = 0; i < n; i++)
        pm_rle_put(&e, levels[i]);
    assert_int_equal(pm_rle_finish(&e), 0);
    pm_store_le32(b->data + at, (uint32_t)(b->len - at - 4));
}

/* Writes one column chunk (one data page) at the end of `file`; fills its metadata. */
static void write_chunk(pm_buf *file, const leaf_data *d, pq_column_chunk *cc, int32_t *enc)
{
    pm_buf body, hdr;
    pm_thrift_writer w;
    pq_page_header h;
    int64_t start = (int64_t)file->len;
    pm_buf_init(&body, 0);
    pm_buf_init(&hdr, 0);
    if (d->max_rep > 0)
        put_levels(&body, d->rep, d->entries, d->max_rep);
    if (d->max_def > 0)
        put_levels(&body, d->def, d->entries, d->max_def);
    for (int i = 0; i < d->value_count; i++) {
        uint8_t v[4];
        pm_store_le32(v, (uint32_t)d->values[i]);
        pm_buf_append(&body, v, 4);
    }
    memset(&h, 0, sizeof(h));
    h.type = PQ_DATA_PAGE;
    h.uncompressed_size = h.compressed_size = (int32_t)body.len;
    h.has_data = true;
    h.num_values = d->entries;
    h.encoding = PQ_PLAIN;
    h.def_encoding = h.rep_encoding = PQ_RLE;
    pm_thrift_writer_init(&w, &hdr);
    pm_pq_write_page_header(&w, &h);
    pm_buf_append(file, hdr.data, hdr.len);
    pm_buf_append(file, body.data, body.len);
    memset(cc, 0, sizeof(*cc));
    cc->has_meta = true;
    cc->meta.type = PQ_INT32;
    enc[0] = PQ_PLAIN;
    enc[1] = PQ_RLE;
    cc->meta.encodings = enc;
    cc->meta.encoding_count = 2;
    cc->meta.path = (const char **)(uintptr_t)d->path; /* not written through */
    cc->meta.path_len = d->path_len;
    cc->meta.codec = PQ_UNCOMPRESSED;
    cc->meta.num_values = d->entries;
    cc->meta.total_compressed_size = cc->meta.total_uncompressed_size = (int64_t)file->len - start;
    cc->meta.data_page_offset = start;
    pm_buf_free(&body);
    pm_buf_free(&hdr);
}

static pq_schema_elem group(const char *name, int rep, int children, int converted)
{
    pq_schema_elem e;
    memset(&e, 0, sizeof(e));
    e.name = name;
    e.has_repetition = true;
    e.repetition = rep;
    e.num_children = children;
    e.converted = converted;
    return e;
}

static pq_schema_elem leaf(const char *name, int rep)
{
    pq_schema_elem e = group(name, rep, 0, PQ_CT_NONE);
    e.has_type = true;
    e.type = PQ_INT32;
    return e;
}

static void test_legacy_lists(void **state)
{
    /* rows: {a: [1, 2], r: [7], b: [{x: 5}]}, {a: null, r: [], b: []}, {a: [], r: [8, 9], b: null} */
    static const leaf_data leaves[3] = {
        {{"a", "array"}, 2, 2, 1, {2, 2, 0, 1}, {0, 1, 0, 0}, 4, {1, 2}, 2},
        {{"r"}, 1, 1, 1, {1, 0, 1, 1}, {0, 0, 0, 1}, 4, {7, 8, 9}, 3},
        {{"b", "b_tuple", "x"}, 3, 2, 1, {2, 1, 0}, {0, 0, 0}, 3, {5}, 1},
    };
    pq_schema_elem schema[7];
    pq_column_chunk chunks[3];
    int32_t enc[3][2];
    pq_row_group rg;
    pq_file_meta m;
    pm_buf file, footer;
    pm_thrift_writer w;
    pm_fs *fs = pm_fs_memory_new();
    pm_pq_reader *r;
    paimon_error err = {0};
    pm_buf type;
    char *got;
    uint8_t tail[8];
    (void)state;
    schema[0] = group("schema", PQ_REQUIRED, 3, PQ_CT_NONE);
    schema[1] = group("a", PQ_OPTIONAL, 1, PQ_CT_LIST);
    schema[2] = leaf("array", PQ_REPEATED);
    schema[3] = leaf("r", PQ_REPEATED);
    schema[4] = group("b", PQ_OPTIONAL, 1, PQ_CT_LIST);
    schema[5] = group("b_tuple", PQ_REPEATED, 1, PQ_CT_NONE);
    schema[6] = leaf("x", PQ_REQUIRED);
    pm_buf_init(&file, 0);
    pm_buf_init(&footer, 0);
    pm_buf_append(&file, "PAR1", 4);
    for (int i = 0; i < 3; i++)
        write_chunk(&file, &leaves[i], &chunks[i], enc[i]);
    memset(&rg, 0, sizeof(rg));
    rg.columns = chunks;
    rg.column_count = 3;
    rg.num_rows = 3;
    memset(&m, 0, sizeof(m));
    m.version = 1;
    m.schema = schema;
    m.schema_count = 7;
    m.num_rows = 3;
    m.row_groups = &rg;
    m.row_group_count = 1;
    pm_thrift_writer_init(&w, &footer);
    pm_pq_write_file_meta(&w, &m);
    assert_int_equal(w.rc, 0);
    pm_buf_append(&file, footer.data, footer.len);
    pm_store_le32(tail, (uint32_t)footer.len);
    memcpy(tail + 4, "PAR1", 4);
    pm_buf_append(&file, tail, 8);
    assert_int_equal(pm_fs_write_file(fs, "/legacy.parquet", file.data, file.len, &err), 0);

    r = ptu_open(fs, "/legacy.parquet");
    assert_false(pm_pq_reader_schema(r)->has_ids);
    pm_buf_init(&type, 0);
    pm_type_format(pm_pq_reader_type(r), &type);
    assert_string_equal(pm_buf_cstr(&type),
                        "ROW<a ARRAY<INT NOT NULL>, r ARRAY<INT NOT NULL> NOT NULL, "
                        "b ARRAY<ROW<x INT NOT NULL> NOT NULL>> NOT NULL");
    got = ptu_read_json(r, NULL, NULL, &err);
    assert_string_equal(got, "{\"a\":[1,2],\"r\":[7],\"b\":[{\"x\":5}]}\n"
                             "{\"a\":null,\"r\":[],\"b\":[]}\n"
                             "{\"a\":[],\"r\":[8,9],\"b\":null}\n");
    pm_free(got);
    /* by name, reordered, a subset: the file has no ids */
    {
        pm_type *want =
            ptu_type("b ARRAY<ROW<x INT NOT NULL> NOT NULL>, r ARRAY<INT NOT NULL> NOT NULL");
        pm_pq_read_options o = {0};
        for (size_t i = 0; i < want->field_count; i++)
            want->fields[i].id = 100 + (int32_t)i; /* ids the file does not have */
        o.read_type = want;
        o.batch_rows = 1;
        got = ptu_read_json(r, &o, NULL, &err);
        assert_string_equal(got, "{\"b\":[{\"x\":5}],\"r\":[7]}\n{\"b\":[],\"r\":[]}\n"
                                 "{\"b\":null,\"r\":[8,9]}\n");
        pm_free(got);
        pm_type_free(want);
    }
    pm_pq_reader_free(r);
    pm_buf_free(&type);
    pm_buf_free(&file);
    pm_buf_free(&footer);
    pm_fs_free(fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_legacy_lists),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
