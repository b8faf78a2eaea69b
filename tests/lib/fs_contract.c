/* The pm_fs contract (io/fs.h) as every backend must keep it: see fs_contract.h. */
#include <stdbool.h>
#include <string.h>

#include "testlib.h"
#include "fs_contract.h"

#include "util/alloc.h"

static char *join(const char *a, const char *b)
{
    char *p = pm_path_join(a, b);
    assert_non_null(p);
    return p;
}

void pm_test_fs_contract(pm_fs *fs, const char *root, const char *missing)
{
    paimon_error err = {0};
    char *a = join(root, "d1/d2/a.bin"), *b = join(root, "d1/b.json"), *d1 = join(root, "d1");
    pm_output *out = NULL;
    pm_input *in = NULL;
    uint8_t *data = NULL, buf[4];
    size_t len;
    pm_strlist names;
    bool exists;
    uint64_t size;
    int kind;

    /* create: parents made, bytes visible after close, exact size, no overwrite */
    assert_int_equal(fs->create(fs, a, &out, &err), 0);
    assert_int_equal(out->write(out, "hello ", 6, &err), 0);
    assert_int_equal(out->write(out, "world", 5, &err), 0);
    assert_int_equal(out->pos, 11);
    assert_int_equal(out->close(out, &err), 0);
    assert_int_equal(pm_fs_size(fs, a, &size, &err), 0);
    assert_int_equal(size, 11);
    {
        /* A taken name: refused by create(), or (object stores, whose conditional PUT
         * refuses it) by close(); either way the first file is untouched. */
        int rc = fs->create(fs, a, &out, &err);
        if (rc == 0) {
            assert_int_equal(out->write(out, "other", 5, &err), 0);
            rc = out->close(out, &err);
        }
        assert_int_equal(rc, PAIMON_EEXISTS);
        assert_non_null(strstr(err.message, "a.bin"));
    }
    /* reads: whole and by range; beyond the end is corrupt */
    assert_int_equal(pm_fs_read_all(fs, a, 0, &data, &len, &err), 0);
    assert_int_equal(len, 11);
    assert_memory_equal(data, "hello world", 11);
    pm_free(data);
    assert_int_equal(pm_fs_read_all(fs, a, 5, &data, &len, &err), PAIMON_ELIMIT);
    assert_int_equal(pm_fs_read_range(fs, a, 6, 4, buf, &err), 0);
    assert_memory_equal(buf, "worl", 4);
    assert_int_equal(fs->open(fs, a, &in, &err), 0);
    assert_int_equal(in->size, 11);
    assert_int_equal(in->read_at(in, 9, 4, buf, &err), PAIMON_ECORRUPT);
    in->close(in);
    /* abort removes the partial file */
    assert_int_equal(fs->create(fs, b, &out, &err), 0);
    assert_int_equal(out->write(out, "x", 1, &err), 0);
    out->abort(out);
    assert_int_equal(pm_fs_exists(fs, b, &exists, &err), 0);
    assert_false(exists);
    /* atomic: create-if-absent, then overwrite */
    assert_int_equal(fs->write_atomic(fs, b, "{1}", 3, false, &err), 0);
    assert_int_equal(fs->write_atomic(fs, b, "{2}", 3, false, &err), PAIMON_EEXISTS);
    assert_int_equal(fs->write_atomic(fs, b, "{33}", 4, true, &err), 0);
    assert_int_equal(pm_fs_read_all(fs, b, 0, &data, &len, &err), 0);
    assert_memory_equal(data, "{33}", 4);
    pm_free(data);
    /* listing: names only, temporary files of atomic writes gone */
    pm_strlist_init(&names);
    assert_int_equal(fs->list(fs, d1, &names, &err), 0);
    pm_strlist_sort(&names);
    assert_int_equal(names.count, 2);
    assert_string_equal(names.items[0], "b.json");
    assert_string_equal(names.items[1], "d2");
    pm_strlist_free(&names);
    assert_int_equal(fs->stat(fs, d1, &kind, &size, &err), 0);
    assert_int_equal(kind, 2);
    /* missing things */
    {
        char *mx = join(missing, "x");
        assert_int_equal(fs->open(fs, mx, &in, &err), PAIMON_ENOTFOUND);
        assert_non_null(strstr(err.message, "x"));
        pm_strlist_init(&names);
        assert_int_equal(fs->list(fs, missing, &names, &err), PAIMON_ENOTFOUND);
        pm_strlist_free(&names);
        pm_free(mx);
    }
    assert_int_equal(fs->remove(fs, b, &err), 0);
    assert_int_equal(fs->remove(fs, b, &err), PAIMON_ENOTFOUND);
    /* a directory goes only when empty: remove is never recursive */
    assert_int_equal(fs->remove(fs, d1, &err), PAIMON_EIO);
    assert_int_equal(pm_fs_exists(fs, a, &exists, &err), 0);
    assert_true(exists);
    assert_int_equal(fs->remove(fs, a, &err), 0);
    {
        char *d2 = join(root, "d1/d2");
        int r2 = fs->remove(fs, d2, &err), r1 = fs->remove(fs, d1, &err);
        /* memory directories and S3 prefixes without an entry of their own vanish with
         * their last file */
        bool implicit = strcmp(fs->name, "memory") == 0 || strcmp(fs->name, "s3") == 0;
        assert_true(r2 == 0 || (r2 == PAIMON_ENOTFOUND && implicit));
        assert_true(r1 == 0 || (r1 == PAIMON_ENOTFOUND && implicit));
        assert_int_equal(fs->stat(fs, d1, &kind, &size, &err), 0);
        assert_int_equal(kind, 0);
        pm_free(d2);
    }
    pm_free(a);
    pm_free(b);
    pm_free(d1);
}
