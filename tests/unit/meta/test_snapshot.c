/* Snapshot JSON in every shape Java wrote (0.8 to HEAD), the 1.4.2 shape written byte for
 * byte, hint files (missing, stale, garbled, ids not starting at 1), the create-if-absent
 * commit, tags and consumers. */
#include <string.h>

#include "testlib.h"

#include "meta/snapshot.h"
#include "util/alloc.h"
#include "util/strlist.h"

/* metadata.md §4.2: the 1.4-era file Java wrote (VERIFIED). */
static const char JAVA_14[] =
    "{\n"
    "  \"version\" : 3,\n"
    "  \"id\" : 8,\n"
    "  \"schemaId\" : 0,\n"
    "  \"baseManifestList\" : \"manifest-list-09c07466-3005-440a-b54b-b06b16aaa1e7-2\",\n"
    "  \"baseManifestListSize\" : 1222,\n"
    "  \"deltaManifestList\" : \"manifest-list-09c07466-3005-440a-b54b-b06b16aaa1e7-3\",\n"
    "  \"deltaManifestListSize\" : 1108,\n"
    "  \"indexManifest\" : \"index-manifest-4c49a948-5537-441c-a343-69b6e60e6cf7-0\",\n"
    "  \"commitUser\" : \"21deff88-32bc-463a-902d-d6f1847bab26\",\n"
    "  \"commitIdentifier\" : 9223372036854775807,\n"
    "  \"commitKind\" : \"COMPACT\",\n"
    "  \"timeMillis\" : 1784213609344,\n"
    "  \"totalRecordCount\" : 4,\n"
    "  \"deltaRecordCount\" : 0,\n"
    "  \"nextRowId\" : 0\n"
    "}";

/* 1.3-era: explicit nulls, logOffsets, changelogRecordCount 0. */
static const char JAVA_13[] =
    "{\"version\":3,\"id\":1,\"schemaId\":0,\"baseManifestList\":\"b\",\"baseManifestListSize\":"
    "884,"
    "\"deltaManifestList\":\"d\",\"deltaManifestListSize\":1000,\"changelogManifestList\":null,"
    "\"commitUser\":\"u\",\"commitIdentifier\":9223372036854775807,\"commitKind\":\"APPEND\","
    "\"timeMillis\":1724509030368,\"logOffsets\":{},\"totalRecordCount\":1,\"deltaRecordCount\":1,"
    "\"changelogRecordCount\":0,\"nextRowId\":0}";

/* 0.8-era: no manifest-list sizes, null record counts. */
static const char JAVA_08[] =
    "{\"version\":3,\"id\":2,\"schemaId\":0,\"baseManifestList\":\"b\",\"deltaManifestList\":\"d\","
    "\"changelogManifestList\":null,\"commitUser\":\"u\",\"commitIdentifier\":5,"
    "\"commitKind\":\"OVERWRITE\",\"timeMillis\":1,\"logOffsets\":{},\"totalRecordCount\":null,"
    "\"deltaRecordCount\":null,\"changelogRecordCount\":null,\"watermark\":-9223372036854775808}";

/* 2.0 and HEAD: uuid, writerVersion, operation, properties, statistics. */
static const char JAVA_HEAD[] =
    "{\"version\":3,\"uuid\":\"0b8f\",\"id\":3,\"schemaId\":1,\"baseManifestList\":\"b\","
    "\"baseManifestListSize\":1,\"deltaManifestList\":\"d\",\"deltaManifestListSize\":2,"
    "\"changelogManifestList\":\"c\",\"changelogManifestListSize\":3,\"commitUser\":\"u\","
    "\"writerVersion\":\"java-2.1\",\"commitIdentifier\":7,\"commitKind\":\"ANALYZE\","
    "\"timeMillis\":9,\"totalRecordCount\":10,\"deltaRecordCount\":-1,\"changelogRecordCount\":4,"
    "\"statistics\":\"stat-1\",\"properties\":{\"k\":\"v\"},\"nextRowId\":77,"
    "\"operation\":\"MERGE\"}";

static pm_snapshot *parse(const char *text)
{
    pm_snapshot *s = NULL;
    paimon_error err = {0};
    if (pm_snapshot_parse((const uint8_t *)text, strlen(text), "snap", &s, &err) != 0)
        fail_msg("%s", err.message);
    return s;
}

static void test_shapes(void **state)
{
    pm_snapshot *s;
    (void)state;
    s = parse(JAVA_14);
    assert_int_equal(s->id, 8);
    assert_int_equal(s->commit_kind, PM_COMMIT_COMPACT);
    assert_int_equal(s->commit_identifier, INT64_MAX);
    assert_int_equal(s->base_manifest_list_size, 1222);
    assert_null(s->changelog_manifest_list);
    assert_int_equal(s->changelog_record_count, PM_ABSENT_COUNT);
    assert_string_equal(s->index_manifest, "index-manifest-4c49a948-5537-441c-a343-69b6e60e6cf7-0");
    assert_true(s->has_next_row_id);
    pm_snapshot_free(s);

    s = parse(JAVA_13);
    assert_null(s->changelog_manifest_list);
    assert_int_equal(s->changelog_record_count, 0);
    assert_int_equal(s->commit_kind, PM_COMMIT_APPEND);
    pm_snapshot_free(s);

    s = parse(JAVA_08);
    assert_int_equal(s->base_manifest_list_size, PM_ABSENT);
    assert_int_equal(s->total_record_count, PM_ABSENT_COUNT);
    assert_int_equal(s->delta_record_count, PM_ABSENT_COUNT);
    assert_true(s->has_watermark);
    assert_int_equal(s->watermark, INT64_MIN);
    assert_int_equal(s->commit_kind, PM_COMMIT_OVERWRITE);
    assert_false(s->has_next_row_id);
    pm_snapshot_free(s);

    s = parse(JAVA_HEAD);
    assert_int_equal(s->delta_record_count, -1);
    assert_int_equal(s->changelog_manifest_list_size, 3);
    assert_int_equal(s->commit_kind, PM_COMMIT_ANALYZE);
    assert_string_equal(pm_options_get(&s->properties, "k"), "v");
    assert_string_equal(s->statistics, "stat-1");
    assert_int_equal(s->next_row_id, 77);
    pm_snapshot_free(s);

    /* A commit kind newer than this library reads; writing it is not possible. */
    s = parse("{\"version\":3,\"id\":1,\"schemaId\":0,\"baseManifestList\":\"b\","
              "\"deltaManifestList\":\"d\",\"commitUser\":\"u\",\"commitIdentifier\":1,"
              "\"commitKind\":\"TRUNCATE\",\"timeMillis\":1}");
    assert_int_equal(s->commit_kind, PM_COMMIT_UNKNOWN);
    assert_string_equal(s->commit_kind_name, "TRUNCATE");
    pm_snapshot_free(s);
}

static void test_fixture_snapshots(void **state)
{
    pm_strlist files;
    size_t n = 0;
    (void)state;
    if (!pm_test_require_fixtures())
        return;
    pm_strlist_init(&files);
    pm_test_find_files(pm_test_fixtures(), "snapshot-", &files);
    for (size_t i = 0; i < files.count; i++) {
        size_t len;
        uint8_t *data = pm_test_read_file(files.items[i], &len);
        pm_snapshot *s = NULL, *again = NULL;
        paimon_error err = {0};
        pm_buf out;
        if (pm_snapshot_parse(data, len, files.items[i], &s, &err) != 0)
            fail_msg("%s", err.message);
        /* The 1.4.2 shape written from it reads back to the same values. */
        pm_buf_init(&out, 0);
        assert_int_equal(pm_snapshot_write_json(s, &out), 0);
        assert_int_equal(pm_snapshot_parse(out.data, out.len, "again", &again, &err), 0);
        assert_int_equal(again->id, s->id);
        assert_int_equal(again->schema_id, s->schema_id);
        assert_string_equal(again->base_manifest_list, s->base_manifest_list);
        assert_int_equal(again->base_manifest_list_size, s->base_manifest_list_size);
        assert_int_equal(again->delta_manifest_list_size, s->delta_manifest_list_size);
        assert_int_equal(again->commit_identifier, s->commit_identifier);
        assert_int_equal(again->commit_kind, s->commit_kind);
        assert_int_equal(again->time_millis, s->time_millis);
        if (s->total_record_count != PM_ABSENT_COUNT)
            assert_int_equal(again->total_record_count, s->total_record_count);
        if (s->delta_record_count != PM_ABSENT_COUNT)
            assert_int_equal(again->delta_record_count, s->delta_record_count);
        assert_null(json_object_get(again->json, "logOffsets"));
        pm_buf_free(&out);
        pm_snapshot_free(s);
        pm_snapshot_free(again);
        pm_free(data);
        n++;
    }
    assert_true(n > 50);
    pm_strlist_free(&files);
}

static void test_writes_java_14_bytes(void **state)
{
    pm_snapshot *s = parse(JAVA_14);
    pm_buf out;
    (void)state;
    pm_buf_init(&out, 0);
    assert_int_equal(pm_snapshot_write_json(s, &out), 0);
    assert_string_equal(pm_buf_cstr(&out), JAVA_14);
    pm_buf_free(&out);
    pm_snapshot_free(s);
}

static void expect_corrupt(const char *text, const char *fragment)
{
    pm_snapshot *s = NULL;
    paimon_error err = {0};
    assert_int_equal(pm_snapshot_parse((const uint8_t *)text, strlen(text), "snapshot-9", &s, &err),
                     PAIMON_ECORRUPT);
    assert_null(s);
    if (strstr(err.message, fragment) == NULL || strncmp(err.message, "snapshot-9: ", 12) != 0)
        fail_msg("message '%s' lacks '%s'", err.message, fragment);
}

static void test_malformed(void **state)
{
    (void)state;
    expect_corrupt("{\"version\":3,", "malformed JSON at line 1");
    expect_corrupt("[]", "not a JSON object");
    expect_corrupt("{\"version\":3,\"id\":1}", "missing \"schemaId\"");
    expect_corrupt("{\"version\":3,\"id\":\"1\"}", "\"id\" is not an integer");
    expect_corrupt("{\"version\":3,\"id\":1,\"schemaId\":0,\"baseManifestList\":\"b\","
                   "\"deltaManifestList\":\"d\",\"commitUser\":\"u\",\"commitIdentifier\":1,"
                   "\"timeMillis\":1}",
                   "missing \"commitKind\"");
    expect_corrupt("{\"version\":3,\"id\":1,\"schemaId\":0,\"baseManifestList\":\"b\","
                   "\"baseManifestListSize\":-5,\"deltaManifestList\":\"d\",\"commitUser\":\"u\","
                   "\"commitIdentifier\":1,\"commitKind\":\"APPEND\",\"timeMillis\":1}",
                   "\"baseManifestListSize\" is negative");
}

static void put(pm_fs *fs, const char *path, const char *text)
{
    paimon_error err = {0};
    assert_int_equal(fs->write_atomic(fs, path, text, strlen(text), true, &err), 0);
}

static void put_snapshot(pm_fs *fs, int64_t id)
{
    char path[64], text[512];
    snprintf(path, sizeof(path), "t/snapshot/snapshot-%lld", (long long)id);
    snprintf(text, sizeof(text),
             "{\"version\":3,\"id\":%lld,\"schemaId\":0,\"baseManifestList\":\"b\","
             "\"deltaManifestList\":\"d\",\"commitUser\":\"u\",\"commitIdentifier\":1,"
             "\"commitKind\":\"APPEND\",\"timeMillis\":1}",
             (long long)id);
    put(fs, path, text);
}

static void expect_latest(pm_fs *fs, bool found, int64_t want)
{
    int64_t id = -5;
    bool f;
    paimon_error err = {0};
    assert_int_equal(pm_snapshot_latest_id(fs, "t", &id, &f, &err), 0);
    assert_int_equal(f, found);
    if (found)
        assert_int_equal(id, want);
}

static void expect_earliest(pm_fs *fs, int64_t want)
{
    int64_t id = -5;
    bool f;
    paimon_error err = {0};
    assert_int_equal(pm_snapshot_earliest_id(fs, "t", &id, &f, &err), 0);
    assert_true(f);
    assert_int_equal(id, want);
}

static void test_hints(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    paimon_error err = {0};
    int64_t *ids;
    size_t n;
    (void)state;
    expect_latest(fs, false, 0); /* no snapshot directory at all */
    /* Expired history: snapshots 4..6, no hints. */
    put_snapshot(fs, 4);
    put_snapshot(fs, 5);
    put_snapshot(fs, 6);
    put(fs, "t/snapshot/.snapshot-7.123.tmp", "partial"); /* a crashed commit's temp file */
    put(fs, "t/snapshot/snapshot-x", "junk");
    expect_latest(fs, true, 6);
    expect_earliest(fs, 4);
    assert_int_equal(pm_snapshot_list_ids(fs, "t", &ids, &n, &err), 0);
    assert_int_equal(n, 3);
    assert_int_equal(ids[0], 4);
    pm_free(ids);
    /* A correct hint is used; a stale one (snapshot-(hint+1) exists) is not. */
    put(fs, "t/snapshot/LATEST", "6");
    expect_latest(fs, true, 6);
    put(fs, "t/snapshot/LATEST", "5");
    expect_latest(fs, true, 6);
    /* Garbled hints: a newline (Java's parseLong fails), text, a missing snapshot. */
    put(fs, "t/snapshot/LATEST", "6\n");
    expect_latest(fs, true, 6);
    put(fs, "t/snapshot/LATEST", "latest");
    expect_latest(fs, true, 6);
    put(fs, "t/snapshot/LATEST", "99");
    expect_latest(fs, true, 6);
    put(fs, "t/snapshot/EARLIEST", "1");
    expect_earliest(fs, 4);
    put(fs, "t/snapshot/EARLIEST", "5"); /* stale: snapshot-4 still exists */
    expect_earliest(fs, 4);
    put(fs, "t/snapshot/EARLIEST", "4");
    expect_earliest(fs, 4);
    /* The hint writer: digits only. */
    assert_int_equal(pm_snapshot_write_hint(fs, "t", "LATEST", 6, &err), 0);
    {
        uint8_t *data;
        size_t len;
        assert_int_equal(pm_fs_read_all(fs, "t/snapshot/LATEST", 0, &data, &len, &err), 0);
        assert_int_equal(len, 1);
        assert_memory_equal(data, "6", 1);
        pm_free(data);
    }
    pm_fs_free(fs);
}

static void test_commit_is_create_if_absent(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_snapshot *s = parse(JAVA_14), *back = NULL;
    paimon_error err = {0};
    (void)state;
    assert_int_equal(pm_snapshot_commit(fs, "t", s, &err), 0);
    assert_int_equal(pm_snapshot_commit(fs, "t", s, &err), PAIMON_EEXISTS);
    assert_int_equal(pm_snapshot_read(fs, "t", 8, &back, &err), 0);
    assert_int_equal(back->time_millis, s->time_millis);
    pm_snapshot_free(back);
    assert_int_equal(pm_snapshot_read(fs, "t", 9, &back, &err), PAIMON_ENOTFOUND);
    assert_non_null(strstr(err.message, "snapshot 9 does not exist"));
    pm_snapshot_free(s);
    pm_fs_free(fs);
}

static void test_tags_and_consumers(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_tag tag = {0}, *back = NULL;
    pm_strlist names;
    paimon_error err = {0};
    int64_t next = 0;
    (void)state;
    tag.name = "release-1";
    tag.snapshot = parse(JAVA_14);
    tag.create_time = json_loads("[2026,4,19,10,11,12,123000000]", 0, NULL);
    assert_int_equal(pm_tag_write(fs, "t", &tag, &err), 0);
    assert_int_equal(pm_tag_write(fs, "t", &tag, &err), PAIMON_EEXISTS);
    assert_int_equal(pm_tag_read(fs, "t", "release-1", &back, &err), 0);
    assert_int_equal(back->snapshot->id, 8);
    assert_true(json_equal(back->create_time, tag.create_time));
    assert_null(back->time_retained);
    pm_tag_free(back);
    assert_int_equal(pm_tag_read(fs, "t", "nope", &back, &err), PAIMON_ENOTFOUND);
    pm_strlist_init(&names);
    assert_int_equal(pm_tag_list(fs, "t", &names, &err), 0);
    assert_int_equal(names.count, 1);
    assert_string_equal(names.items[0], "release-1");
    pm_strlist_free(&names);

    assert_int_equal(pm_consumer_write(fs, "t", "job-1", 42, &err), 0);
    assert_int_equal(pm_consumer_read(fs, "t", "job-1", &next, &err), 0);
    assert_int_equal(next, 42);
    pm_strlist_init(&names);
    assert_int_equal(pm_consumer_list(fs, "t", &names, &err), 0);
    assert_int_equal(names.count, 1);
    pm_strlist_free(&names);

    pm_snapshot_free(tag.snapshot);
    json_decref(tag.create_time);
    pm_fs_free(fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_fixture_snapshots),
        cmocka_unit_test(test_writes_java_14_bytes),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_hints),
        cmocka_unit_test(test_commit_is_create_if_absent),
        cmocka_unit_test(test_tags_and_consumers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
