/* The write context's settings of spill files (table/write/write_ctx.c): spill-compression
 * picks their codec and spill-compression.zstd-level their zstd level (Java's options; a
 * level outside the Parquet writer's 1 to 22 is brought to the nearest end, since Java's zstd
 * accepts more and a table carrying one must stay writable); spill files never use
 * dictionaries. */
#include <string.h>

#include "testlib.h"

#include "io/fs.h"
#include "meta/schema.h"
#include "table/write/write_ctx.h"
#include "util/alloc.h"

/* The spill settings of a table created with `options`. */
static void check_spill(const char *const *options, const char *codec, const char *level)
{
    char *t = pm_test_create_table("wctx", "id BIGINT NOT NULL, v STRING", "id", options);
    pm_fs *fs = pm_fs_local_new(false);
    pm_schema *schema = NULL;
    pm_write_ctx c;
    paimon_error err;
    assert_int_equal(pm_schema_read_latest(fs, t, &schema, &err), 0);
    if (pm_write_ctx_init(&c, fs, t, schema, &err) != 0)
        fail_msg("write context: %s", err.message);
    assert_string_equal(c.spill_codec, codec);
    assert_non_null(pm_options_get(&c.spill_opts, "file.compression.zstd-level"));
    assert_string_equal(pm_options_get(&c.spill_opts, "file.compression.zstd-level"), level);
    assert_non_null(pm_options_get(&c.spill_opts, "parquet.enable.dictionary"));
    assert_string_equal(pm_options_get(&c.spill_opts, "parquet.enable.dictionary"), "false");
    pm_write_ctx_release(&c);
    pm_schema_free(schema);
    pm_fs_free(fs);
    pm_free(t);
}

static void test_spill_defaults(void **state)
{
    static const char *const options[] = {"bucket=1", NULL};
    (void)state;
    check_spill(options, "zstd", "1"); /* Java's defaults: zstd at level 1 */
}

static void test_spill_zstd_level(void **state)
{
    static const char *const nine[] = {"bucket=1", "spill-compression.zstd-level=9", NULL};
    static const char *const fast[] = {"bucket=1", "spill-compression.zstd-level=-5", NULL};
    static const char *const past[] = {"bucket=1", "spill-compression.zstd-level=40", NULL};
    (void)state;
    check_spill(nine, "zstd", "9");
    check_spill(fast, "zstd", "1");
    check_spill(past, "zstd", "22");
}

static void test_spill_codec(void **state)
{
    static const char *const lz4[] = {"bucket=1", "spill-compression=lz4", NULL};
    static const char *const lzo[] = {"bucket=1", "spill-compression=lzo", NULL};
    (void)state;
    check_spill(lz4, "lz4", "1");
    check_spill(lzo, "zstd", "1"); /* no lzo here: spill files are private */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spill_defaults),
        cmocka_unit_test(test_spill_zstd_level),
        cmocka_unit_test(test_spill_codec),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
