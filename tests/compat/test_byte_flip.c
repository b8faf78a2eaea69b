/*
 * Byte-flip sweep: every byte of every Avro manifest, manifest list and index manifest in
 * the fixtures, and of every schema and snapshot file, is flipped in turn (x ^ 0xff); the
 * decoder must then return a valid decode or PAIMON_ECORRUPT, never crash or trip a
 * sanitizer (DESIGN.md invariant 5).
 */
#include <string.h>

#include "testlib.h"

#include "meta/manifest.h"
#include "meta/schema.h"
#include "meta/snapshot.h"
#include "util/alloc.h"

typedef struct tally {
    size_t decodes, ok, corrupt;
} tally;

static void check_rc(int rc, const char *path, size_t i, const paimon_error *err, tally *t)
{
    t->decodes++;
    if (rc == 0)
        t->ok++;
    else if (rc == PAIMON_ECORRUPT)
        t->corrupt++;
    else
        fail_msg("%s with byte %zu flipped: code %d (%s), expected 0 or PAIMON_ECORRUPT", path, i,
                 rc, err->message);
}

static const pm_avro_rdesc *desc_of(const char *name, int32_t *version)
{
    if (strncmp(name, "manifest-list-", 14) == 0) {
        *version = PM_MANIFEST_LIST_VERSION;
        return &PM_MANIFEST_FILE_META_DESC;
    }
    if (strncmp(name, "index-manifest-", 15) == 0) {
        *version = PM_INDEX_MANIFEST_VERSION;
        return &PM_INDEX_MANIFEST_ENTRY_DESC;
    }
    *version = PM_MANIFEST_VERSION;
    return &PM_MANIFEST_ENTRY_DESC;
}

static bool even_buckets(void *ctx, const pm_manifest_entry *e)
{
    (void)ctx;
    return e->bucket % 2 == 0;
}

static void test_manifests(void **state)
{
    pm_strlist files;
    tally t = {0, 0, 0};
    size_t nfiles = 0;
    (void)state;
    if (!pm_test_require_fixtures())
        return;
    pm_strlist_init(&files);
    pm_test_find_files(pm_test_fixtures(), "manifest-", &files);
    pm_test_find_files(pm_test_fixtures(), "index-manifest-", &files);
    for (size_t f = 0; f < files.count; f++) {
        size_t len;
        uint8_t *data = pm_test_read_file(files.items[f], &len);
        int32_t version;
        const pm_avro_rdesc *rd = desc_of(strrchr(files.items[f], '/') + 1, &version);
        if (len < 4 || memcmp(data, "Obj", 3) != 0) {
            pm_free(data);
            continue;
        }
        nfiles++;
        for (size_t i = 0; i < len; i++) {
            pm_arena arena;
            void *records;
            size_t n;
            paimon_error err = {0};
            int rc;
            data[i] ^= 0xff;
            pm_arena_init(&arena, 1 << 14);
            rc = pm_manifest_decode(data, len, files.items[f], rd, version, &arena, &records, &n,
                                    &err);
            check_rc(rc, files.items[f], i, &err, &t);
            if (rd == &PM_MANIFEST_ENTRY_DESC) { /* and with most entries skipped */
                pm_manifest_filter even = {even_buckets, NULL};
                pm_manifest_entry *entries;
                rc = pm_manifest_decode_filtered(data, len, files.items[f], &even, &arena, &entries,
                                                 &n, &err);
                check_rc(rc, files.items[f], i, &err, &t);
            }
            pm_arena_free(&arena);
            data[i] ^= 0xff;
        }
        pm_free(data);
    }
    printf("%zu manifest files, %zu flipped decodes: %zu decoded, %zu corrupt\n", nfiles, t.decodes,
           t.ok, t.corrupt);
    assert_true(nfiles > 100);
    pm_strlist_free(&files);
}

static void test_json_files(void **state)
{
    pm_strlist files;
    tally t = {0, 0, 0};
    (void)state;
    if (!pm_test_require_fixtures())
        return;
    pm_strlist_init(&files);
    pm_test_find_files(pm_test_fixtures(), "schema-", &files);
    pm_test_find_files(pm_test_fixtures(), "snapshot-", &files);
    for (size_t f = 0; f < files.count; f++) {
        size_t len;
        uint8_t *data = pm_test_read_file(files.items[f], &len);
        bool schema = strstr(strrchr(files.items[f], '/'), "/schema-") != NULL;
        /* Two flips a byte: 0xff (mostly invalid UTF-8) and 0x01 (digits, quotes, keys). */
        for (size_t k = 0; k < 2 * len; k++) {
            size_t i = k / 2;
            uint8_t mask = k % 2 ? 0x01 : 0xff;
            paimon_error err = {0};
            int rc;
            data[i] ^= mask;
            if (schema) {
                pm_schema *s = NULL;
                rc = pm_schema_parse(data, len, files.items[f], &s, &err);
                pm_schema_free(s);
            } else {
                pm_snapshot *s = NULL;
                rc = pm_snapshot_parse(data, len, files.items[f], &s, &err);
                pm_snapshot_free(s);
            }
            check_rc(rc, files.items[f], i, &err, &t);
            data[i] ^= mask;
        }
        pm_free(data);
    }
    printf("%zu JSON files, %zu flipped parses: %zu parsed, %zu corrupt\n", files.count, t.decodes,
           t.ok, t.corrupt);
    pm_strlist_free(&files);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_manifests),
        cmocka_unit_test(test_json_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
