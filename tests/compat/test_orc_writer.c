/*
 * The ORC writer against Java-written files.  No independent ORC implementation runs here,
 * so the check is the Java writer's own output (the fixtures):
 *  - every ORC file in the fixtures written by ORC Java (footer writer 0), data files and
 *    manifests alike, is read and its rows written again by paimon-c's writer with the same
 *    types and compression: the result has the same layout -- type tree and attributes,
 *    stripes, stream directory, encodings, row index positions and statistics, stripe and
 *    file statistics -- and the same decompressed bytes in every stream, and it reads back
 *    to the same rows.  Only writerTimezone differs (paimon-c writes UTC wall clocks) and
 *    the sizes of compressed bytes, which come from a different zstd.
 *  - every Java-written ORC manifest in the current 1.4 layout, decoded into the manifest
 *    structs and encoded by pm_manifest_orc_encode, gives the same layout and bytes.
 */
#include <string.h>

#include "testlib.h"

#include "format/orc/orc_describe.h"
#include "format/orc/orc_writer.h"
#include "meta/manifest.h"
#include "meta/manifest_orc.h"
#include "util/alloc.h"

/* The writer's input view of a decoded vector. */
static void view_of(const pm_orc_vec *v, pm_orc_colview *cv)
{
    memset(cv, 0, sizeof(*cv));
    cv->validity = v->validity.len > 0 ? v->validity.data : NULL;
    cv->values = v->values.data;
    cv->offsets = (const int32_t *)(const void *)v->offsets.data;
    cv->nanos = (const int32_t *)(const void *)v->nanos.data;
    if (v->child_count > 0) {
        pm_orc_colview *ch = test_calloc(v->child_count, sizeof(*ch));
        for (size_t i = 0; i < v->child_count; i++)
            view_of(v->children[i], &ch[i]);
        cv->children = ch;
    }
}

static void view_free(const pm_orc_vec *v, pm_orc_colview *cv)
{
    for (size_t i = 0; v->child_count > 0 && i < v->child_count; i++)
        view_free(v->children[i], (pm_orc_colview *)&cv->children[i]);
    test_free((void *)cv->children);
}

/* Canonical text of one slot, for comparing decoded rows. */
static void slot_text(pm_buf *out, const pm_orc_vec *v, int64_t i)
{
    if (!pm_orc_vec_valid(v, i)) {
        pm_buf_puts(out, "null");
        return;
    }
    switch (v->type->kind) {
    case PM_ORC_BOOLEAN: pm_buf_printf(out, "%d", (v->values.data[i >> 3] >> (i & 7)) & 1); break;
    case PM_ORC_BYTE: pm_buf_printf(out, "%d", (int8_t)v->values.data[i]); break;
    case PM_ORC_SHORT:
    case PM_ORC_INT:
    case PM_ORC_DATE:
    case PM_ORC_LONG:
    case PM_ORC_FLOAT:
    case PM_ORC_DOUBLE:
    case PM_ORC_DECIMAL: {
        size_t w = v->values.len / (size_t)(v->length > 0 ? v->length : 1);
        pm_buf_puts(out, pm_test_hex(v->values.data + (size_t)i * w, w));
        break;
    }
    case PM_ORC_TIMESTAMP:
    case PM_ORC_TIMESTAMP_INSTANT: {
        int64_t ms;
        int32_t ns;
        memcpy(&ms, v->values.data + 8 * i, 8);
        memcpy(&ns, v->nanos.data + 4 * i, 4);
        pm_buf_printf(out, "%lld+%d", (long long)ms, ns);
        break;
    }
    case PM_ORC_STRING:
    case PM_ORC_VARCHAR:
    case PM_ORC_CHAR:
    case PM_ORC_BINARY: {
        int32_t a = pm_orc_vec_offset(v, i), b = pm_orc_vec_offset(v, i + 1);
        pm_buf_puts(out, pm_test_hex(v->values.data + a, (size_t)(b - a)));
        break;
    }
    case PM_ORC_LIST:
    case PM_ORC_MAP: {
        int32_t a = pm_orc_vec_offset(v, i), b = pm_orc_vec_offset(v, i + 1);
        pm_buf_putc(out, '[');
        for (int32_t k = a; k < b; k++)
            for (size_t c = 0; c < v->child_count; c++) {
                slot_text(out, v->children[c], k);
                pm_buf_putc(out, ',');
            }
        pm_buf_putc(out, ']');
        break;
    }
    case PM_ORC_STRUCT:
        pm_buf_putc(out, '{');
        for (size_t c = 0; c < v->child_count; c++) {
            slot_text(out, v->children[c], i);
            pm_buf_putc(out, ',');
        }
        pm_buf_putc(out, '}');
        break;
    default: break;
    }
}

static void rows_text(const uint8_t *data, size_t len, pm_buf *out)
{
    pm_orc_reader *r;
    const pm_orc_vec *v;
    paimon_error err = {0};
    int rc;
    assert_int_equal(pm_orc_reader_open_memory(&r, data, len, "rows", &err), 0);
    assert_int_equal(pm_orc_reader_start(r, NULL, &err), 0);
    while ((rc = pm_orc_reader_next(r, &v, &err)) == 0)
        for (int64_t i = 0; i < v->length; i++) {
            slot_text(out, v, i);
            pm_buf_putc(out, '\n');
        }
    assert_int_equal(rc, PAIMON_ITEROVER);
    pm_orc_reader_free(r);
}

/* The layout without the lines that depend on who wrote the file. */
static void layout(const uint8_t *data, size_t len, pm_buf *out)
{
    pm_orc_reader *r;
    pm_orc_describe_options o = {false, true};
    paimon_error err = {0};
    pm_buf all;
    const char *line;
    pm_buf_init(&all, 0);
    assert_int_equal(pm_orc_reader_open_memory(&r, data, len, "layout", &err), 0);
    if (pm_orc_describe(r, &o, &all, &err) != 0)
        fail_msg("%s", err.message);
    pm_orc_reader_free(r);
    for (line = pm_buf_cstr(&all); *line != '\0';) {
        const char *nl = strchr(line, '\n');
        size_t n = nl != NULL ? (size_t)(nl - line) + 1 : strlen(line);
        /* "file ..." names the writer; a stripe line ends with the writer's time zone */
        if (strncmp(line, "file ", 5) != 0) {
            const char *tz = strstr(line, " timezone ");
            pm_buf_append(out, line, tz != NULL && tz < line + n ? (size_t)(tz - line) : n);
            if (tz != NULL && tz < line + n)
                pm_buf_putc(out, '\n');
        }
        line += n;
    }
    pm_buf_free(&all);
}

/* Every stream of every stripe: decompressed bytes equal. */
static void same_streams(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
                         const char *what)
{
    pm_orc_reader *ra, *rb;
    paimon_error err = {0};
    assert_int_equal(pm_orc_reader_open_memory(&ra, a, alen, "java", &err), 0);
    assert_int_equal(pm_orc_reader_open_memory(&rb, b, blen, "paimon-c", &err), 0);
    for (size_t s = 0; s < pm_orc_reader_footer(ra)->stripe_count; s++) {
        const pm_orc_stripe_footer *sf;
        size_t n;
        assert_int_equal(pm_orc_reader_stripe_footer(ra, s, &sf, &err), 0);
        n = sf->stream_count;
        for (size_t k = 0; k < n; k++) {
            pm_buf x, y;
            bool fx, fy;
            uint32_t col;
            pm_orc_stream_kind kind;
            assert_int_equal(pm_orc_reader_stripe_footer(ra, s, &sf, &err), 0);
            col = sf->streams[k].column;
            kind = sf->streams[k].kind;
            pm_buf_init(&x, 0);
            pm_buf_init(&y, 0);
            assert_int_equal(pm_orc_reader_stream_bytes(ra, s, col, kind, &x, &fx, &err), 0);
            assert_int_equal(pm_orc_reader_stream_bytes(rb, s, col, kind, &y, &fy, &err), 0);
            if (!fy || x.len != y.len || (x.len > 0 && memcmp(x.data, y.data, x.len) != 0))
                fail_msg("%s: stripe %zu, column %u, %s stream differs", what, s, col,
                         pm_orc_stream_kind_name(kind));
            pm_buf_free(&x);
            pm_buf_free(&y);
        }
    }
    pm_orc_reader_free(ra);
    pm_orc_reader_free(rb);
}

static void assert_same_text(pm_buf *a, pm_buf *b, const char *what, const char *kind)
{
    if (a->len != b->len || memcmp(pm_buf_cstr(a), pm_buf_cstr(b), a->len) != 0)
        fail_msg("%s: %s differs:\n--- Java\n%s\n--- paimon-c\n%s", what, kind, pm_buf_cstr(a),
                 pm_buf_cstr(b));
}

/* Reads `data`, writes its rows with paimon-c's writer, appends the new file to `out`. */
static void rewrite(const uint8_t *data, size_t len, pm_buf *out)
{
    pm_orc_reader *r;
    pm_orc_writer *w;
    pm_orc_writer_options o;
    pm_orc_read_options ro;
    const pm_orc_footer *f;
    const pm_orc_vec *v;
    paimon_error err = {0};
    int rc;
    assert_int_equal(pm_orc_reader_open_memory(&r, data, len, "source", &err), 0);
    f = pm_orc_reader_footer(r);
    memset(&o, 0, sizeof(o));
    o.compression = pm_orc_reader_postscript(r)->compression;
    o.compression_set = true;
    assert_int_equal(pm_orc_writer_new(&w, f->types, f->type_count, &o, out, NULL, &err), 0);
    memset(&ro, 0, sizeof(ro));
    ro.batch_rows = 333; /* batches do not line up with the writer's: it must not matter */
    assert_int_equal(pm_orc_reader_start(r, &ro, &err), 0);
    while ((rc = pm_orc_reader_next(r, &v, &err)) == 0) {
        pm_orc_colview cv;
        view_of(v, &cv);
        if (pm_orc_writer_write(w, &cv, v->length, &err) != 0)
            fail_msg("%s", err.message);
        view_free(v, &cv);
    }
    assert_int_equal(rc, PAIMON_ITEROVER);
    if (pm_orc_writer_close(w, &err) != 0)
        fail_msg("%s", err.message);
    pm_orc_writer_free(w);
    pm_orc_reader_free(r);
}

static bool java_orc(const uint8_t *data, size_t len)
{
    pm_orc_reader *r;
    paimon_error err = {0};
    bool java;
    if (len < 3 || memcmp(data, "ORC", 3) != 0)
        return false;
    assert_int_equal(pm_orc_reader_open_memory(&r, data, len, "probe", &err), 0);
    java = pm_orc_reader_footer(r)->writer == 0;
    pm_orc_reader_free(r);
    return java;
}

static void test_rewrite_java_files(void **state)
{
    pm_strlist all;
    size_t files = 0, data_files = 0;
    (void)state;
    if (!pm_test_require_fixtures())
        return;
    pm_strlist_init(&all);
    pm_test_find_files(pm_test_fixtures(), "", &all);
    for (size_t i = 0; i < all.count; i++) {
        size_t len;
        uint8_t *data = pm_test_read_file(all.items[i], &len);
        pm_buf mine, la, lb, ra, rb;
        if (!java_orc(data, len)) {
            pm_free(data);
            continue;
        }
        pm_buf_init(&mine, 0);
        pm_buf_init(&la, 0);
        pm_buf_init(&lb, 0);
        pm_buf_init(&ra, 0);
        pm_buf_init(&rb, 0);
        rewrite(data, len, &mine);
        layout(data, len, &la);
        layout(mine.data, mine.len, &lb);
        assert_same_text(&la, &lb, all.items[i], "layout");
        same_streams(data, len, mine.data, mine.len, all.items[i]);
        rows_text(data, len, &ra);
        rows_text(mine.data, mine.len, &rb);
        assert_same_text(&ra, &rb, all.items[i], "rows");
        files++;
        data_files += strstr(all.items[i], ".orc") != NULL;
        pm_buf_free(&mine);
        pm_buf_free(&la);
        pm_buf_free(&lb);
        pm_buf_free(&ra);
        pm_buf_free(&rb);
        pm_free(data);
    }
    printf("%zu Java-written ORC files (%zu data files) rewritten with the same layout, stream "
           "bytes and rows\n",
           files, data_files);
    assert_true(files >= 150);
    assert_true(data_files >= 35);
    pm_strlist_free(&all);
}

static void test_manifests_like_java(void **state)
{
    pm_strlist files;
    size_t same = 0, kinds[3] = {0, 0, 0};
    (void)state;
    if (!pm_test_require_fixtures())
        return;
    pm_strlist_init(&files);
    pm_test_find_files(pm_test_fixtures(), "manifest-", &files);
    pm_test_find_files(pm_test_fixtures(), "index-manifest-", &files);
    for (size_t i = 0; i < files.count; i++) {
        const char *name = strrchr(files.items[i], '/') + 1;
        const pm_avro_rdesc *rd = &PM_MANIFEST_ENTRY_DESC;
        int32_t version = PM_MANIFEST_VERSION;
        int kind = 1;
        size_t len, n;
        uint8_t *data = pm_test_read_file(files.items[i], &len);
        pm_arena arena;
        void *records;
        pm_buf mine, la, lb;
        paimon_error err = {0};
        if (!java_orc(data, len)) {
            pm_free(data);
            continue;
        }
        if (strncmp(name, "manifest-list-", 14) == 0)
            rd = &PM_MANIFEST_FILE_META_DESC, version = PM_MANIFEST_LIST_VERSION, kind = 0;
        else if (strncmp(name, "index-manifest-", 15) == 0)
            rd = &PM_INDEX_MANIFEST_ENTRY_DESC, version = PM_INDEX_MANIFEST_VERSION, kind = 2;
        pm_arena_init(&arena, 1 << 14);
        pm_buf_init(&mine, 0);
        pm_buf_init(&la, 0);
        pm_buf_init(&lb, 0);
        if (pm_manifest_decode(data, len, files.items[i], rd, version, &arena, &records, &n,
                               &err) != 0 ||
            pm_manifest_orc_encode(rd, records, n, "zstd", 1, &mine, &err) != 0)
            fail_msg("%s: %s", files.items[i], err.message);
        layout(data, len, &la);
        layout(mine.data, mine.len, &lb);
        /* older layouts (0.9 to 1.3) have fewer fields: only 1.4-layout files compare */
        if (la.len == lb.len && memcmp(la.data, lb.data, la.len) == 0) {
            same_streams(data, len, mine.data, mine.len, files.items[i]);
            same++;
            kinds[kind]++;
        } else {
            const char *ta = strstr(pm_buf_cstr(&la), "\nstripe"),
                       *tb = strstr(pm_buf_cstr(&lb), "\nstripe");
            /* same type tree but a different layout would be a writer bug */
            if (ta != NULL && tb != NULL &&
                ta - (const char *)la.data == tb - (const char *)lb.data &&
                memcmp(la.data, lb.data, (size_t)(ta - (const char *)la.data)) == 0)
                assert_same_text(&la, &lb, files.items[i], "layout");
        }
        pm_buf_free(&mine);
        pm_buf_free(&la);
        pm_buf_free(&lb);
        pm_arena_free(&arena);
        pm_free(data);
    }
    printf("%zu Java-written 1.4-layout ORC manifests (%zu lists, %zu manifests) encoded "
           "identically\n",
           same, kinds[0], kinds[1]);
    assert_true(kinds[0] >= 5 && kinds[1] >= 5);
    pm_strlist_free(&files);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rewrite_java_files),
        cmocka_unit_test(test_manifests_like_java),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
