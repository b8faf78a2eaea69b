/* Compacted changelog names (the cases of Java's CompactedChangelogPathResolverTest, then
 * names Java never writes) and the pieces they name, read through a slice of the physical
 * file: exactly the piece's bytes, nothing past its end, nothing past the file's end. */
#include <string.h>

#include "testlib.h"

#include "format/compacted_changelog.h"
#include "format/data_file.h"
#include "util/alloc.h"

#define UUID "8e049c65-5ce4-4ce7-b1b0-78ce694ab351"

/* Java's resolveCompactedChangelogPath: other names unchanged. */
static void expect_resolved(const char *path, const char *want, uint64_t want_off,
                            uint64_t want_len)
{
    pm_buf real;
    uint64_t off = 99, len = 99;
    paimon_error err = {0};
    pm_buf_init(&real, 0);
    assert_true(pm_compacted_changelog_is(path));
    assert_int_equal(pm_compacted_changelog_resolve(path, &real, &off, &len, &err), 0);
    assert_string_equal(pm_buf_cstr(&real), want);
    assert_int_equal(off, want_off);
    assert_int_equal(len, want_len);
    pm_buf_free(&real);
}

static void test_is_compacted_changelog_path(void **state)
{
    (void)state;
    assert_false(pm_compacted_changelog_is(
        "/path/to/table/bucket-0/changelog-25b05ab0-6f90-4865-a984-8d9629bac735-1426.parquet"));
    assert_true(pm_compacted_changelog_is("/path/to/table/bucket-0/compacted-changelog-" UUID
                                          "$0-39253.cc-parquet"));
    assert_false(pm_compacted_changelog_is("/path/to/table/bucket-0/data-file-1.parquet"));
    /* files without an extension, and the prefix in a directory name, are not such files */
    assert_false(pm_compacted_changelog_is("/path/to/table/file"));
    assert_false(pm_compacted_changelog_is("/t/compacted-changelog-x/bucket-0/data-1.orc"));
    assert_true(pm_compacted_changelog_is("compacted-changelog-" UUID "$0-1.cc-orc"));
}

static void test_resolve_real_file(void **state)
{
    (void)state;
    /* the physical file's own name: itself, from offset 0, the length in its name */
    expect_resolved("/path/to/table/bucket-0/compacted-changelog-" UUID "$0-39253.cc-parquet",
                    "/path/to/table/bucket-0/compacted-changelog-" UUID "$0-39253.cc-parquet", 0,
                    39253);
}

static void test_resolve_fake_file(void **state)
{
    (void)state;
    expect_resolved(
        "/path/to/table/bucket-1/compacted-changelog-" UUID "$0-39253-39253-35699.cc-parquet",
        "/path/to/table/bucket-0/compacted-changelog-" UUID "$0-39253.cc-parquet", 39253, 35699);
}

static void test_resolve_different_formats(void **state)
{
    (void)state;
    expect_resolved("/path/to/table/bucket-2/compacted-changelog-" UUID "$0-1024-1024-512.cc-orc",
                    "/path/to/table/bucket-0/compacted-changelog-" UUID "$0-1024.cc-orc", 1024,
                    512);
    expect_resolved("/path/to/table/bucket-5/compacted-changelog-" UUID "$2-2048-2048-1024.cc-avro",
                    "/path/to/table/bucket-2/compacted-changelog-" UUID "$2-2048.cc-avro", 2048,
                    1024);
    /* partition directories, URIs and relative paths keep everything above the bucket */
    expect_resolved("s3://b/wh/db.db/t/dt=2026-11-30/hh=1/bucket-7/compacted-changelog-u$3-10-10-"
                    "20.cc-parquet",
                    "s3://b/wh/db.db/t/dt=2026-11-30/hh=1/bucket-3/compacted-changelog-u$3-10.cc-"
                    "parquet",
                    10, 20);
    expect_resolved("bucket-1/compacted-changelog-u$0-10-10-20.cc-parquet",
                    "bucket-0/compacted-changelog-u$0-10.cc-parquet", 10, 20);
    expect_resolved("compacted-changelog-u$0-10-10-20.cc-parquet",
                    "../bucket-0/compacted-changelog-u$0-10.cc-parquet", 10, 20);
}

static void test_parse_and_name_round_trip(void **state)
{
    pm_compacted_changelog_name n;
    paimon_error err = {0};
    pm_buf b;
    (void)state;
    pm_buf_init(&b, 0);
    assert_int_equal(pm_compacted_changelog_name_append(&b, UUID, 4, 1000, 0, 0, "orc"), 0);
    assert_string_equal(pm_buf_cstr(&b), "compacted-changelog-" UUID "$4-1000.cc-orc");
    assert_int_equal(pm_compacted_changelog_parse(pm_buf_cstr(&b), &n, &err), 0);
    assert_false(n.is_piece);
    assert_int_equal(n.bucket, 4);
    assert_int_equal(n.first_len, 1000);
    assert_int_equal(n.off, 0);
    assert_int_equal(n.len, 1000);
    assert_string_equal(n.format, "orc");
    assert_int_equal(n.stem_len, strlen("compacted-changelog-" UUID));
    pm_buf_reset(&b);
    assert_int_equal(pm_compacted_changelog_name_append(&b, UUID, 4, 1000, 1000, 77, "orc"), 0);
    assert_string_equal(pm_buf_cstr(&b), "compacted-changelog-" UUID "$4-1000-1000-77.cc-orc");
    assert_int_equal(pm_compacted_changelog_parse(pm_buf_cstr(&b), &n, &err), 0);
    assert_true(n.is_piece);
    assert_int_equal(n.off, 1000);
    assert_int_equal(n.len, 77);
    pm_buf_free(&b);
}

static void test_malformed_names(void **state)
{
    static const char *const BAD[] = {
        "compacted-changelog-u.cc-parquet",                    /* no '$' */
        "compacted-changelog-u$0$1-2.cc-parquet",              /* two '$' */
        "compacted-changelog-u$0.cc-parquet",                  /* no length */
        "compacted-changelog-u$0-.cc-parquet",                 /* empty length */
        "compacted-changelog-u$x-1.cc-parquet",                /* not a number */
        "compacted-changelog-u$-1-5.cc-parquet",               /* negative bucket */
        "compacted-changelog-u$0-1-2.cc-parquet",              /* offset without length */
        "compacted-changelog-u$0-1-2-3-4.cc-parquet",          /* one number too many */
        "compacted-changelog-u$0-1",                           /* no format */
        "compacted-changelog-u$0-1.parquet",                   /* not cc-<format> */
        "compacted-changelog-u$0-1.cc-",                       /* empty format */
        "compacted-changelog-u$0-1.cc-parquet.gz",             /* two dots */
        "compacted-changelog-u$2147483648-1.cc-parquet",       /* bucket past int32 */
        "compacted-changelog-u$0-99999999999999999999.cc-orc", /* length past int64 */
        "compacted-changelog-u$0-1 .cc-orc",                   /* stray character */
    };
    (void)state;
    for (size_t i = 0; i < sizeof(BAD) / sizeof(BAD[0]); i++) {
        pm_compacted_changelog_name n;
        paimon_error err = {0};
        pm_buf real;
        uint64_t off, len;
        char path[256];
        assert_int_equal(pm_compacted_changelog_parse(BAD[i], &n, &err), PAIMON_ECORRUPT);
        assert_non_null(strstr(err.message, BAD[i]));
        assert_non_null(strstr(err.message, "not a compacted changelog file name"));
        /* through a path, the message names the whole path */
        snprintf(path, sizeof(path), "/t/p=1/bucket-3/%s", BAD[i]);
        pm_buf_init(&real, 0);
        assert_int_equal(pm_compacted_changelog_resolve(path, &real, &off, &len, &err),
                         PAIMON_ECORRUPT);
        assert_non_null(strstr(err.message, path));
        pm_buf_free(&real);
    }
}

static void put(pm_fs *fs, const char *path, const char *text)
{
    paimon_error err = {0};
    assert_int_equal(pm_fs_write_file(fs, path, text, strlen(text), &err), 0);
}

static void test_pieces_read_as_files(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_input *in = NULL;
    const char *fmt = NULL;
    paimon_error err = {0};
    uint8_t buf[16];
    (void)state;
    put(fs, "/t/p=1/bucket-0/compacted-changelog-u$0-5.cc-parquet", "helloworld!!");
    /* the physical file's own name: its first 5 bytes */
    assert_int_equal(
        pm_compacted_changelog_open(fs, "/t/p=1/bucket-0/compacted-changelog-u$0-5.cc-parquet", &in,
                                    &fmt, &err),
        0);
    assert_string_equal(fmt, "parquet");
    assert_int_equal(in->size, 5);
    assert_int_equal(in->read_at(in, 0, 5, buf, &err), 0);
    assert_memory_equal(buf, "hello", 5);
    assert_int_equal(in->read_at(in, 1, 5, buf, &err), PAIMON_ECORRUPT);
    in->close(in);
    /* a piece in another bucket: its bytes only, reads are bounded by the piece */
    assert_int_equal(
        pm_compacted_changelog_open(fs, "/t/p=1/bucket-1/compacted-changelog-u$0-5-5-5.cc-parquet",
                                    &in, &fmt, &err),
        0);
    assert_int_equal(in->size, 5);
    assert_int_equal(in->read_at(in, 2, 3, buf, &err), 0);
    assert_memory_equal(buf, "rld", 3);
    assert_int_equal(in->read_at(in, 4, 2, buf, &err), PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, "bucket-1/compacted-changelog-u$0-5-5-5.cc-parquet"));
    in->close(in);
    /* a piece that runs past the physical file's end names itself and the file */
    assert_int_equal(
        pm_compacted_changelog_open(fs, "/t/p=1/bucket-1/compacted-changelog-u$0-5-10-3.cc-parquet",
                                    &in, &fmt, &err),
        PAIMON_ECORRUPT);
    assert_null(in);
    assert_non_null(strstr(err.message, "bucket-1/compacted-changelog-u$0-5-10-3.cc-parquet"));
    assert_non_null(strstr(err.message, "bucket-0/compacted-changelog-u$0-5.cc-parquet"));
    assert_int_equal(pm_compacted_changelog_open(
                         fs,
                         "/t/p=1/bucket-1/compacted-changelog-u$0-5-9223372036854775807-3.cc-"
                         "parquet",
                         &in, &fmt, &err),
                     PAIMON_ECORRUPT);
    /* the physical file's own name with a length past its end */
    put(fs, "/t/p=1/bucket-0/compacted-changelog-v$0-50.cc-orc", "short");
    assert_int_equal(pm_compacted_changelog_open(
                         fs, "/t/p=1/bucket-0/compacted-changelog-v$0-50.cc-orc", &in, &fmt, &err),
                     PAIMON_ECORRUPT);
    /* a missing physical file: both names are given */
    assert_int_equal(
        pm_compacted_changelog_open(fs, "/t/p=1/bucket-2/compacted-changelog-w$1-5-5-5.cc-avro",
                                    &in, &fmt, &err),
        PAIMON_ENOTFOUND);
    assert_non_null(strstr(err.message, "bucket-2/compacted-changelog-w$1-5-5-5.cc-avro"));
    assert_non_null(strstr(err.message, "bucket-1/compacted-changelog-w$1-5.cc-avro"));
    pm_fs_free(fs);
}

static void test_data_file_open_checks_piece(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_data_file *f = NULL;
    paimon_error err = {0};
    (void)state;
    /* bytes that are no data file at all: corrupt (the name promised one) */
    put(fs, "/t/bucket-0/compacted-changelog-u$0-4.cc-parquet", "PAR1nope");
    assert_int_equal(
        pm_data_file_open(&f, fs, "/t/bucket-1/compacted-changelog-u$0-4-4-4.cc-parquet", &err),
        PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, "compacted-changelog-u$0-4-4-4.cc-parquet"));
    /* Avro magic under a cc-parquet name: the name and the bytes disagree */
    put(fs, "/t/bucket-0/compacted-changelog-v$0-4.cc-parquet", "Obj\x01");
    assert_int_equal(
        pm_data_file_open(&f, fs, "/t/bucket-0/compacted-changelog-v$0-4.cc-parquet", &err),
        PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, "named a cc-parquet file, its bytes are avro"));
    /* a malformed name is never opened as it is */
    put(fs, "/t/bucket-0/compacted-changelog-x.parquet", "PAR1");
    assert_int_equal(pm_data_file_open(&f, fs, "/t/bucket-0/compacted-changelog-x.parquet", &err),
                     PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, "/t/bucket-0/compacted-changelog-x.parquet"));
    assert_null(f);
    pm_fs_free(fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_is_compacted_changelog_path),
        cmocka_unit_test(test_resolve_real_file),
        cmocka_unit_test(test_resolve_fake_file),
        cmocka_unit_test(test_resolve_different_formats),
        cmocka_unit_test(test_parse_and_name_round_trip),
        cmocka_unit_test(test_malformed_names),
        cmocka_unit_test(test_pieces_read_as_files),
        cmocka_unit_test(test_data_file_open_checks_piece),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
