/*
 * Input round trips (data/input.h): batches of random values of every Paimon type are
 * printed with the canonical printer (pm_column_json, as `paimon cat --format jsonl`) and as
 * CSV (pm_column_text and the quoting of `paimon cat --format csv`), read back with the
 * input reader, and compared value by value with what was printed.  Each text is read from
 * memory and through a FILE with tiny reads, in batches of a few rows, with and without
 * the fast paths.  Keys come in a random order, null keys are sometimes left out, the CSV
 * header lists the columns in a random order, drops some nullable ones and carries
 * _ROW_KIND somewhere: all of that must read back to the same rows.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "data/input.h"
#include "testlib.h"
#include "util/alloc.h"
#include "util/json.h"

/* Every type, nullable and not, nested in every way. */
static const char *ALL_TYPES =
    "b BOOLEAN, t TINYINT, s SMALLINT, i INT NOT NULL, l BIGINT, f FLOAT, d DOUBLE, "
    "d52 DECIMAL(5, 2), d184 DECIMAL(18, 4), d3810 DECIMAL(38, 10), d380 DECIMAL(38, 0), "
    "c5 CHAR(5), v10 VARCHAR(10), str STRING, bin4 BINARY(4), vb8 VARBINARY(8), by BYTES, "
    "dt DATE, tm0 TIME(0), tm3 TIME(3), tm6 TIME(6), tm9 TIME(9), ts0 TIMESTAMP(0), "
    "ts1 TIMESTAMP(1), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), ts9 TIMESTAMP(9), "
    "lz3 TIMESTAMP(3) WITH LOCAL TIME ZONE, lz9 TIMESTAMP(9) WITH LOCAL TIME ZONE, "
    "ai ARRAY<INT>, an ARRAY<STRING NOT NULL>, msd MAP<STRING, DOUBLE>, "
    "mia MAP<INT, ARRAY<DATE>>, ms MULTISET<STRING>, "
    "r ROW<x INT, y ROW<z STRING, w DECIMAL(10, 2) NOT NULL>, q BYTES>, "
    "ar ARRAY<ROW<a BIGINT, b TIMESTAMP(6)>>, `odd name` STRING";

static uint64_t rng;

static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static pm_type *columns(const char *text)
{
    pm_type *t = NULL;
    paimon_error err = {0};
    if (pm_columns_parse(text, &t, &err) != 0)
        fail_msg("%s", err.message);
    return t;
}

/* ---- random values --------------------------------------------------------------------- */

static const char *PIECES[] = {"a",    "Z", " ", ",", "\"", "\n", "\r", "\t", "\\", "\x01",
                               "\x7f", "é", "€", "😀", "0",  "-",  "{",  "]",  "'",  ":"};

static void random_string(char *out, size_t *len, int max_chars)
{
    int n = (int)(rnd() % (uint64_t)(max_chars < 12 ? max_chars + 1 : 13));
    size_t o = 0;
    if (rnd() % 40 == 0 && max_chars >= 1) { /* a NUL byte now and then */
        out[o++] = '\0';
        n--;
    }
    for (int i = 0; i < n; i++) {
        const char *p = PIECES[rnd() % (sizeof(PIECES) / sizeof(PIECES[0]))];
        memcpy(out + o, p, strlen(p));
        o += strlen(p);
    }
    *len = o;
}

static int64_t pick(int64_t lo, int64_t hi)
{
    switch (rnd() % 8) {
    case 0: return lo;
    case 1: return hi;
    case 2: return 0 >= lo && 0 <= hi ? 0 : lo;
    default: {
        uint64_t span = (uint64_t)hi - (uint64_t)lo + 1; /* 0 for the whole int64 range */
        return (int64_t)((uint64_t)lo + (span == 0 ? rnd() : rnd() % span));
    }
    }
}

static void append_random(pm_column *c, int depth);

static void append_scalar(pm_column *c)
{
    const pm_type *t = c->type;
    pm_datum d = {.is_null = false};
    char s[128];
    size_t n;
    switch (t->id) {
    case PM_TYPE_BOOLEAN: d.v.b = rnd() & 1; break;
    case PM_TYPE_TINYINT: d.v.i = pick(INT8_MIN, INT8_MAX); break;
    case PM_TYPE_SMALLINT: d.v.i = pick(INT16_MIN, INT16_MAX); break;
    case PM_TYPE_INT: d.v.i = pick(INT32_MIN, INT32_MAX); break;
    case PM_TYPE_BIGINT:
        d.v.i = rnd() % 4 == 0 ? (int64_t)rnd() : pick(INT64_MIN, INT64_MAX);
        break;
    case PM_TYPE_FLOAT: {
        uint32_t bits = (uint32_t)rnd();
        if (rnd() % 2)
            d.v.f = (float)((int64_t)(rnd() % 2000001) - 1000000) / 1000.0f;
        else
            memcpy(&d.v.f, &bits, 4);
        break;
    }
    case PM_TYPE_DOUBLE: {
        uint64_t bits = rnd();
        switch (rnd() % 4) {
        case 0: d.v.d = (double)((int64_t)(rnd() % 20000001) - 10000000) / 100.0; break;
        case 1: d.v.d = (double)(rnd() >> 11) / 9007199254740992.0 * 1e5; break;
        case 2: {
            static const double special[] = {INFINITY, -INFINITY, NAN,
                                             -0.0,     5e-324,    1.7976931348623157e308};
            d.v.d = special[rnd() % 6];
            break;
        }
        default: memcpy(&d.v.d, &bits, 8); break;
        }
        break;
    }
    case PM_TYPE_DECIMAL: {
        int digits = (int)(rnd() % (uint64_t)(t->precision + 1));
        pm_int128 v = 0;
        for (int i = 0; i < digits; i++)
            v = v * 10 + (pm_int128)(rnd() % 10);
        d.v.dec = rnd() % 3 == 0 ? -v : v;
        break;
    }
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
        random_string(s, &n, t->length > 30 ? 30 : t->length);
        d.v.s.ptr = (const uint8_t *)s;
        d.v.s.len = n;
        break;
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY:
        n = rnd() % (uint64_t)((t->length > 20 ? 20 : t->length) + 1);
        for (size_t i = 0; i < n; i++)
            s[i] = (char)rnd();
        d.v.s.ptr = (const uint8_t *)s;
        d.v.s.len = n;
        break;
    case PM_TYPE_DATE:
        d.v.i = rnd() % 5 == 0 ? pick(INT32_MIN, INT32_MAX) : pick(-800000, 3000000);
        break;
    case PM_TYPE_TIME: {
        int64_t per = pm_time_units_per_second(t->precision), step;
        int64_t v = pick(0, 86400 * per - 1);
        if (t->precision <= 3) /* stored as milliseconds; the precision keeps 10^(3-p) steps */
            step = 1000 / (int64_t)pow(10, t->precision);
        else
            step = per / (int64_t)pow(10, t->precision);
        v -= v % step;
        /* the appender takes milliseconds: write the raw value for sub-millisecond TIME */
        if (t->precision > 3) {
            assert_int_equal(pm_column_append_i64(c, v), 0);
            return;
        }
        d.v.i = v;
        break;
    }
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: {
        /* a raw value in the column's unit, years -9999..99999, aligned to the precision */
        int64_t per = pm_timestamp_units_per_second(t->precision);
        int64_t lim = per >= 1000000000 ? INT64_MAX / 2 : 3000000000000LL * per;
        int64_t v = pick(-lim / 10, lim);
        int64_t step = per / (int64_t)pow(10, t->precision);
        if (t->precision == 0)
            step = 1;
        v -= v % step;
        assert_int_equal(pm_column_append_i64(c, v), 0);
        return;
    }
    default: fail_msg("unexpected type %d", t->id);
    }
    assert_int_equal(pm_column_append_datum(c, &d), 0);
}

static void append_random(pm_column *c, int depth)
{
    if (c->type->nullable && rnd() % 8 == 0) {
        assert_int_equal(pm_column_append_null(c), 0);
        return;
    }
    switch (c->layout) {
    case PM_LAYOUT_LIST: {
        int n = (int)(rnd() % (depth > 1 ? 2 : 4));
        for (int i = 0; i < n; i++)
            append_random(c->children[0], depth + 1);
        assert_int_equal(pm_column_list_end(c, true), 0);
        return;
    }
    case PM_LAYOUT_MAP: {
        int n = (int)(rnd() % 4);
        for (int i = 0; i < n; i++) {
            append_random(c->children[0], depth + 1);
            append_random(c->children[1], depth + 1);
        }
        assert_int_equal(pm_column_list_end(c, true), 0);
        return;
    }
    case PM_LAYOUT_STRUCT:
        for (size_t i = 0; i < c->child_count; i++)
            append_random(c->children[i], depth + 1);
        assert_int_equal(pm_column_struct_end(c, true), 0);
        return;
    default: append_scalar(c);
    }
}

static pm_batch *random_batch(const pm_type *row, int64_t rows)
{
    pm_batch *b = NULL;
    paimon_error err = {0};
    assert_int_equal(pm_batch_new(&b, row, &err), 0);
    for (int64_t r = 0; r < rows; r++)
        for (size_t k = 0; k < b->column_count; k++)
            append_random(b->columns[k], 0);
    assert_int_equal(pm_batch_set_rows(b, rows, &err), 0);
    assert_int_equal(pm_batch_validate(b, &err), 0);
    return b;
}

/* ---- printing -------------------------------------------------------------------------- */

static const char *KINDS[] = {"+I", "-U", "+U", "-D"};

static char *cell(const pm_column *c, int64_t i)
{
    pm_buf out;
    paimon_error err = {0};
    pm_buf_init(&out, 0);
    assert_int_equal(pm_column_json(&out, c, i, &err), 0);
    pm_buf_cstr(&out);
    return (char *)pm_buf_detach(&out, NULL);
}

static void shuffle(size_t *a, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = rnd() % i, t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

/* JSONL with keys in a random order, null keys sometimes left out, _ROW_KIND sometimes. */
static void print_jsonl(const pm_batch *b, const int8_t *kinds, pm_buf *out)
{
    size_t n = b->column_count, *perm = pm_calloc(n, sizeof(size_t));
    paimon_error err = {0};
    for (int64_t r = 0; r < b->row_count; r++) {
        bool first = true;
        for (size_t k = 0; k < n; k++)
            perm[k] = k;
        if (rnd() % 2)
            shuffle(perm, n);
        pm_buf_puts(out, rnd() % 4 == 0 ? " { " : "{");
        if (kinds[r] != 0 || rnd() % 4 == 0) {
            pm_buf_printf(out, "\"_ROW_KIND\":\"%s\"", KINDS[kinds[r]]);
            first = false;
        }
        for (size_t k = 0; k < n; k++) {
            const pm_column *c = b->columns[perm[k]];
            const char *name = b->type->fields[perm[k]].name;
            if (!pm_column_is_valid(c, r) && rnd() % 2)
                continue;
            if (!first)
                pm_buf_puts(out, rnd() % 8 == 0 ? " ,\t" : ",");
            first = false;
            pm_json_quote(out, name, strlen(name));
            pm_buf_puts(out, rnd() % 8 == 0 ? " : " : ":");
            assert_int_equal(pm_column_json(out, c, r, &err), 0);
        }
        pm_buf_puts(out, "}");
        pm_buf_puts(out, rnd() % 8 == 0 ? "\r\n" : "\n");
        if (rnd() % 10 == 0)
            pm_buf_puts(out, rnd() % 2 ? "\n" : "  \t\n"); /* blank lines are skipped */
    }
    pm_free(perm);
}

/* CSV with the header in `order` (indexes into the columns, -1 for _ROW_KIND). */
static void print_csv(const pm_batch *b, const int8_t *kinds, const long *order, size_t fields,
                      bool crlf, pm_buf *out)
{
    pm_buf text;
    paimon_error err = {0};
    pm_buf_init(&text, 0);
    for (size_t f = 0; f < fields; f++) {
        const char *name = order[f] < 0 ? "_ROW_KIND" : b->type->fields[order[f]].name;
        if (f > 0)
            pm_buf_putc(out, ',');
        pm_input_csv_field(out, name, strlen(name));
    }
    pm_buf_puts(out, crlf ? "\r\n" : "\n");
    for (int64_t r = 0; r < b->row_count; r++) {
        for (size_t f = 0; f < fields; f++) {
            bool is_null;
            if (f > 0)
                pm_buf_putc(out, ',');
            if (order[f] < 0) {
                if (kinds[r] != 0 || rnd() % 2)
                    pm_buf_puts(out, KINDS[kinds[r]]);
                continue;
            }
            pm_buf_reset(&text);
            assert_int_equal(pm_column_text(&text, b->columns[order[f]], r, &is_null, &err), 0);
            if (!is_null)
                pm_input_csv_field(out, (const char *)text.data, text.len);
        }
        pm_buf_puts(out, crlf ? "\r\n" : "\n");
    }
    pm_buf_free(&text);
}

/* ---- reading back ---------------------------------------------------------------------- */

/* Reads `text` and checks every row against `b` (columns not in `present` must be null). */
static void read_back(pm_input_format fmt, const pm_buf *text, const pm_batch *b,
                      const int8_t *kinds, const bool *present, bool via_file, bool fast)
{
    pm_input_options opts = PM_INPUT_OPTIONS_INIT;
    pm_row_input *in = NULL;
    paimon_error err = {0};
    FILE *f = NULL;
    pm_batch *got;
    const int8_t *gk;
    int64_t row = 0;
    int rc;

    opts.batch_rows = 1 + (int64_t)(rnd() % 7);
    opts.read_len = 1 + rnd() % 13;
    opts.flags = fast ? 0 : PM_INPUT_NO_FAST_PATHS;
    if (via_file) {
        f = fmemopen(text->data, text->len, "r");
        assert_non_null(f);
        rc = pm_input_open_file(&in, fmt, f, b->type, &opts, &err);
    } else {
        rc = pm_input_open_buffer(&in, fmt, text->data, text->len, b->type, &opts, &err);
    }
    assert_int_equal(rc, 0);
    while ((rc = pm_input_next(in, &got, &gk, &err)) == 0) {
        assert_true(got->row_count >= 1 && got->row_count <= opts.batch_rows);
        assert_int_equal(pm_batch_validate(got, &err), 0);
        for (int64_t r = 0; r < got->row_count; r++, row++) {
            assert_true(row < b->row_count);
            assert_int_equal(gk[r], kinds[row]);
            for (size_t k = 0; k < b->column_count; k++) {
                char *want = present[k] ? cell(b->columns[k], row) : pm_strdup("null");
                char *have = cell(got->columns[k], r);
                if (strcmp(want, have) != 0)
                    fail_msg("%s row %lld column %s: printed %s, read back %s\n%.*s",
                             pm_input_format_name(fmt), (long long)row, b->type->fields[k].name,
                             want, have, (int)(text->len < 3000 ? text->len : 3000),
                             (const char *)text->data);
                pm_free(want);
                pm_free(have);
            }
        }
    }
    if (rc != PAIMON_ITEROVER)
        fail_msg("%s: %s\n%.*s", pm_input_format_name(fmt), err.message,
                 (int)(text->len < 3000 ? text->len : 3000), (const char *)text->data);
    assert_int_equal(row, b->row_count);
    /* the end is sticky */
    assert_int_equal(pm_input_next(in, &got, &gk, &err), PAIMON_ITEROVER);
    pm_input_free(in);
    if (f != NULL)
        fclose(f);
}

static void roundtrip_seed(const pm_type *row, uint64_t seed, int64_t rows)
{
    pm_batch *b;
    int8_t *kinds = pm_calloc((size_t)rows + 1, 1);
    bool *present = pm_calloc(row->field_count, sizeof(bool));
    long *order = pm_calloc(row->field_count + 1, sizeof(long));
    pm_buf text;
    size_t fields = 0;

    rng = seed;
    b = random_batch(row, rows);
    for (int64_t r = 0; r < rows; r++)
        kinds[r] = rnd() % 3 == 0 ? (int8_t)(rnd() % 4) : 0;

    /* JSONL: every column present (missing keys are null keys left out) */
    for (size_t k = 0; k < row->field_count; k++)
        present[k] = true;
    pm_buf_init(&text, 0);
    print_jsonl(b, kinds, &text);
    for (int mode = 0; mode < 4; mode++)
        read_back(PM_INPUT_JSONL, &text, b, kinds, present, mode & 1, mode < 2);

    /* CSV: a random header order, some nullable columns dropped, _ROW_KIND somewhere */
    for (size_t k = 0; k < row->field_count; k++) {
        present[k] = !row->fields[k].type->nullable || rnd() % 6 != 0;
        if (present[k])
            order[fields++] = (long)k;
    }
    order[fields++] = -1;
    for (size_t i = fields; i > 1; i--) {
        size_t j = rnd() % i;
        long t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    pm_buf_reset(&text);
    print_csv(b, kinds, order, fields, rnd() % 2, &text);
    for (int mode = 0; mode < 4; mode++)
        read_back(PM_INPUT_CSV, &text, b, kinds, present, mode & 1, mode < 2);

    pm_buf_free(&text);
    pm_batch_free(b);
    pm_free(kinds);
    pm_free(present);
    pm_free(order);
}

static void test_every_type(void **state)
{
    pm_type *row = columns(ALL_TYPES);
    (void)state;
    for (uint64_t seed = 1; seed <= 40; seed++)
        roundtrip_seed(row, seed * 0x9e3779b97f4a7c15ull, 1 + (int64_t)(seed % 9) * 3);
    pm_type_free(row);
}

/* One column of each type alone: a single-column CSV prints NULL as an empty line. */
static void test_single_columns(void **state)
{
    pm_type *row = columns(ALL_TYPES);
    (void)state;
    for (size_t k = 0; k < row->field_count; k++) {
        pm_type *one = pm_type_new(PM_TYPE_ROW);
        assert_int_equal(pm_type_row_add(one, row->fields[k].id, row->fields[k].name,
                                         pm_type_clone(row->fields[k].type)),
                         0);
        for (uint64_t seed = 1; seed <= 4; seed++)
            roundtrip_seed(one, (k + 1) * 1000 + seed, 12);
        pm_type_free(one);
    }
    pm_type_free(row);
}

/* The shapes the fast paths take, at their edges, through both paths. */
static void test_fast_path_edges(void **state)
{
    static const char *ROWS =
        "{\"i\":0,\"l\":-0,\"d\":-0.0,\"dec\":\"-0.00\",\"s\":\"\",\"ts\":\"1970-01-01 "
        "00:00:00\"}\n"
        "{\"i\":2147483647,\"l\":999999999999999999,\"d\":0.1,\"dec\":\"9999999999999999.99\","
        "\"s\":\"abcdefghij\",\"ts\":\"2262-04-11 23:47:16.854775807\"}\n"
        "{\"i\":-2147483648,\"l\":-9223372036854775808,\"d\":1234567890123456789,"
        "\"dec\":\"-1\",\"s\":\"x\",\"ts\":\"1677-09-21T00:12:43.145224192\"}\n"
        "{\"i\":7,\"l\":1e3,\"d\":1e-7,\"dec\":1.5,\"s\":\"\\u00e9\",\"ts\":\"2024-02-29 "
        "12:00:00.1\"}\n";
    pm_type *row = columns("i INT, l DOUBLE, d DOUBLE, dec DECIMAL(18, 2), s VARCHAR(10), "
                           "ts TIMESTAMP(9)");
    char *out[2] = {NULL, NULL};
    (void)state;
    for (int fast = 0; fast < 2; fast++) {
        pm_input_options opts = PM_INPUT_OPTIONS_INIT;
        pm_row_input *in = NULL;
        paimon_error err = {0};
        pm_batch *b;
        const int8_t *k;
        pm_buf text;
        opts.flags = fast ? 0 : PM_INPUT_NO_FAST_PATHS;
        pm_buf_init(&text, 0);
        assert_int_equal(
            pm_input_open_buffer(&in, PM_INPUT_JSONL, ROWS, strlen(ROWS), row, &opts, &err), 0);
        while (pm_input_next(in, &b, &k, &err) == 0)
            for (int64_t r = 0; r < b->row_count; r++) {
                assert_int_equal(pm_batch_row_json(&text, b, r, &err), 0);
                pm_buf_putc(&text, '\n');
            }
        assert_int_equal(err.code, 0);
        pm_input_free(in);
        out[fast] = pm_strdup(pm_buf_cstr(&text));
        pm_buf_free(&text);
    }
    assert_string_equal(out[0], out[1]);
    assert_string_equal(
        out[1],
        "{\"i\":0,\"l\":-0,\"d\":-0,\"dec\":\"0.00\",\"s\":\"\",\"ts\":\"1970-01-01 "
        "00:00:00.000000000\"}\n"
        "{\"i\":2147483647,\"l\":1e18,\"d\":0.1,\"dec\":\"9999999999999999.99\",\"s\":"
        "\"abcdefghij\",\"ts\":\"2262-04-11 23:47:16.854775807\"}\n"
        "{\"i\":-2147483648,\"l\":-9.223372036854776e18,\"d\":1.2345678901234568e18,\"dec\":"
        "\"-1.00\",\"s\":\"x\",\"ts\":\"1677-09-21 00:12:43.145224192\"}\n"
        "{\"i\":7,\"l\":1e3,\"d\":1e-7,\"dec\":\"1.50\",\"s\":\"é\",\"ts\":\"2024-02-29 "
        "12:00:00.100000000\"}\n");
    pm_free(out[0]);
    pm_free(out[1]);
    pm_type_free(row);
}

/* Reading from a FILE in 1-byte reads gives the same batches as reading the buffer. */
static void test_large_records_through_file(void **state)
{
    pm_type *row = columns("s STRING, a ARRAY<BIGINT>");
    pm_buf text, big;
    pm_input_options opts = PM_INPUT_OPTIONS_INIT;
    pm_row_input *in = NULL;
    paimon_error err = {0};
    pm_batch *b;
    const int8_t *k;
    FILE *f;
    int64_t rows = 0;
    (void)state;
    pm_buf_init(&text, 0);
    pm_buf_init(&big, 0);
    for (int i = 0; i < 20000; i++)
        pm_buf_putc(&big, (uint8_t)('a' + i % 26));
    for (int r = 0; r < 50; r++) {
        pm_buf_printf(&text, "{\"s\":\"%.*s\",\"a\":[", r * 400, (const char *)big.data);
        for (int j = 0; j < r * 10; j++)
            pm_buf_printf(&text, "%s%d", j > 0 ? "," : "", j * 1000003);
        pm_buf_puts(&text, "]}\n");
    }
    opts.read_len = 1000;
    opts.batch_rows = 7;
    f = fmemopen(text.data, text.len, "r");
    assert_int_equal(pm_input_open_file(&in, PM_INPUT_JSONL, f, row, &opts, &err), 0);
    while (pm_input_next(in, &b, &k, &err) == 0) {
        for (int64_t r = 0; r < b->row_count; r++, rows++) {
            pm_datum d;
            pm_column_get_datum(b->columns[0], r, &d);
            assert_int_equal(d.v.s.len, (size_t)rows * 400);
            assert_int_equal(pm_column_offset(b->columns[1], r + 1) -
                                 pm_column_offset(b->columns[1], r),
                             rows * 10);
        }
    }
    assert_int_equal(err.code, 0);
    assert_int_equal(rows, 50);
    pm_input_free(in);
    fclose(f);
    pm_buf_free(&text);
    pm_buf_free(&big);
    pm_type_free(row);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_type),
        cmocka_unit_test(test_single_columns),
        cmocka_unit_test(test_fast_path_edges),
        cmocka_unit_test(test_large_records_through_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
