/* meta/option_catalog: the options check of create and alter refuses what can never be
 * written (issue 19 item 10): file formats Java does not know (EINVALID) or paimon-c does
 * not write (EUNSUPPORTED), compressions per format as each Java writer takes them, values
 * out of the ranges that work, malformed maps, and names the option in every message. */
#include <string.h>

#include "testlib.h"

#include "meta/option_catalog.h"
#include "util/alloc.h"

/* Validates a two-column table (primary key id when `pk`) with the "k", "v" pairs given;
 * returns the code and leaves the message in *err. */
static int validate(bool pk, const char *const *kv, paimon_error *err)
{
    pm_schema *s = pm_calloc(1, sizeof(*s));
    int rc;
    assert_non_null(s);
    pm_strlist_init(&s->partition_keys);
    pm_strlist_init(&s->primary_keys);
    pm_options_init(&s->options);
    assert_int_equal(pm_columns_parse("id BIGINT, v STRING", &s->row, err), 0);
    if (pk) {
        assert_int_equal(pm_strlist_push(&s->primary_keys, "id"), 0);
        assert_int_equal(pm_options_set(&s->options, "bucket", "1"), 0);
    }
    for (size_t i = 0; kv[i] != NULL; i += 2)
        assert_int_equal(pm_options_set(&s->options, kv[i], kv[i + 1]), 0);
    memset(err, 0, sizeof(*err));
    rc = pm_options_validate(s, err);
    pm_schema_free(s);
    return rc;
}

typedef struct vcase {
    const char *kv[9];
    int rc;
    const char *message; /* a part of the message; NULL when accepted */
} vcase;

static void run(const vcase *cases, size_t count, bool pk)
{
    for (size_t i = 0; i < count; i++) {
        paimon_error err;
        int rc = validate(pk, cases[i].kv, &err);
        if (rc != cases[i].rc ||
            (cases[i].message != NULL && strstr(err.message, cases[i].message) == NULL))
            fail_msg("case %zu (%s=%s): code %d '%s', want %d '%s'", i, cases[i].kv[0],
                     cases[i].kv[1], rc, err.message, cases[i].rc,
                     cases[i].message != NULL ? cases[i].message : "");
    }
}

static void test_formats(void **state)
{
    static const vcase CASES[] = {
        {{NULL}, 0, NULL},
        {{"file.format", "xml", NULL}, PAIMON_EINVALID, "option file.format: 'xml' is not a file"},
        {{"file.format", "PARQUET", NULL}, 0, NULL},
        {{"file.format", "orc", NULL}, 0, NULL},
        {{"file.format", "Avro", NULL}, 0, NULL},
        {{"file.format", "csv", NULL}, PAIMON_EUNSUPPORTED, "paimon-c cannot write csv files"},
        {{"file.format", "lance", NULL}, PAIMON_EUNSUPPORTED, "option file.format"},
        {{"changelog-file.format", "json", NULL}, PAIMON_EUNSUPPORTED, "changelog-file.format"},
        {{"changelog-file.format", "yaml", NULL}, PAIMON_EINVALID, "changelog-file.format"},
        {{"file.format.per.level", "0:avro,3:xml", NULL},
         PAIMON_EINVALID,
         "option file.format.per.level: 'xml' is not a file format"},
        {{"file.format.per.level", "0:avro,x:orc", NULL},
         PAIMON_EINVALID,
         "option file.format.per.level: level 'x' is not an integer"},
        {{"file.format.per.level", "0:avro,0:orc", NULL},
         PAIMON_EINVALID,
         "option file.format.per.level"},
        {{"file.format.per.level", "0:avro", NULL}, 0, NULL},
        {{"manifest.format", "orc", NULL}, 0, NULL},
        {{"manifest.format", "parquet", NULL}, PAIMON_EUNSUPPORTED, "manifest.format"},
        {{"manifest.format", "xml", NULL}, PAIMON_EINVALID, "manifest.format"},
    };
    (void)state;
    run(CASES, sizeof(CASES) / sizeof(CASES[0]), false);
}

static void test_compressions(void **state)
{
    static const vcase CASES[] = {
        {{"file.compression", "bogus", NULL},
         PAIMON_EINVALID,
         "option file.compression: 'bogus' is not a compression of parquet files"},
        /* parquet: "none" exactly, else CompressionCodecName.valueOf(upper case) */
        {{"file.compression", "none", NULL}, 0, NULL},
        {{"file.compression", "NONE", NULL}, PAIMON_EINVALID, "file.compression"},
        {{"file.compression", "Snappy", NULL}, 0, NULL},
        {{"file.compression", "uncompressed", NULL}, 0, NULL},
        {{"file.compression", "lz4_raw", NULL}, 0, NULL},
        {{"file.compression", "gzip", NULL}, 0, NULL},
        {{"file.compression", "lzo", NULL},
         PAIMON_EUNSUPPORTED,
         "option file.compression: paimon-c cannot write lzo compression in parquet files"},
        {{"file.compression", "brotli", NULL}, PAIMON_EUNSUPPORTED, "brotli"},
        {{"file.compression", "zlib", NULL}, PAIMON_EINVALID, "file.compression"},
        {{"file.compression", "bogus", "parquet.compression", "snappy", NULL}, 0, NULL},
        {{"parquet.compression", "none", NULL}, PAIMON_EINVALID, "parquet.compression"},
        {{"parquet.compression", "BROTLI", NULL}, PAIMON_EUNSUPPORTED, "parquet.compression"},
        /* orc: CompressionKind.valueOf(upper case) */
        {{"file.format", "orc", "file.compression", "ZLIB", NULL}, 0, NULL},
        {{"file.format", "orc", "file.compression", "none", NULL}, 0, NULL},
        {{"file.format", "orc", "file.compression", "gzip", NULL},
         PAIMON_EINVALID,
         "compression of orc files"},
        {{"file.format", "orc", "file.compression", "lzo", NULL}, PAIMON_EUNSUPPORTED, "lzo"},
        {{"file.format", "orc", "orc.compress", "brotli", NULL}, PAIMON_EINVALID, "orc.compress"},
        {{"file.format", "orc", "orc.compress", "snappy", "file.compression", "x", NULL}, 0, NULL},
        /* avro: zstd in any case, else Avro's names exactly */
        {{"file.format", "avro", "file.compression", "ZSTD", NULL}, 0, NULL},
        {{"file.format", "avro", "file.compression", "snappy", NULL}, 0, NULL},
        {{"file.format", "avro", "file.compression", "null", NULL}, 0, NULL},
        {{"file.format", "avro", "file.compression", "none", NULL},
         PAIMON_EINVALID,
         "compression of avro files"},
        {{"file.format", "avro", "file.compression", "Snappy", NULL}, PAIMON_EINVALID, "Snappy"},
        {{"file.format", "avro", "file.compression", "xz", NULL}, PAIMON_EUNSUPPORTED, "xz"},
        {{"file.format", "avro", "avro.codec", "zstd", NULL}, PAIMON_EINVALID, "avro.codec"},
        {{"file.format", "avro", "avro.codec", "zstandard", NULL}, 0, NULL},
        {{"file.format", "avro", "avro.codec", "bzip2", NULL}, PAIMON_EUNSUPPORTED, "avro.codec"},
        /* the codec of the files that use it: per level, changelog, manifests */
        {{"file.format.per.level", "0:avro", "file.compression", "lz4", NULL},
         PAIMON_EINVALID,
         "option file.compression: 'lz4' is not a compression of avro files"},
        {{"file.compression.per.level", "0:lzo", NULL},
         PAIMON_EUNSUPPORTED,
         "file.compression.per.level"},
        {{"file.compression.per.level", "1:lz4,0:snappy", NULL}, 0, NULL},
        {{"changelog-file.compression", "bogus", NULL},
         PAIMON_EINVALID,
         "option changelog-file.compression"},
        {{"changelog-file.format", "avro", NULL}, 0, NULL},
        {{"changelog-file.format", "avro", "file.compression", "lz4", NULL},
         PAIMON_EINVALID,
         "compression of avro files"},
        {{"manifest.compression", "lz4", NULL}, PAIMON_EINVALID, "option manifest.compression"},
        {{"manifest.compression", "snappy", NULL}, 0, NULL},
        {{"manifest.format", "orc", "manifest.compression", "ZLIB", NULL}, 0, NULL},
        {{"manifest.format", "orc", "manifest.compression", "lz4", NULL},
         PAIMON_EUNSUPPORTED,
         "option manifest.compression: paimon-c cannot write lz4"},
    };
    (void)state;
    run(CASES, sizeof(CASES) / sizeof(CASES[0]), false);
}

static void test_values(void **state)
{
    static const vcase CASES[] = {
        {{"num-sorted-run.compaction-trigger", "0", NULL},
         PAIMON_EINVALID,
         "option num-sorted-run.compaction-trigger: '0' is out of range: at least 1"},
        {{"num-sorted-run.compaction-trigger", "x", NULL}, PAIMON_EINVALID, "is not an integer"},
        {{"target-file-size", "0 b", NULL}, PAIMON_EINVALID, "option target-file-size"},
        {{"write-buffer-size", "64 mib", NULL}, PAIMON_EINVALID, "is not a memory size"},
        {{"snapshot.time-retained", "1 us", NULL}, PAIMON_EINVALID, "is not a duration"},
        {{"snapshot.time-retained", "106751991167301 d", NULL}, PAIMON_EINVALID, "out of range"},
        {{"file.compression.zstd-level", "23", NULL},
         PAIMON_EUNSUPPORTED,
         "paimon-c writes zstd levels 1 to 22"},
        {{"lookup.hash-load-factor", "1.5", NULL}, PAIMON_EINVALID, "lookup.hash-load-factor"},
        {{"lookup.hash-load-factor", "0.5f", NULL}, 0, NULL},
        {{"num-levels", "1", NULL}, PAIMON_EINVALID, "option num-levels"},
        {{"cache-page-size", "16 b", NULL}, PAIMON_EUNSUPPORTED, "cache-page-size"},
        {{"file.compression.per.level", "0 lz4", NULL},
         PAIMON_EINVALID,
         "option file.compression.per.level"},
        {{"fields.v.sequence-group", "id", NULL}, 0, NULL},
        {{"write-only", "yes", NULL}, PAIMON_EINVALID, "option write-only: 'yes' is not true"},
        {{"snapshot.num-retained.min", "0", NULL},
         PAIMON_EINVALID,
         "snapshot.num-retained.min should be at least 1"},
        {{"snapshot.num-retained.min", "5", "changelog.num-retained.max", "4", NULL},
         PAIMON_EINVALID,
         "changelog.num-retained.min should not be larger"},
    };
    (void)state;
    run(CASES, sizeof(CASES) / sizeof(CASES[0]), true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formats),
        cmocka_unit_test(test_compressions),
        cmocka_unit_test(test_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
