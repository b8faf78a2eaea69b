/*
 * Reading a table's metadata with each allocation failing in turn: the latest snapshot, its
 * manifest lists (base, delta, changelog), every manifest they name and the index manifest,
 * for every fixture table (Avro and ORC manifests).  Each failing run is PAIMON_ENOMEM, never
 * PAIMON_ECORRUPT or a crash, and leaks nothing (LeakSanitizer checks at exit); the run that
 * completes reads the same entries as a read without failures.
 */
#include <string.h>

#include "testlib.h"

#include "alloc_loop.h"

#include "meta/manifest.h"
#include "meta/snapshot.h"
#include "util/alloc.h"
#include "util/arena.h"

typedef struct read_ctx {
    pm_fs *fs;
    const char *table;
    size_t entries; /* manifest entries, list records and index entries of the last read */
} read_ctx;

/* Reads one manifest list and every manifest it names. */
static int read_list(read_ctx *c, pm_arena *arena, const char *list, int64_t size,
                     paimon_error *err)
{
    pm_manifest_file_meta *metas = NULL;
    size_t count = 0;
    int rc;
    if ((rc = pm_manifest_list_read(c->fs, c->table, list, size, arena, &metas, &count, err)) != 0)
        return rc;
    c->entries += count;
    for (size_t i = 0; i < count; i++) {
        pm_manifest_entry *entries = NULL;
        size_t n = 0;
        if ((rc = pm_manifest_read(c->fs, c->table, metas[i].file_name, metas[i].file_size, arena,
                                   &entries, &n, err)) != 0)
            return rc;
        c->entries += n;
    }
    return 0;
}

static int read_metadata(void *ctx, paimon_error *err)
{
    read_ctx *c = ctx;
    pm_snapshot *s = NULL;
    pm_arena arena;
    int64_t id = 0;
    bool found = false;
    int rc = 0;
    pm_arena_init(&arena, 4096);
    c->entries = 0;
    if ((rc = pm_snapshot_latest_id(c->fs, c->table, &id, &found, err)) != 0 || !found)
        goto done;
    if ((rc = pm_snapshot_read(c->fs, c->table, id, &s, err)) != 0)
        goto done;
    if ((rc = read_list(c, &arena, s->base_manifest_list, s->base_manifest_list_size, err)) != 0 ||
        (rc = read_list(c, &arena, s->delta_manifest_list, s->delta_manifest_list_size, err)) != 0)
        goto done;
    if (s->changelog_manifest_list != NULL &&
        (rc = read_list(c, &arena, s->changelog_manifest_list, s->changelog_manifest_list_size,
                        err)) != 0)
        goto done;
    if (s->index_manifest != NULL) {
        pm_index_manifest_entry *idx = NULL;
        size_t n = 0;
        if ((rc = pm_index_manifest_read(c->fs, c->table, s->index_manifest, &arena, &idx, &n,
                                         err)) != 0)
            goto done;
        c->entries += n;
    }
done:
    pm_snapshot_free(s);
    pm_arena_free(&arena);
    return rc;
}

typedef struct check_ctx {
    read_ctx read;
    size_t expected;
} check_ctx;

static void check_entries(void *ctx, long n, int rc, int injected)
{
    check_ctx *c = ctx;
    if (rc == 0 && injected)
        fail_msg("allocation %ld failed, yet the read reports success", n);
    if (rc == 0 && c->read.entries != c->expected)
        fail_msg("%s: allocation %ld: %zu records, expected %zu", c->read.table, n, c->read.entries,
                 c->expected);
}

static int check_op(void *ctx, paimon_error *err)
{
    return read_metadata(&((check_ctx *)ctx)->read, err);
}

static void test_fixture_metadata(void **state)
{
    pm_strlist tables;
    long total = 0;
    /* Every allocation up to 200 of each table, then one in 10: the ORC manifests take up to
     * 2,700 allocations each, mostly one record after another alike; every one of them
     * (22,000 runs) takes over a minute under ASan. */
    pm_test_alloc_loop_opts opts = {200, 10, 0};
    (void)state;
    if (!pm_test_require_fixtures())
        return;
    pm_strlist_init(&tables);
    pm_test_fixture_tables(&tables);
    assert_true(tables.count > 10);
    for (size_t i = 0; i < tables.count; i++) {
        check_ctx c;
        paimon_error err;
        memset(&c, 0, sizeof(c));
        c.read.fs = pm_fs_local_new(false);
        c.read.table = tables.items[i];
        if (read_metadata(&c.read, &err) != 0)
            fail_msg("%s: %s", c.read.table, err.message);
        c.expected = c.read.entries;
        total += pm_test_alloc_loop(c.read.table, check_op, check_entries, &c, &opts);
        pm_fs_free(c.read.fs);
    }
    printf("%zu tables, %ld allocation points in all\n", tables.count, total);
    pm_strlist_free(&tables);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_metadata),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
