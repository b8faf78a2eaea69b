/* LSM levels (lsm/levels.h): runs of a level >= 1 come out sorted by min key; the restore
 * check (pm_levels_check) names the level and the two files that overlap, or the file whose
 * key does not decode; without key types nothing is sorted or checked; and in debug builds
 * pm_levels_runs asserts what the restore check established (levels that overlap without
 * having been checked abort, in a child process). */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "data/binary_row.h"
#include "lsm/levels.h"
#include "testlib.h"
#include "util/alloc.h"

static pm_type *key_type;
static const pm_type *key_types[1];
static int64_t seq = 1; /* max sequence numbers: a file added later is newer */

static int setup(void **state)
{
    (void)state;
    key_type = pm_type_new(PM_TYPE_BIGINT);
    key_types[0] = key_type;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    pm_type_free(key_type);
    return 0;
}

/* Adds file `name` at `level` holding keys [min, max]. */
static void add(pm_levels *l, const char *name, int32_t level, int64_t min, int64_t max)
{
    pm_manifest_entry e;
    pm_datum lo = pm_datum_int(min), hi = pm_datum_int(max);
    pm_buf kmin, kmax;
    paimon_error err = {0};
    pm_buf_init(&kmin, 0);
    pm_buf_init(&kmax, 0);
    assert_int_equal(pm_binrow_serialize(&kmin, key_types, &lo, 1), 0);
    assert_int_equal(pm_binrow_serialize(&kmax, key_types, &hi, 1), 0);
    memset(&e, 0, sizeof(e));
    e.kind = PM_FILE_KIND_ADD;
    e.file.file_name = name;
    e.file.level = level;
    e.file.file_size = 100;
    e.file.row_count = max - min + 1;
    e.file.min_key.ptr = kmin.data;
    e.file.min_key.len = kmin.len;
    e.file.max_key.ptr = kmax.data;
    e.file.max_key.len = kmax.len;
    e.file.max_sequence_number = seq++;
    assert_int_equal(pm_levels_add(l, &e, &err), 0); /* copies the key bytes */
    pm_buf_free(&kmin);
    pm_buf_free(&kmax);
}

static const char *run_names(const pm_levels_run *r, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < r->file_count; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", i > 0 ? " " : "",
                              r->files[i]->file.file_name);
    return buf;
}

static void test_runs_sorted(void **state)
{
    pm_levels l;
    pm_levels_run *runs = NULL;
    size_t count = 0;
    char names[256];
    paimon_error err = {0};
    (void)state;
    pm_levels_init(&l, 3);
    pm_levels_set_key(&l, key_types, 1);
    add(&l, "l1-c", 1, 30, 39);
    add(&l, "l0-old", 0, 0, 100);
    add(&l, "l1-a", 1, 0, 9);
    add(&l, "l2-b", 2, 50, 60);
    add(&l, "l1-b", 1, 10, 19);
    add(&l, "l0-new", 0, 5, 7);
    add(&l, "l2-a", 2, -5, 49);
    assert_int_equal(pm_levels_check(&l, &err), 0);
    assert_int_equal(pm_levels_runs(&l, &runs, &count, &err), 0);
    assert_int_equal(count, 4);
    assert_int_equal(runs[0].level, 0);
    assert_string_equal(run_names(&runs[0], names, sizeof(names)), "l0-new");
    assert_string_equal(run_names(&runs[1], names, sizeof(names)), "l0-old");
    assert_int_equal(runs[2].level, 1);
    assert_string_equal(run_names(&runs[2], names, sizeof(names)), "l1-a l1-b l1-c");
    assert_int_equal(runs[2].size, 300);
    assert_int_equal(runs[3].level, 2);
    assert_string_equal(run_names(&runs[3], names, sizeof(names)), "l2-a l2-b");
    pm_levels_runs_free(runs, count);
    /* removing a file keeps the rest in order */
    assert_true(pm_levels_remove(&l, "l1-b", 1));
    assert_int_equal(pm_levels_runs(&l, &runs, &count, &err), 0);
    assert_string_equal(run_names(&runs[2], names, sizeof(names)), "l1-a l1-c");
    pm_levels_runs_free(runs, count);
    pm_levels_release(&l);
}

static void test_check_overlap(void **state)
{
    pm_levels l;
    paimon_error err = {0};
    (void)state;
    pm_levels_init(&l, 3);
    pm_levels_set_key(&l, key_types, 1);
    add(&l, "a", 2, 20, 30);
    add(&l, "b", 2, 0, 10);
    add(&l, "c", 2, 10, 15); /* starts at b's max key: overlaps */
    add(&l, "d", 1, 0, 100); /* other levels may hold any keys */
    assert_int_equal(pm_levels_check(&l, &err), PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, "level 2: data files b and c overlap in key range"));
    pm_levels_release(&l);

    /* a key that does not decode names its file */
    pm_levels_init(&l, 2);
    pm_levels_set_key(&l, key_types, 1);
    add(&l, "good", 1, 0, 10);
    add(&l, "bad", 1, 20, 30);
    l.files[1]->file.max_key.len = 3; /* shorter than its arity prefix and row */
    memset(&err, 0, sizeof(err));
    assert_int_equal(pm_levels_check(&l, &err), PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, "data file bad: max key: "));
    pm_levels_release(&l);
}

static void test_no_key(void **state)
{
    pm_levels l;
    pm_levels_run *runs = NULL;
    size_t count = 0;
    char names[256];
    paimon_error err = {0};
    (void)state;
    pm_levels_init(&l, 2);
    add(&l, "x", 1, 10, 20);
    add(&l, "y", 1, 0, 15); /* overlaps, unsorted: not looked at without key types */
    assert_int_equal(pm_levels_check(&l, &err), 0);
    assert_int_equal(pm_levels_runs(&l, &runs, &count, &err), 0);
    assert_int_equal(count, 1);
    assert_string_equal(run_names(&runs[0], names, sizeof(names)), "x y");
    pm_levels_runs_free(runs, count);
    pm_levels_release(&l);
}

static void runs_of_unchecked_overlap(void *arg)
{
    pm_levels_run *runs = NULL;
    size_t count = 0;
    PM_IGNORE(pm_levels_runs(arg, &runs, &count, NULL));
    pm_levels_runs_free(runs, count);
}

static void test_runs_assert(void **state)
{
    pm_levels l;
    pm_buf err;
    int status;
    (void)state;
    pm_levels_init(&l, 2);
    pm_levels_set_key(&l, key_types, 1);
    add(&l, "p", 1, 0, 10);
    add(&l, "q", 1, 5, 20); /* never checked: as if compaction had produced it */
    pm_buf_init(&err, 0);
    if (pm_test_asserts_active()) {
        status = pm_test_fork(runs_of_unchecked_overlap, &l, &err);
        assert_true(WIFSIGNALED(status));
        assert_int_equal(WTERMSIG(status), SIGABRT);
        assert_non_null(strstr(pm_buf_cstr(&err), "levels.c:"));
        assert_non_null(strstr(pm_buf_cstr(&err), "assertion failed: overlap == 0"));
    } else {
        /* compiled out: the runs come back sorted, overlap and all */
        pm_levels_run *runs = NULL;
        size_t count = 0;
        char names[64];
        assert_int_equal(pm_levels_runs(&l, &runs, &count, NULL), 0);
        assert_string_equal(run_names(&runs[0], names, sizeof(names)), "p q");
        pm_levels_runs_free(runs, count);
    }
    pm_buf_free(&err);
    pm_levels_release(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_sorted),
        cmocka_unit_test(test_check_overlap),
        cmocka_unit_test(test_no_key),
        cmocka_unit_test(test_runs_assert),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
