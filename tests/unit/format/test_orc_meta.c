/*
 * ORC metadata messages (orc_meta_read.c over the table-driven decoder of orc_proto.c):
 *  - every message paimon-c encodes decodes to the values encoded: statistics of every kind
 *    in row indexes, footers with types, attributes, user metadata and statistics, stripe
 *    footers, the Metadata section, the PostScript;
 *  - malformed messages are PAIMON_ECORRUPT naming the file, the message and the field;
 *  - type trees that are not trees (cycles, shared or orphaned children) or nest deeper
 *    than PM_MAX_NESTING are refused with PAIMON_ECORRUPT naming the file, whatever their
 *    depth (no recursion follows them); exactly PM_MAX_NESTING levels write and read back
 *    through the data-file layer, one more is refused by the writer;
 *  - an allocation failure anywhere in opening and describing real files (fixtures from
 *    Java and C++ writers, ORC manifests, files paimon-c writes) is PAIMON_ENOMEM and leaks
 *    nothing (LeakSanitizer in the debug build).
 */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#include "data/batch.h"
#include "format/data_file.h"
#include "format/orc/orc_describe.h"
#include "format/orc/orc_format.h"
#include "format/orc/orc_meta.h"
#include "format/orc/orc_reader.h"
#include "util/alloc.h"

static pm_orc_bytes view(const char *s)
{
    pm_orc_bytes b = {(const uint8_t *)s, strlen(s)};
    return b;
}

static void assert_same_bytes(pm_orc_bytes a, pm_orc_bytes b)
{
    assert_int_equal(a.len, b.len);
    if (a.len > 0)
        assert_memory_equal(a.ptr, b.ptr, a.len);
}

/* Every member a statistics kind uses (the others stay zero after decoding). */
static void assert_same_stats(const pm_orc_stats *a, const pm_orc_stats *b)
{
    assert_int_equal(a->has, b->has);
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->number_of_values, b->number_of_values);
    assert_int_equal(a->has_null, b->has_null);
    assert_int_equal(a->bytes_on_disk, b->bytes_on_disk);
    assert_int_equal(a->i_min, b->i_min);
    assert_int_equal(a->i_max, b->i_max);
    assert_int_equal(a->i_sum, b->i_sum);
    assert_memory_equal(&a->d_min, &b->d_min, sizeof(double));
    assert_memory_equal(&a->d_max, &b->d_max, sizeof(double));
    assert_memory_equal(&a->d_sum, &b->d_sum, sizeof(double));
    assert_same_bytes(a->s_min, b->s_min);
    assert_same_bytes(a->s_max, b->s_max);
    assert_same_bytes(a->s_lower, b->s_lower);
    assert_same_bytes(a->s_upper, b->s_upper);
    assert_same_bytes(a->dec_sum, b->dec_sum);
    assert_int_equal(a->ts_min_utc, b->ts_min_utc);
    assert_int_equal(a->ts_max_utc, b->ts_max_utc);
    assert_int_equal(a->ts_min_nanos, b->ts_min_nanos);
    assert_int_equal(a->ts_max_nanos, b->ts_max_nanos);
    assert_int_equal(a->bucket_count, b->bucket_count);
    if (a->bucket_count > 0)
        assert_memory_equal(a->buckets, b->buckets, a->bucket_count * sizeof(uint64_t));
    assert_int_equal(a->coll_min, b->coll_min);
    assert_int_equal(a->coll_max, b->coll_max);
    assert_int_equal(a->coll_total, b->coll_total);
}

#define ALL_COMMON (PM_OS_VALUES | PM_OS_HAS_NULL | PM_OS_BYTES)

/* One statistics entry of each kind, every field of the kind present, with values at the
 * edges of their wire types (negative zigzag values, int32 nanos below zero, -0.0). */
static size_t sample_stats(pm_orc_stats *s)
{
    static uint64_t buckets[2] = {7, 1ull << 40};
    size_t n = 0;
    memset(s, 0, 10 * sizeof(*s));
    s[n].has = PM_OS_VALUES; /* no typed statistics */
    s[n++].number_of_values = 3;
    s[n].kind = PM_OSK_INT;
    s[n].has = ALL_COMMON | PM_OS_MIN | PM_OS_MAX | PM_OS_SUM;
    s[n].number_of_values = 10, s[n].has_null = true, s[n].bytes_on_disk = 99;
    s[n].i_min = INT64_MIN, s[n].i_max = INT64_MAX, s[n++].i_sum = -5;
    s[n].kind = PM_OSK_DOUBLE;
    s[n].has = PM_OS_MIN | PM_OS_MAX | PM_OS_SUM;
    s[n].d_min = -0.0, s[n].d_max = 1e300, s[n++].d_sum = -2.5;
    s[n].kind = PM_OSK_STRING;
    s[n].has = PM_OS_MIN | PM_OS_MAX | PM_OS_SUM | PM_OS_LOWER | PM_OS_UPPER | PM_OS_HAS_NULL;
    s[n].s_min = view("a"), s[n].s_max = view("zz"), s[n].i_sum = 12;
    s[n].s_lower = view(""), s[n++].s_upper = view("\xff\xfe");
    s[n].kind = PM_OSK_BUCKET;
    s[n].buckets = buckets, s[n++].bucket_count = 2;
    s[n].kind = PM_OSK_DECIMAL;
    s[n].has = PM_OS_MIN | PM_OS_MAX | PM_OS_SUM;
    s[n].s_min = view("-77.022"), s[n].s_max = view("1e5"), s[n++].dec_sum = view("0");
    s[n].kind = PM_OSK_DATE;
    s[n].has = PM_OS_MIN | PM_OS_MAX;
    s[n].i_min = INT32_MIN, s[n++].i_max = INT32_MAX;
    s[n].kind = PM_OSK_BINARY;
    s[n].has = PM_OS_SUM;
    s[n++].i_sum = 1 << 20;
    s[n].kind = PM_OSK_TIMESTAMP;
    s[n].has =
        PM_OS_MIN | PM_OS_MAX | PM_OS_MIN_UTC | PM_OS_MAX_UTC | PM_OS_MIN_NANOS | PM_OS_MAX_NANOS;
    s[n].i_min = -86400000, s[n].i_max = 1700000000000, s[n].ts_min_utc = -1;
    s[n].ts_max_utc = 2, s[n].ts_min_nanos = -1, s[n++].ts_max_nanos = 1000000;
    s[n].kind = PM_OSK_COLLECTION;
    s[n].has = PM_OS_MIN | PM_OS_MAX | PM_OS_COLL_TOTAL | PM_OS_HAS_NULL | PM_OS_BYTES;
    s[n].coll_min = 0, s[n].coll_max = 5, s[n].coll_total = 1ull << 33;
    s[n++].bytes_on_disk = 4;
    return n;
}

static void test_row_index_round_trip(void **state)
{
    pm_orc_stats stats[10];
    pm_orc_index_entry entries[11];
    uint64_t positions[3] = {0, 1ull << 63, 300};
    pm_orc_row_index ri = {entries, 0}, back;
    size_t n = sample_stats(stats);
    paimon_error err = {0};
    pm_arena arena;
    pm_buf buf;
    (void)state;
    memset(entries, 0, sizeof(entries));
    for (size_t i = 0; i < n; i++) {
        entries[i].positions = positions;
        entries[i].position_count = i % 4;
        entries[i].stats = stats[i];
        entries[i].has_stats = true;
    }
    entries[n].position_count = 0; /* an entry with neither */
    ri.entry_count = n + 1;
    pm_buf_init(&buf, 0);
    pm_arena_init(&arena, 256);
    assert_int_equal(pm_orc_encode_row_index(&buf, &ri), 0);
    assert_int_equal(pm_orc_decode_row_index(buf.data, buf.len, 100, "ri.orc", &arena, &back, &err),
                     0);
    assert_int_equal(back.entry_count, n + 1);
    for (size_t i = 0; i <= n; i++) {
        assert_int_equal(back.entries[i].position_count, entries[i].position_count);
        if (entries[i].position_count > 0)
            assert_memory_equal(back.entries[i].positions, positions,
                                entries[i].position_count * sizeof(uint64_t));
        assert_int_equal(back.entries[i].has_stats, entries[i].has_stats);
        assert_same_stats(&back.entries[i].stats, &entries[i].stats);
    }
    pm_arena_free(&arena);
    pm_buf_free(&buf);
}

/* A footer of `n` types: types[0] a struct of one field "c", then whatever the caller put
 * in types[1..n).  Returns the encoded footer in `buf`. */
static void encode_footer(pm_buf *buf, pm_orc_type *types, size_t n)
{
    static uint32_t one = 1;
    static char *names[1] = {"c"};
    pm_orc_footer f;
    memset(&f, 0, sizeof(f));
    types[0].kind = PM_ORC_STRUCT;
    types[0].subtypes = &one;
    types[0].subtype_count = 1;
    types[0].field_names = names;
    types[0].field_name_count = 1;
    f.header_length = 3;
    f.content_length = 3;
    f.types = types;
    f.type_count = n;
    f.row_index_stride = 10000;
    pm_buf_reset(buf);
    assert_int_equal(pm_orc_encode_footer(buf, &f), 0);
}

static void test_footer_round_trip(void **state)
{
    pm_orc_type types[4];
    uint32_t subs[2] = {2, 3};
    pm_orc_attr attrs[2] = {{"paimon.id", "7"}, {"x", ""}};
    pm_orc_stripe_info stripes[2] = {{3, 10, 20, 30, 40}, {63, 0, 1, 2, UINT64_MAX}};
    pm_orc_user_meta meta[1] = {{"writer.note", {(const uint8_t *)"\0\1", 2}}};
    pm_orc_stats stats[10];
    pm_orc_footer f, back;
    pm_orc_postscript ps, psb;
    pm_orc_stream_info streams[3] = {
        {PM_ORC_PRESENT, 1, 5, 0}, {PM_ORC_DATA, 1, 0, 0}, {PM_ORC_LENGTH, 2, 1ull << 40, 0}};
    pm_orc_encoding encs[2] = {{PM_ORC_DIRECT_V2, 0}, {PM_ORC_DICTIONARY_V2, 17}};
    pm_orc_stripe_footer sf = {.streams = streams,
                               .stream_count = 3,
                               .encodings = encs,
                               .encoding_count = 2,
                               .writer_timezone = "Asia/Shanghai"},
                         sfb;
    pm_orc_stripe_stats ss[2], *ssb;
    size_t nss;
    paimon_error err = {0};
    pm_arena arena;
    pm_buf buf;
    (void)state;
    memset(types, 0, sizeof(types));
    memset(&f, 0, sizeof(f));
    pm_arena_init(&arena, 256);
    pm_buf_init(&buf, 0);
    types[1].kind = PM_ORC_MAP;
    types[1].subtypes = subs;
    types[1].subtype_count = 2;
    types[1].attrs = attrs;
    types[1].attr_count = 2;
    types[2].kind = PM_ORC_VARCHAR;
    types[2].max_length = 5;
    types[2].has_max_length = true;
    types[3].kind = PM_ORC_DECIMAL;
    types[3].precision = 38;
    types[3].scale = 10;
    types[3].has_precision = types[3].has_scale = true;
    encode_footer(&buf, types, 4); /* sets up types[0] */
    f.header_length = 3;
    f.content_length = 1000;
    f.stripes = stripes;
    f.stripe_count = 2;
    f.types = types;
    f.type_count = 4;
    f.metadata = meta;
    f.metadata_count = 1;
    f.number_of_rows = 12345;
    f.statistics = stats;
    f.statistics_count = sample_stats(stats);
    f.row_index_stride = 10000;
    f.writer = 100, f.has_writer = true;
    f.calendar = 2, f.has_calendar = true;
    f.software_version = "paimon-c test";
    pm_buf_reset(&buf);
    assert_int_equal(pm_orc_encode_footer(&buf, &f), 0);
    assert_int_equal(pm_orc_decode_footer(buf.data, buf.len, 0, "f.orc", &arena, &back, &err), 0);
    assert_int_equal(back.header_length, 3);
    assert_int_equal(back.content_length, 1000);
    assert_int_equal(back.stripe_count, 2);
    assert_memory_equal(back.stripes, stripes, sizeof(stripes));
    assert_int_equal(back.type_count, 4);
    for (size_t i = 0; i < 4; i++) {
        const pm_orc_type *a = &types[i], *b = &back.types[i];
        assert_int_equal(b->kind, a->kind);
        assert_int_equal(b->subtype_count, a->subtype_count);
        if (a->subtype_count > 0)
            assert_memory_equal(b->subtypes, a->subtypes, a->subtype_count * sizeof(uint32_t));
        assert_int_equal(b->field_name_count, a->field_name_count);
        for (size_t k = 0; k < a->field_name_count; k++)
            assert_string_equal(b->field_names[k], a->field_names[k]);
        assert_int_equal(b->has_max_length, a->has_max_length);
        assert_int_equal(b->max_length, a->max_length);
        assert_int_equal(b->has_precision, a->has_precision);
        assert_int_equal(b->precision, a->precision);
        assert_int_equal(b->has_scale, a->has_scale);
        assert_int_equal(b->scale, a->scale);
        assert_int_equal(b->attr_count, a->attr_count);
        for (size_t k = 0; k < a->attr_count; k++) {
            assert_string_equal(b->attrs[k].key, a->attrs[k].key);
            assert_string_equal(b->attrs[k].value, a->attrs[k].value);
        }
    }
    /* derived from the tree */
    assert_int_equal(back.types[2].parent, 1);
    assert_int_equal(back.types[3].depth, 2);
    assert_int_equal(back.metadata_count, 1);
    assert_string_equal(back.metadata[0].name, "writer.note");
    assert_same_bytes(back.metadata[0].value, meta[0].value);
    assert_int_equal(back.number_of_rows, 12345);
    assert_int_equal(back.statistics_count, f.statistics_count);
    for (size_t i = 0; i < f.statistics_count; i++)
        assert_same_stats(&back.statistics[i], &stats[i]);
    assert_int_equal(back.row_index_stride, 10000);
    assert_true(back.has_writer && back.writer == 100);
    assert_true(back.has_calendar && back.calendar == 2);
    assert_string_equal(back.software_version, "paimon-c test");
    assert_false(back.has_encryption);

    /* PostScript */
    memset(&ps, 0, sizeof(ps));
    ps.footer_length = 1234;
    ps.compression = PM_ORC_ZSTD;
    ps.compression_block_size = 262144, ps.has_compression_block_size = true;
    ps.version[0] = 0, ps.version[1] = 12, ps.version_count = 2;
    ps.metadata_length = 77;
    ps.writer_version = 9, ps.has_writer_version = true;
    pm_buf_reset(&buf);
    assert_int_equal(pm_orc_encode_postscript(&buf, &ps), 0);
    assert_int_equal(pm_orc_decode_postscript(buf.data, buf.len, 0, "p.orc", &psb, &err), 0);
    assert_int_equal(psb.footer_length, 1234);
    assert_int_equal(psb.compression, PM_ORC_ZSTD);
    assert_true(psb.has_compression_block_size && psb.compression_block_size == 262144);
    assert_int_equal(psb.version_count, 2);
    assert_int_equal(psb.version[1], 12);
    assert_int_equal(psb.metadata_length, 77);
    assert_true(psb.has_writer_version && psb.writer_version == 9);

    /* StripeFooter: stream offsets are derived */
    pm_buf_reset(&buf);
    assert_int_equal(pm_orc_encode_stripe_footer(&buf, &sf), 0);
    assert_int_equal(pm_orc_decode_stripe_footer(buf.data, buf.len, 0, "s.orc", &arena, &sfb, &err),
                     0);
    assert_int_equal(sfb.stream_count, 3);
    assert_int_equal(sfb.streams[2].kind, PM_ORC_LENGTH);
    assert_int_equal(sfb.streams[2].column, 2);
    assert_int_equal(sfb.streams[2].offset, 5);
    assert_int_equal(sfb.streams[2].length, 1ull << 40);
    assert_int_equal(sfb.encoding_count, 2);
    assert_int_equal(sfb.encodings[1].kind, PM_ORC_DICTIONARY_V2);
    assert_int_equal(sfb.encodings[1].dictionary_size, 17);
    assert_string_equal(sfb.writer_timezone, "Asia/Shanghai");

    /* Metadata: stripe statistics */
    ss[0].columns = stats;
    ss[0].column_count = f.statistics_count;
    ss[1].columns = stats + 1;
    ss[1].column_count = 1;
    pm_buf_reset(&buf);
    assert_int_equal(pm_orc_encode_metadata(&buf, ss, 2), 0);
    assert_int_equal(
        pm_orc_decode_metadata(buf.data, buf.len, 0, "m.orc", &arena, &ssb, &nss, &err), 0);
    assert_int_equal(nss, 2);
    assert_int_equal(ssb[0].column_count, f.statistics_count);
    assert_same_stats(&ssb[0].columns[4], &stats[4]);
    assert_int_equal(ssb[1].column_count, 1);
    assert_same_stats(&ssb[1].columns[0], &stats[1]);
    pm_arena_free(&arena);
    pm_buf_free(&buf);
}

/* Decodes a footer expecting PAIMON_ECORRUPT naming the file, with `phrase`. */
static void assert_bad_footer(const pm_buf *buf, const char *phrase)
{
    pm_orc_footer f;
    paimon_error err = {0};
    pm_arena arena;
    pm_arena_init(&arena, 256);
    assert_int_equal(pm_orc_decode_footer(buf->data, buf->len, 40, "bad.orc", &arena, &f, &err),
                     PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, "bad.orc: "));
    if (strstr(err.message, phrase) == NULL)
        fail_msg("\"%s\" lacks \"%s\"", err.message, phrase);
    pm_arena_free(&arena);
}

/* Appends a raw field to a message. */
static void put_raw(pm_buf *b, const char *hex)
{
    uint8_t tmp[64];
    size_t n = pm_test_unhex(hex, tmp, sizeof(tmp));
    assert_int_equal(pm_buf_append(b, tmp, n), 0);
}

/* Footers with one malformed part: a Type message (as_type) or raw bytes after the fields. */
static const struct {
    bool as_type;
    const char *hex;
    const char *phrase;
} BAD_FOOTERS[] = {
    {true, "08 13", "(Type.kind)"},                               /* past the last kind */
    {true, "08 0a 12 05 ff ff ff ff 1f", "(Type.subtypes)"},      /* a subtype past UINT32_MAX */
    {true, "08 0c 18 01", "(Type.fieldNames)"},                   /* a name as a varint */
    {true, "08 03 3a 03 0a 01 6b", "(StringPair without value)"}, /* an attribute's value */
    {false, "22 7f 08", "(Footer)"},                              /* longer than what remains */
    {false, "33", "(Footer)"},                                    /* a group: not ORC's protobuf */
    {false, "3a 04 1a 02 08 01", "(DoubleStatistics.minimum)"},   /* a double as a varint */
    {false, "3a 08 3a 06 08 80 80 80 80 10", "(DateStatistics.minimum)"}, /* past int32 */
};

static void test_malformed_messages(void **state)
{
    pm_orc_type types[2];
    pm_buf buf, type;
    pm_orc_postscript ps;
    paimon_error err = {0};
    pm_arena arena;
    (void)state;
    pm_buf_init(&buf, 0);
    pm_buf_init(&type, 0);
    pm_arena_init(&arena, 256);
    memset(types, 0, sizeof(types));
    types[1].kind = PM_ORC_INT;
    encode_footer(&buf, types, 2);
    {
        pm_orc_footer f;
        assert_int_equal(pm_orc_decode_footer(buf.data, buf.len, 0, "ok.orc", &arena, &f, &err), 0);
    }
    for (size_t i = 0; i < sizeof(BAD_FOOTERS) / sizeof(BAD_FOOTERS[0]); i++) {
        encode_footer(&buf, types, 2);
        if (BAD_FOOTERS[i].as_type) {
            pm_buf_reset(&type);
            put_raw(&type, BAD_FOOTERS[i].hex);
            assert_int_equal(pm_pb_put_bytes(&buf, 4, type.data, type.len), 0);
        } else {
            put_raw(&buf, BAD_FOOTERS[i].hex);
        }
        assert_bad_footer(&buf, "malformed ORC footer at offset");
        assert_bad_footer(&buf, BAD_FOOTERS[i].phrase);
    }
    /* an unknown field of any wire type is skipped, also in sub-messages */
    encode_footer(&buf, types, 2);
    put_raw(&buf, "f8 01 05 fd 01 01 02 03 04 f9 01 01 02 03 04 05 06 07 08 3a 03 a2 06 00");
    {
        pm_orc_footer f;
        assert_int_equal(pm_orc_decode_footer(buf.data, buf.len, 0, "ok.orc", &arena, &f, &err), 0);
        assert_int_equal(f.statistics_count, 1);
    }
    /* stream lengths whose sum overflows */
    pm_buf_reset(&buf);
    put_raw(&buf, "0a 0f 08 01 10 01 18 ff ff ff ff ff ff ff ff ff 01");
    put_raw(&buf, "0a 04 08 01 18 01");
    {
        pm_orc_stripe_footer sf;
        assert_int_equal(
            pm_orc_decode_stripe_footer(buf.data, buf.len, 500, "s.orc", &arena, &sf, &err),
            PAIMON_ECORRUPT);
        assert_non_null(strstr(err.message, "s.orc: ORC stripe footer at offset 500"));
    }
    /* a PostScript without the magic, and with another one */
    pm_buf_reset(&buf);
    put_raw(&buf, "08 05 10 00");
    assert_int_equal(pm_orc_decode_postscript(buf.data, buf.len, 9, "p.orc", &ps, &err),
                     PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, "p.orc: ORC PostScript at offset 9 has no \"ORC\" magic"));
    put_raw(&buf, "82 f4 03 03 4f 52 44");
    assert_int_equal(pm_orc_decode_postscript(buf.data, buf.len, 9, "p.orc", &ps, &err),
                     PAIMON_ECORRUPT);
    /* every prefix of a footer either decodes or is PAIMON_ECORRUPT naming the file */
    types[1].kind = PM_ORC_INT;
    encode_footer(&buf, types, 2);
    for (size_t cut = 0; cut < buf.len; cut++) {
        pm_orc_footer f;
        int rc = pm_orc_decode_footer(buf.data, cut, 0, "cut.orc", &arena, &f, &err);
        assert_true(rc == 0 || rc == PAIMON_ECORRUPT);
        if (rc != 0)
            assert_non_null(strstr(err.message, "cut.orc: "));
    }
    pm_arena_free(&arena);
    pm_buf_free(&type);
    pm_buf_free(&buf);
}

/* ---- type trees ----------------------------------------------------------------------- */

/* A whole ORC file without stripes ("ORC", the footer, the PostScript, its length). */
static void make_file(pm_buf *file, pm_orc_type *types, size_t n)
{
    pm_buf footer, ps;
    pm_orc_postscript p;
    pm_buf_init(&footer, 0);
    pm_buf_init(&ps, 0);
    encode_footer(&footer, types, n);
    memset(&p, 0, sizeof(p));
    p.footer_length = footer.len;
    p.compression = PM_ORC_NONE;
    p.version[1] = 12;
    p.version_count = 2;
    assert_int_equal(pm_orc_encode_postscript(&ps, &p), 0);
    assert_true(ps.len < 256);
    pm_buf_reset(file);
    assert_int_equal(pm_buf_append(file, "ORC", 3), 0);
    assert_int_equal(pm_buf_append(file, footer.data, footer.len), 0);
    assert_int_equal(pm_buf_append(file, ps.data, ps.len), 0);
    assert_int_equal(pm_buf_putc(file, (uint8_t)ps.len), 0);
    pm_buf_free(&footer);
    pm_buf_free(&ps);
}

/* A file whose types 1..n-1 are a chain of LISTs ending in an INT: the INT is n - 1 levels
 * below the root. */
static void chain_file(pm_buf *file, size_t n)
{
    pm_orc_type *t = test_calloc(n, sizeof(*t));
    uint32_t *next = test_calloc(n, sizeof(uint32_t));
    for (size_t i = 1; i + 1 < n; i++) {
        next[i] = (uint32_t)(i + 1);
        t[i].kind = PM_ORC_LIST;
        t[i].subtypes = &next[i];
        t[i].subtype_count = 1;
    }
    t[n - 1].kind = PM_ORC_INT;
    make_file(file, t, n);
    test_free(next);
    test_free(t);
}

static int open_file(const pm_buf *file, const char *path, paimon_error *err)
{
    pm_orc_reader *r = NULL;
    int rc = pm_orc_reader_open_memory(&r, file->data, file->len, path, err);
    if (rc == 0) {
        pm_orc_describe_options d = {true, true};
        pm_buf text;
        pm_buf_init(&text, 0);
        rc = pm_orc_describe(r, &d, &text, err);
        pm_buf_free(&text);
    }
    pm_orc_reader_free(r);
    return rc;
}

static void test_type_trees(void **state)
{
    pm_orc_type types[4];
    uint32_t self = 1, back[1] = {0}, pair[2] = {2, 2}, one_two[2] = {2, 3};
    char *names[2] = {"a", "b"};
    pm_buf buf;
    paimon_error err = {0};
    (void)state;
    pm_buf_init(&buf, 0);
    /* a list that is its own element: a cycle */
    memset(types, 0, sizeof(types));
    types[1].kind = PM_ORC_LIST;
    types[1].subtypes = &self;
    types[1].subtype_count = 1;
    encode_footer(&buf, types, 2);
    assert_bad_footer(&buf, "ORC type 1 has a bad child id 1");
    /* a child before its parent */
    types[1].subtypes = back;
    encode_footer(&buf, types, 2);
    assert_bad_footer(&buf, "ORC type 1 has a bad child id 0");
    /* one child shared by two fields of a struct */
    memset(types, 0, sizeof(types));
    types[1].kind = PM_ORC_STRUCT;
    types[1].subtypes = pair;
    types[1].subtype_count = 2;
    types[1].field_names = names;
    types[1].field_name_count = 2;
    types[2].kind = PM_ORC_INT;
    types[3].kind = PM_ORC_INT;
    encode_footer(&buf, types, 4);
    assert_bad_footer(&buf, "ORC type 1 has a bad child id 2");
    /* a type nobody holds */
    types[1].subtypes = one_two;
    types[1].subtype_count = 1;
    types[1].field_name_count = 1;
    encode_footer(&buf, types, 4);
    assert_bad_footer(&buf, "ORC type 3 is nobody's child");
    /* a map with one child, a struct without names */
    types[1].kind = PM_ORC_MAP;
    encode_footer(&buf, types, 4);
    assert_bad_footer(&buf, "ORC type 1 (map) has 1 children");

    /* depth: the deepest chain opens and describes; one more level, or 100,000, is corrupt */
    {
        const size_t ok = PM_ORC_MAX_DEPTH + 1, deep = 100000;
        chain_file(&buf, ok);
        if (open_file(&buf, "deepest.orc", &err) != 0)
            fail_msg("%s", err.message);
        chain_file(&buf, ok + 1);
        assert_int_equal(open_file(&buf, "deeper.orc", &err), PAIMON_ECORRUPT);
        assert_non_null(strstr(err.message, "deeper.orc: ORC type "));
        assert_non_null(strstr(err.message, "nests deeper than 64 levels"));
        chain_file(&buf, deep);
        assert_int_equal(open_file(&buf, "deep.orc", &err), PAIMON_ECORRUPT);
        assert_non_null(strstr(err.message, "deep.orc: ORC type "));
    }
    /* the writer checks the same rules (its callers' trees are not files: EINVALID) */
    {
        pm_orc_writer *w = NULL;
        pm_buf sink;
        pm_buf_init(&sink, 0);
        memset(types, 0, sizeof(types));
        types[0].kind = PM_ORC_STRUCT;
        types[0].subtypes = one_two;
        types[0].subtype_count = 1;
        types[0].field_names = names;
        types[0].field_name_count = 1;
        types[2].kind = PM_ORC_INT;
        assert_int_equal(pm_orc_writer_new(&w, types, 3, NULL, &sink, NULL, &err), PAIMON_EINVALID);
        assert_non_null(strstr(err.message, "ORC writer: ORC type 1 is nobody's child"));
        assert_null(w);
        pm_buf_free(&sink);
    }
    pm_buf_free(&buf);
}

/* ---- nesting through the data-file layer ---------------------------------------------- */

/* A column type `levels` composite types deep (ROW, ARRAY, MAP in turn) around an INT,
 * so the INT sits at depth `levels` (data/types.h). */
static pm_type *nested_type(int levels, int32_t *next_id)
{
    pm_type *t;
    if (levels == 0)
        return pm_type_new(PM_TYPE_INT);
    switch (levels % 3) {
    case 0:
        t = pm_type_new(PM_TYPE_ROW);
        assert_int_equal(pm_type_row_add(t, (*next_id)++, "f", nested_type(levels - 1, next_id)),
                         0);
        break;
    case 1:
        t = pm_type_new(PM_TYPE_ARRAY);
        t->element = nested_type(levels - 1, next_id);
        break;
    default:
        t = pm_type_new(PM_TYPE_MAP);
        t->element = pm_type_new(PM_TYPE_INT);
        t->element->nullable = false;
        t->value = nested_type(levels - 1, next_id);
        break;
    }
    return t;
}

/* Appends one value: every composite holds one entry; the INT is `v`, map keys `levels`. */
static void append_nested(pm_column *c, int levels, int64_t v)
{
    if (levels == 0) {
        assert_int_equal(pm_column_append_i64(c, v), 0);
    } else if (c->type->id == PM_TYPE_ROW) {
        append_nested(c->children[0], levels - 1, v);
        assert_int_equal(pm_column_struct_end(c, true), 0);
    } else if (c->type->id == PM_TYPE_ARRAY) {
        append_nested(c->children[0], levels - 1, v);
        assert_int_equal(pm_column_list_end(c, true), 0);
    } else {
        assert_int_equal(pm_column_append_i64(c->children[0], levels), 0);
        append_nested(c->children[1], levels - 1, v);
        assert_int_equal(pm_column_list_end(c, true), 0);
    }
}

/* Follows the single entry of each level of row `row` down to the INT. */
static int64_t nested_value(const pm_column *c, int64_t row)
{
    while (c->type->id != PM_TYPE_INT) {
        if (c->type->id == PM_TYPE_ROW) {
            c = c->children[0];
        } else {
            const int32_t *off = (const int32_t *)(const void *)c->offsets.data;
            assert_int_equal(off[row + 1] - off[row], 1);
            row = off[row];
            c = c->children[c->type->id == PM_TYPE_MAP ? 1 : 0];
        }
    }
    return ((const int32_t *)(const void *)c->values.data)[row];
}

static int write_nested(pm_fs *fs, const char *path, int levels, paimon_error *err)
{
    int32_t id = 1;
    pm_type *row = pm_type_new(PM_TYPE_ROW);
    pm_batch *b = NULL;
    pm_output *out;
    pm_orc_file_writer *w = NULL;
    int rc;
    assert_int_equal(pm_type_row_add(row, id++, "c", nested_type(levels, &id)), 0);
    assert_int_equal(fs->create(fs, path, &out, err), 0);
    if ((rc = pm_orc_file_writer_open(&w, out, row, NULL, err)) == 0) {
        assert_int_equal(pm_batch_new(&b, row, err), 0);
        for (int64_t r = 0; r < 3; r++)
            append_nested(b->columns[0], levels, 40 + r);
        assert_int_equal(pm_batch_set_rows(b, 3, err), 0);
        if ((rc = pm_orc_file_writer_write(w, b, err)) == 0)
            rc = pm_orc_file_writer_close(w, NULL, err);
        else
            pm_orc_file_writer_abort(w);
    }
    pm_batch_free(b);
    pm_type_free(row);
    return rc;
}

static void test_nesting_limit_round_trip(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_data_file *f;
    pm_batch *b;
    paimon_error err = {0};
    (void)state;
    /* PM_MAX_NESTING levels: written, and read back through the data-file layer */
    if (write_nested(fs, "/t/deepest.orc", PM_MAX_NESTING, &err) != 0)
        fail_msg("%s", err.message);
    if (pm_data_file_open(&f, fs, "/t/deepest.orc", &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(f->format->start(f->impl, NULL, &err), 0);
    if (f->format->next(f->impl, &b, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(b->row_count, 3);
    for (int64_t r = 0; r < 3; r++)
        assert_int_equal(nested_value(b->columns[0], r), 40 + r);
    pm_batch_free(b);
    pm_data_file_free(f);
    /* one more level: refused before anything is written, also for nested ROWs alone */
    assert_int_equal(write_nested(fs, "/t/deeper.orc", PM_MAX_NESTING + 1, &err), PAIMON_ELIMIT);
    assert_non_null(strstr(err.message, "nests deeper than 64 levels"));
    {
        pm_type *row = pm_type_new(PM_TYPE_ROW), *t = pm_type_new(PM_TYPE_INT);
        pm_orc_type *types;
        size_t count;
        pm_arena arena;
        pm_arena_init(&arena, 256);
        for (int i = 0; i <= PM_MAX_NESTING; i++) {
            pm_type *r = pm_type_new(PM_TYPE_ROW);
            assert_int_equal(pm_type_row_add(r, 100 + i, "r", t), 0);
            t = r;
        }
        assert_int_equal(pm_type_row_add(row, 1, "c", t), 0);
        assert_int_equal(pm_orc_schema_of(row, &arena, &types, &count, &err), PAIMON_ELIMIT);
        pm_arena_free(&arena);
        pm_type_free(row);
    }
    pm_fs_free(fs);
}

/* ---- allocation failures -------------------------------------------------------------- */

/* Opens and describes (row indexes too) a file with allocation `n` failing; returns the
 * code, and the description when it succeeded. */
static int describe_failing(const uint8_t *data, size_t len, long n, pm_buf *text,
                            paimon_error *err)
{
    pm_orc_reader *r = NULL;
    pm_orc_describe_options d = {true, true};
    int rc;
    pm_buf_reset(text);
    pm_alloc_fail_after(n);
    rc = pm_orc_reader_open_memory(&r, data, len, "file.orc", err);
    if (rc == 0)
        rc = pm_orc_describe(r, &d, text, err);
    pm_orc_reader_free(r);
    pm_alloc_fail_after(0);
    return rc;
}

static void alloc_loop(const char *path, const uint8_t *data, size_t len, size_t *files,
                       long *failures)
{
    pm_buf want, got;
    paimon_error err = {0};
    long n;
    pm_buf_init(&want, 0);
    pm_buf_init(&got, 0);
    if (describe_failing(data, len, 0, &want, &err) != 0)
        fail_msg("%s: %s", path, err.message);
    for (n = 1;; n++) {
        int rc = describe_failing(data, len, n, &got, &err);
        if (rc == 0)
            break;
        if (rc != PAIMON_ENOMEM)
            fail_msg("%s: allocation %ld failing gave %d: %s", path, n, rc, err.message);
        assert_true(n < 1000000);
    }
    /* once nothing fails, the whole description */
    assert_int_equal(got.len, want.len);
    assert_memory_equal(got.data, want.data, want.len);
    (*files)++;
    *failures += n - 1;
    pm_buf_free(&want);
    pm_buf_free(&got);
}

static void alloc_loop_file(const char *path, size_t *files, long *failures)
{
    size_t len;
    uint8_t *data = pm_test_read_file(path, &len);
    alloc_loop(path, data, len, files, failures);
    pm_free(data);
}

/* A file of `cols` INT columns, five rows in row groups of two, as paimon-c writes it: its
 * footer's types and statistics outgrow the reader arena's first blocks. */
static void write_wide(pm_buf *file, size_t cols)
{
    pm_type *row = pm_type_new(PM_TYPE_ROW);
    pm_orc_type *types;
    size_t count;
    pm_orc_writer *w;
    pm_orc_writer_options o;
    pm_orc_colview root, *views = test_calloc(cols, sizeof(*views));
    int32_t values[5] = {1, -2, 3, 400000, 5};
    paimon_error err = {0};
    pm_arena arena;
    char name[32];
    pm_arena_init(&arena, 4096);
    for (size_t i = 0; i < cols; i++) {
        snprintf(name, sizeof(name), "column_%zu", i);
        assert_int_equal(pm_type_row_add(row, (int32_t)i, name, pm_type_new(PM_TYPE_INT)), 0);
        views[i].values = values;
    }
    assert_int_equal(pm_orc_schema_of(row, &arena, &types, &count, &err), 0);
    memset(&o, 0, sizeof(o));
    o.row_index_stride = 2;
    memset(&root, 0, sizeof(root));
    root.children = views;
    pm_buf_reset(file);
    assert_int_equal(pm_orc_writer_new(&w, types, count, &o, file, NULL, &err), 0);
    assert_int_equal(pm_orc_writer_write(w, &root, 5, &err), 0);
    assert_int_equal(pm_orc_writer_close(w, &err), 0);
    pm_orc_writer_free(w);
    pm_arena_free(&arena);
    pm_type_free(row);
    test_free(views);
}

static bool is_orc(const char *path)
{
    size_t len;
    uint8_t *data = pm_test_read_file(path, &len);
    bool orc = len > 3 && memcmp(data, "ORC", 3) == 0;
    pm_free(data);
    return orc;
}

static void test_allocation_failures(void **state)
{
    static const char *const written[] = {
        "all-types-zstd.orc", "all-types-zlib.orc", "row-groups.orc",    "dictionary.orc",
        "manifest.orc",       "manifest-list.orc",  "index-manifest.orc"};
    const char *src = getenv("PAIMON_SOURCE_DIR");
    char path[4096];
    size_t files = 0;
    long failures = 0;
    pm_buf wide;
    (void)state;
    /* files paimon-c writes (the fuzz corpus keeps them), and a wide one */
    assert_non_null(src);
    for (size_t i = 0; i < sizeof(written) / sizeof(written[0]); i++) {
        snprintf(path, sizeof(path), "%s/tests/fuzz/corpus/orc/%s", src, written[i]);
        alloc_loop_file(path, &files, &failures);
    }
    pm_buf_init(&wide, 0);
    write_wide(&wide, 120);
    alloc_loop("wide.orc", wide.data, wide.len, &files, &failures);
    pm_buf_free(&wide);
    /* files of other writers: C++ data files and ORC manifests, one of each per table */
    if (pm_test_require_fixtures()) {
        pm_strlist tables;
        pm_strlist_init(&tables);
        pm_test_fixture_tables(&tables);
        for (size_t t = 0; t < tables.count; t++) {
            static const char *const prefixes[] = {"data-", "manifest-"};
            for (size_t p = 0; p < 2; p++) {
                pm_strlist found;
                pm_strlist_init(&found);
                pm_test_find_files(tables.items[t], prefixes[p], &found);
                for (size_t i = 0; i < found.count; i++)
                    if (is_orc(found.items[i])) {
                        alloc_loop_file(found.items[i], &files, &failures);
                        break;
                    }
                pm_strlist_free(&found);
            }
        }
        pm_strlist_free(&tables);
    }
    printf("%zu files, %ld allocation failures, each PAIMON_ENOMEM\n", files, failures);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_row_index_round_trip),     cmocka_unit_test(test_footer_round_trip),
        cmocka_unit_test(test_malformed_messages),       cmocka_unit_test(test_type_trees),
        cmocka_unit_test(test_nesting_limit_round_trip), cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
