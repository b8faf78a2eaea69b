/* Columnar batches: appenders and the Arrow layout invariants, canonical JSON, filtering,
 * and the Arrow C Data Interface export/import round trip. */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "data/arrow.h"
#include "data/batch.h"
#include "testlib.h"
#include "util/alloc.h"

static pm_type *columns(const char *text)
{
    pm_type *t = NULL;
    paimon_error err = {0};
    if (pm_columns_parse(text, &t, &err) != 0)
        fail_msg("%s", err.message);
    return t;
}

static char *row_json(const pm_batch *b, int64_t row)
{
    pm_buf out;
    paimon_error err = {0};
    pm_buf_init(&out, 0);
    assert_int_equal(pm_batch_row_json(&out, b, row, &err), 0);
    pm_buf_cstr(&out);
    return (char *)pm_buf_detach(&out, NULL);
}

/* A batch of every layout with nulls at each level. */
static pm_batch *sample(void)
{
    pm_type *t = columns("b BOOLEAN, i INT, d DECIMAL(20, 3), s STRING, ts TIMESTAMP(9), "
                         "tm TIME(6), a ARRAY<STRING>, m MAP<INT, DOUBLE>, "
                         "r ROW<x BIGINT, y ARRAY<INT>>, ms MULTISET<STRING>");
    pm_batch *b = NULL;
    paimon_error err = {0};
    assert_int_equal(pm_batch_new(&b, t, &err), 0);
    pm_type_free(t);
    for (int64_t row = 0; row < 3; row++) {
        pm_datum v;
        pm_column **c = b->columns;
        if (row == 1) {
            for (size_t k = 0; k < b->column_count; k++)
                assert_int_equal(pm_column_append_null(c[k]), 0);
            continue;
        }
        v = (pm_datum){.is_null = false, .v.b = row == 0};
        assert_int_equal(pm_column_append_datum(c[0], &v), 0);
        assert_int_equal(pm_column_append_i64(c[1], -7 * (row + 1)), 0);
        v = (pm_datum){.is_null = false, .v.dec = -123456789};
        assert_int_equal(pm_column_append_datum(c[2], &v), 0);
        v = pm_datum_bytes("h\"é\n", 5);
        assert_int_equal(pm_column_append_datum(c[3], &v), 0);
        v = (pm_datum){.is_null = false, .v.ts = {-1, 999999}};
        assert_int_equal(pm_column_append_datum(c[4], &v), 0);
        v = pm_datum_int(3723004); /* 01:02:03.004 */
        assert_int_equal(pm_column_append_datum(c[5], &v), 0);
        /* a: ["x", null] */
        v = pm_datum_bytes("x", 1);
        assert_int_equal(pm_column_append_datum(c[6]->children[0], &v), 0);
        assert_int_equal(pm_column_append_null(c[6]->children[0]), 0);
        assert_int_equal(pm_column_list_end(c[6], true), 0);
        /* m: [[1, 0.5]] */
        assert_int_equal(pm_column_append_i64(c[7]->children[0], 1), 0);
        assert_int_equal(pm_column_append_f64(c[7]->children[1], 0.5), 0);
        assert_int_equal(pm_column_list_end(c[7], true), 0);
        /* r: {x: null, y: []} */
        assert_int_equal(pm_column_append_null(c[8]->children[0]), 0);
        assert_int_equal(pm_column_list_end(c[8]->children[1], true), 0);
        assert_int_equal(pm_column_struct_end(c[8], true), 0);
        /* ms: [["k", 2]] */
        v = pm_datum_bytes("k", 1);
        assert_int_equal(pm_column_append_datum(c[9]->children[0], &v), 0);
        assert_int_equal(pm_column_append_i64(c[9]->children[1], 2), 0);
        assert_int_equal(pm_column_list_end(c[9], true), 0);
    }
    assert_int_equal(pm_batch_set_rows(b, 3, &err), 0);
    assert_int_equal(pm_batch_validate(b, &err), 0);
    return b;
}

static const char *ROW0 =
    "{\"b\":true,\"i\":-7,\"d\":\"-123456.789\",\"s\":\"h\\\"é\\n\","
    "\"ts\":\"1969-12-31 23:59:59.999999999\",\"tm\":\"01:02:03.004000\",\"a\":[\"x\",null],"
    "\"m\":[[1,0.5]],\"r\":{\"x\":null,\"y\":[]},\"ms\":[[\"k\",2]]}";
static const char *ROW1 = "{\"b\":null,\"i\":null,\"d\":null,\"s\":null,\"ts\":null,\"tm\":null,"
                          "\"a\":null,\"m\":null,\"r\":null,\"ms\":null}";

static void test_appenders_and_json(void **state)
{
    pm_batch *b = sample();
    char *j;
    paimon_error err = {0};
    (void)state;
    j = row_json(b, 0);
    assert_string_equal(j, ROW0);
    pm_free(j);
    j = row_json(b, 1);
    assert_string_equal(j, ROW1);
    pm_free(j);
    /* the null ROW still holds a (null) slot in each child; the null list an empty range */
    assert_int_equal(b->columns[8]->children[0]->length, 3);
    assert_int_equal(pm_column_offset(b->columns[6], 1), pm_column_offset(b->columns[6], 2));
    assert_int_equal(b->columns[1]->null_count, 1);
    /* a broken batch is reported */
    b->columns[1]->null_count = 0;
    assert_int_equal(pm_batch_validate(b, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "i:"));
    b->columns[1]->null_count = 1;
    pm_batch_free(b);
}

static void test_filter_and_reset(void **state)
{
    pm_batch *b = sample(), *f = NULL;
    uint8_t sel[3] = {0, 1, 1};
    paimon_error err = {0};
    char *j;
    (void)state;
    assert_int_equal(pm_batch_filter(b, sel, &f, &err), 0);
    assert_int_equal(f->row_count, 2);
    assert_int_equal(pm_batch_validate(f, &err), 0);
    j = row_json(f, 0);
    assert_string_equal(j, ROW1);
    pm_free(j);
    j = row_json(f, 1);
    assert_non_null(strstr(j, "\"i\":-21"));
    pm_free(j);
    pm_batch_reset(b);
    assert_int_equal(b->row_count, 0);
    assert_int_equal(pm_batch_validate(b, &err), 0);
    pm_batch_free(f);
    pm_batch_free(b);
}

/* The Arrow arrays of an exported batch hold the batch's memory; importing gives the same
 * rows; a child moved out by the consumer is released on its own. */
static void test_arrow_roundtrip(void **state)
{
    pm_batch *b = sample(), *back = NULL;
    pm_type *t = pm_type_clone(b->type);
    struct ArrowSchema schema;
    struct ArrowArray array, moved;
    paimon_error err = {0};
    char *j0 = row_json(b, 0), *j2 = row_json(b, 2), *k;
    const void *values_buffer = b->columns[1]->values.data;
    (void)state;
    assert_int_equal(pm_arrow_export_schema(t, &schema, &err), 0);
    assert_string_equal(schema.format, "+s");
    assert_int_equal(schema.n_children, 10);
    assert_string_equal(schema.children[2]->format, "d:20,3");
    assert_string_equal(schema.children[4]->format, "tsn:");
    assert_string_equal(schema.children[5]->format, "ttu");
    assert_string_equal(schema.children[7]->format, "+m");
    assert_string_equal(schema.children[7]->children[0]->format, "+s");
    assert_int_equal(schema.children[7]->children[0]->children[0]->flags, 0); /* keys not null */
    assert_int_equal(schema.children[1]->flags, ARROW_FLAG_NULLABLE);

    assert_int_equal(pm_arrow_export_batch(b, &array, &err), 0); /* takes b */
    assert_int_equal(array.length, 3);
    assert_int_equal(array.n_children, 10);
    assert_ptr_equal(array.children[1]->buffers[1], values_buffer); /* zero copy */
    assert_int_equal(array.children[1]->null_count, 1);
    assert_int_equal(array.children[7]->n_children, 1);              /* map entries */
    assert_int_equal(array.children[7]->children[0]->n_children, 2); /* key, value */

    assert_int_equal(pm_arrow_import_batch(t, &schema, &array, &back, &err), 0);
    assert_int_equal(pm_batch_validate(back, &err), 0);
    k = row_json(back, 0);
    assert_string_equal(k, j0);
    pm_free(k);
    k = row_json(back, 2);
    assert_string_equal(k, j2);
    pm_free(k);
    pm_batch_free(back);

    /* a sliced array imports from its offset */
    array.offset = 2;
    array.length = 1;
    assert_int_equal(pm_arrow_import_batch(t, &schema, &array, &back, &err), 0);
    k = row_json(back, 0);
    assert_string_equal(k, j2);
    pm_free(k);
    pm_batch_free(back);
    array.offset = 0;
    array.length = 3;

    /* move a child out, release the parent, then the child */
    moved = *array.children[3];
    array.children[3]->release = NULL;
    array.release(&array);
    assert_null(array.release);
    assert_int_equal(moved.length, 3);
    moved.release(&moved);
    schema.release(&schema);
    /* a mismatching schema is refused */
    {
        pm_type *other = columns("x BIGINT");
        pm_batch *b2 = sample();
        assert_int_equal(pm_arrow_export_schema(t, &schema, &err), 0);
        assert_int_equal(pm_arrow_export_batch(b2, &array, &err), 0);
        assert_int_equal(pm_arrow_import_batch(other, &schema, &array, &back, &err),
                         PAIMON_EINVALID);
        array.release(&array);
        schema.release(&schema);
        pm_type_free(other);
    }
    pm_free(j0);
    pm_free(j2);
    pm_type_free(t);
}

/* Layout facts the decoders rely on. */
static void test_layouts(void **state)
{
    uint32_t w;
    pm_type *t = columns("a TIME(3), b TIME(9), c TIMESTAMP(0), d DECIMAL(38, 0), e VARBINARY(3)");
    (void)state;
    assert_int_equal(pm_layout_of(t->fields[0].type, &w), PM_LAYOUT_FIXED);
    assert_int_equal(w, 4);
    assert_int_equal(pm_layout_of(t->fields[1].type, &w), PM_LAYOUT_FIXED);
    assert_int_equal(w, 8);
    assert_int_equal(pm_timestamp_units_per_second(0), 1);
    assert_int_equal(pm_timestamp_units_per_second(7), 1000000000);
    assert_int_equal(pm_time_units_per_second(0), 1000);
    assert_int_equal(pm_layout_of(t->fields[3].type, &w), PM_LAYOUT_FIXED);
    assert_int_equal(w, 16);
    assert_int_equal(pm_layout_of(t->fields[4].type, &w), PM_LAYOUT_VAR);
    pm_type_free(t);
}

/* A batch whose column `a` has one slot more than the batch has rows. */
static pm_batch *misaligned(void)
{
    pm_type *t = columns("a BIGINT, b STRING");
    pm_batch *b = NULL;
    paimon_error err = {0};
    assert_int_equal(pm_batch_new(&b, t, &err), 0);
    pm_type_free(t);
    assert_int_equal(pm_column_append_i64(b->columns[0], 1), 0);
    assert_int_equal(pm_column_append_bytes(b->columns[1], "x", 1), 0);
    assert_int_equal(pm_batch_set_rows(b, 1, &err), 0);
    assert_int_equal(pm_column_append_i64(b->columns[0], 2), 0); /* a: 2 slots, 1 row */
    return b;
}

static void filter_misaligned(void *arg)
{
    static const uint8_t keep[2] = {1, 1};
    pm_batch *out = NULL;
    PM_IGNORE(pm_batch_filter(arg, keep, &out, NULL));
    pm_batch_free(out);
}

/* Batch validity (pm_batch_is_aligned) and the assertion that guards it in debug builds. */
static void test_aligned(void **state)
{
    pm_batch *b = sample(), *bad = misaligned();
    pm_buf err;
    int status;
    (void)state;
    assert_true(pm_batch_is_aligned(b));
    assert_false(pm_batch_is_aligned(bad));
    pm_buf_init(&err, 0);
    if (pm_test_asserts_active()) {
        status = pm_test_fork(filter_misaligned, bad, &err);
        assert_true(WIFSIGNALED(status));
        assert_int_equal(WTERMSIG(status), SIGABRT);
        assert_non_null(strstr(pm_buf_cstr(&err), "batch.c:"));
        assert_non_null(strstr(pm_buf_cstr(&err), "assertion failed: pm_batch_is_aligned(b)"));
    }
    pm_buf_free(&err);
    pm_batch_free(bad);
    pm_batch_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_appenders_and_json),
        cmocka_unit_test(test_filter_and_reset),
        cmocka_unit_test(test_arrow_roundtrip),
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_aligned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
