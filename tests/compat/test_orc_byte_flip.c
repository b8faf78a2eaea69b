/*
 * Byte-flip sweep over every ORC file in the fixtures (data files, manifests, manifest
 * lists, index manifests): each file decodes unchanged, and with every byte flipped in turn
 * (x ^ 0xff) it gives a valid decode or an error (PAIMON_ECORRUPT, or PAIMON_EUNSUPPORTED /
 * PAIMON_ELIMIT where the flip names something legal but unsupported or too large), never
 * a crash or a sanitizer report (DESIGN.md invariant 5).
 */
#include <string.h>

#include "testlib.h"

#include "format/orc/orc_reader.h"
#include "meta/manifest.h"
#include "util/alloc.h"

static bool is_orc_file(const char *path)
{
    size_t len;
    uint8_t *data = pm_test_read_file(path, &len);
    bool orc = len >= 3 && memcmp(data, "ORC", 3) == 0;
    pm_free(data);
    return orc;
}

/* Decodes every row of an ORC file in memory; returns the code and the row count. */
static int decode_all(const uint8_t *data, size_t len, const char *what, int64_t *rows,
                      paimon_error *err)
{
    pm_orc_reader *r = NULL;
    pm_orc_read_options o;
    const pm_orc_vec *v;
    int rc;
    *rows = 0;
    memset(&o, 0, sizeof(o));
    o.batch_rows = 7; /* several batches even for small files */
    o.max_values = 1 << 20;
    if ((rc = pm_orc_reader_open_memory(&r, data, len, what, err)) == 0 &&
        (rc = pm_orc_reader_start(r, &o, err)) == 0) {
        while ((rc = pm_orc_reader_next(r, &v, err)) == 0)
            *rows += v->length;
        if (rc == PAIMON_ITEROVER)
            rc = 0;
    }
    if (rc == 0 && *rows != (int64_t)pm_orc_reader_footer(r)->number_of_rows)
        rc = pm_corrupt(err, "%s: decoded %lld rows, the footer says %llu", what, (long long)*rows,
                        (unsigned long long)pm_orc_reader_footer(r)->number_of_rows);
    pm_orc_reader_free(r);
    return rc;
}

/* Decodes a manifest of the kind its name says, or any other ORC file in full. */
static int decode(const uint8_t *data, size_t len, const char *path, const char *name,
                  paimon_error *err)
{
    const pm_avro_rdesc *rd = &PM_MANIFEST_ENTRY_DESC;
    int32_t version = PM_MANIFEST_VERSION;
    pm_arena arena;
    void *records;
    size_t n;
    int64_t rows;
    int rc;
    if (strncmp(name, "manifest-", 9) != 0 && strncmp(name, "index-manifest-", 15) != 0)
        return decode_all(data, len, path, &rows, err);
    if (strncmp(name, "manifest-list-", 14) == 0)
        rd = &PM_MANIFEST_FILE_META_DESC, version = PM_MANIFEST_LIST_VERSION;
    else if (strncmp(name, "index-manifest-", 15) == 0)
        rd = &PM_INDEX_MANIFEST_ENTRY_DESC, version = PM_INDEX_MANIFEST_VERSION;
    pm_arena_init(&arena, 1 << 14);
    rc = pm_manifest_decode(data, len, path, rd, version, &arena, &records, &n, err);
    pm_arena_free(&arena);
    return rc;
}

static void test_byte_flips(void **state)
{
    pm_strlist all;
    size_t files = 0, decodes = 0, ok = 0, failed = 0;
    (void)state;
    if (!pm_test_require_fixtures())
        return;
    pm_strlist_init(&all);
    pm_test_find_files(pm_test_fixtures(), "", &all);
    for (size_t f = 0; f < all.count; f++) {
        const char *path = all.items[f];
        const char *name = strrchr(path, '/') + 1;
        size_t len;
        uint8_t *data;
        paimon_error err0 = {0};
        int rc0;
        if (!is_orc_file(path))
            continue;
        data = pm_test_read_file(path, &len);
        files++;
        if ((rc0 = decode(data, len, path, name, &err0)) != 0)
            fail_msg("%s: %s", path, err0.message);
        for (size_t i = 0; i < len; i++) {
            paimon_error err = {0};
            int rc;
            data[i] ^= 0xff;
            rc = decode(data, len, path, name, &err);
            decodes++;
            if (rc == 0)
                ok++;
            else if (rc == PAIMON_ECORRUPT || rc == PAIMON_EUNSUPPORTED || rc == PAIMON_ELIMIT)
                failed++;
            else
                fail_msg("%s with byte %zu flipped: code %d (%s)", path, i, rc, err.message);
            data[i] ^= 0xff;
        }
        pm_free(data);
    }
    printf("%zu ORC files, %zu flipped decodes: %zu decoded, %zu refused\n", files, decodes, ok,
           failed);
    assert_true(files > 150);
    pm_strlist_free(&all);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_byte_flips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
