/* The file-system backends: the same contract checks on local and in-memory file systems;
 * atomic create-if-absent under concurrency (processes racing for one name); the fault
 * injector failing and halting at the Nth operation, and denying changes under a prefix;
 * errors classified: a taken name alone is PAIMON_EEXISTS, a refused atomic write (a
 * read-only directory, a file where a directory should be) names the final path and the
 * system's reason. */
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"
#include "fs_contract.h"

#include "io/fs.h"
#include "util/alloc.h"

static char *join(const char *a, const char *b)
{
    char *p = pm_path_join(a, b);
    assert_non_null(p);
    return p;
}

static void test_local_contract(void **state)
{
    char *dir = pm_test_tmpdir("fs");
    pm_fs *fs = pm_fs_local_new(true);
    (void)state;
    pm_test_fs_contract(fs, dir, "/nonexistent");
    pm_fs_free(fs);
    pm_test_rmtree(dir);
    pm_free(dir);
}

static void test_memory_contract(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    (void)state;
    pm_test_fs_contract(fs, "/mem", "/nonexistent");
    pm_fs_free(fs);
}

/* 8 processes race to create the same name 50 times: exactly one wins each round. */
static void test_atomic_create_races(void **state)
{
    char *dir = pm_test_tmpdir("race");
    (void)state;
    for (int round = 0; round < 50; round++) {
        char path[4200];
        int wins = 0;
        pid_t pids[8];
        snprintf(path, sizeof(path), "%s/snapshot-%d", dir, round);
        for (int p = 0; p < 8; p++) {
            pids[p] = fork();
            if (pids[p] == 0) {
                pm_fs *fs = pm_fs_local_new(false);
                char body[16];
                int n = snprintf(body, sizeof(body), "writer %d", p);
                int rc = fs->write_atomic(fs, path, body, (size_t)n, false, NULL);
                _exit(rc == 0 ? 0 : (rc == PAIMON_EEXISTS ? 1 : 2));
            }
        }
        for (int p = 0; p < 8; p++) {
            int status;
            waitpid(pids[p], &status, 0);
            assert_true(WIFEXITED(status));
            assert_true(WEXITSTATUS(status) <= 1);
            wins += WEXITSTATUS(status) == 0;
        }
        assert_int_equal(wins, 1);
    }
    /* no temporary file is left behind */
    {
        pm_fs *fs = pm_fs_local_new(false);
        pm_strlist names;
        pm_strlist_init(&names);
        assert_int_equal(fs->list(fs, dir, &names, NULL), 0);
        assert_int_equal(names.count, 50);
        for (size_t i = 0; i < names.count; i++)
            assert_int_equal(strncmp(names.items[i], "snapshot-", 9), 0);
        pm_strlist_free(&names);
        pm_fs_free(fs);
    }
    pm_test_rmtree(dir);
    pm_free(dir);
}

/* Runs a small workload; returns the rc of the first failing step. */
static int workload(pm_fs *fs, paimon_error *err)
{
    pm_output *out = NULL;
    uint8_t *data = NULL;
    size_t len;
    int rc;
    if ((rc = fs->create(fs, "w/data-1", &out, err)) != 0)
        return rc;
    if ((rc = out->write(out, "0123456789", 10, err)) != 0) {
        out->abort(out);
        return rc;
    }
    if ((rc = out->close(out, err)) != 0)
        return rc;
    if ((rc = fs->write_atomic(fs, "w/snapshot-1", "{}", 2, false, err)) != 0)
        return rc;
    if ((rc = pm_fs_read_all(fs, "w/snapshot-1", 0, &data, &len, err)) != 0)
        return rc;
    pm_free(data);
    return 0;
}

static void test_fault_fail_every_n(void **state)
{
    long total;
    (void)state;
    {
        pm_fs *fs = pm_fs_fault_new(pm_fs_memory_new(), 0, PM_FAULT_FAIL);
        assert_int_equal(workload(fs, NULL), 0);
        total = pm_fs_fault_count(fs);
        pm_fs_free(fs);
    }
    assert_true(total >= 6);
    for (long n = 1; n <= total; n++) {
        pm_fs *fs = pm_fs_fault_new(pm_fs_memory_new(), n, PM_FAULT_FAIL);
        paimon_error err = {0};
        assert_int_equal(workload(fs, &err), PAIMON_EIO);
        assert_non_null(strstr(err.message, "injected failure"));
        pm_fs_free(fs);
    }
}

/* A halt during a write leaves half the bytes and ends the process. */
static void test_fault_halt(void **state)
{
    char *dir = pm_test_tmpdir("halt");
    char file[4200];
    pid_t pid;
    int status;
    (void)state;
    snprintf(file, sizeof(file), "%s/data-1", dir);
    pid = fork();
    if (pid == 0) {
        pm_fs *fs = pm_fs_fault_new(pm_fs_local_new(false), 2, PM_FAULT_HALT);
        pm_output *out = NULL;
        fs->create(fs, file, &out, NULL);        /* operation 1 */
        out->write(out, "0123456789", 10, NULL); /* operation 2: halts */
        _exit(0);
    }
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), PM_FS_HALT_EXIT);
    {
        size_t len;
        uint8_t *data = pm_test_read_file(file, &len);
        assert_int_equal(len, 5);
        assert_memory_equal(data, "01234", 5);
        pm_free(data);
    }
    pm_test_rmtree(dir);
    pm_free(dir);
}

/* A taken name is the only PAIMON_EEXISTS; other refusals say what and where. */
static void test_local_error_classes(void **state)
{
    char *root = pm_test_tmpdir("fs_classes");
    char *ro = join(root, "ro"), *name = join(root, "ro/snapshot-1");
    char *file = join(root, "plain"), *under = join(root, "plain/snapshot-1");
    pm_fs *fs = pm_fs_local_new(false);
    paimon_error err = {0};
    pid_t pid;
    int status;
    (void)state;
    assert_int_equal(fs->write_atomic(fs, name, "a", 1, false, &err), 0);
    assert_int_equal(fs->write_atomic(fs, name, "b", 1, false, &err), PAIMON_EEXISTS);
    /* a file where the directory should be */
    pm_test_write_file(file, "x", 1);
    assert_int_equal(fs->write_atomic(fs, under, "a", 1, false, &err), PAIMON_ENOTFOUND);
    assert_non_null(strstr(err.message, under));
    assert_non_null(strstr(err.message, "Not a directory"));
    /* a read-only directory: EACCES is PAIMON_EIO naming the final name and the reason.  As
     * root, chmod stops nobody: the child drops to uid 65534 first. */
    assert_int_equal(chmod(root, 0755), 0);
    assert_int_equal(chmod(ro, 0555), 0);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char *next = join(ro, "snapshot-2");
        int rc;
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(3);
        rc = fs->write_atomic(fs, next, "a", 1, false, &err);
        if (rc != PAIMON_EIO)
            _exit(4);
        if (strstr(err.message, next) == NULL || strstr(err.message, "Permission denied") == NULL)
            _exit(5);
        _exit(0);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    {
        pm_strlist names;
        pm_strlist_init(&names);
        assert_int_equal(fs->list(fs, ro, &names, &err), 0);
        assert_int_equal(names.count, 1); /* snapshot-1 alone: no temporary file is left */
        pm_strlist_free(&names);
    }
    assert_int_equal(chmod(ro, 0755), 0);
    pm_fs_free(fs);
    pm_test_rmtree(root);
    pm_free(root);
    pm_free(ro);
    pm_free(name);
    pm_free(file);
    pm_free(under);
}

/* The fault injector's denial: changes under the prefix fail, reads and other paths pass. */
static void test_fault_deny(void **state)
{
    char *root = pm_test_tmpdir("fs_deny");
    char *dir = join(root, "snapshot"), *in = join(root, "snapshot/snapshot-1");
    char *out = join(root, "manifest/m-1"), *prefix = join(root, "snapshot/");
    pm_fs *fs = pm_fs_fault_new(pm_fs_local_new(false), 0, PM_FAULT_FAIL);
    pm_output *o = NULL;
    paimon_error err = {0};
    uint8_t *data;
    size_t len;
    (void)state;
    assert_int_equal(fs->write_atomic(fs, in, "a", 1, false, &err), 0);
    assert_int_equal(pm_fs_fault_deny(fs, prefix), 0);
    assert_int_equal(fs->write_atomic(fs, in, "a", 1, true, &err), PAIMON_EIO);
    assert_non_null(strstr(err.message, "Permission denied"));
    assert_int_equal(fs->create(fs, in, &o, &err), PAIMON_EIO);
    assert_int_equal(fs->remove(fs, in, &err), PAIMON_EIO);
    assert_int_equal(fs->mkdirs(fs, in, &err), PAIMON_EIO);
    assert_int_equal(pm_fs_fault_denied(fs), 4);
    /* reads and listings pass; other directories too */
    assert_int_equal(pm_fs_read_all(fs, in, 0, &data, &len, &err), 0);
    assert_int_equal(len, 1);
    pm_free(data);
    assert_int_equal(pm_fs_write_file(fs, out, "m", 1, &err), 0);
    {
        pm_strlist names;
        pm_strlist_init(&names);
        assert_int_equal(fs->list(fs, dir, &names, &err), 0);
        assert_int_equal(names.count, 1);
        pm_strlist_free(&names);
    }
    assert_int_equal(pm_fs_fault_deny(fs, NULL), 0);
    assert_int_equal(fs->remove(fs, in, &err), 0);
    assert_int_equal(pm_fs_fault_denied(fs), 4);
    pm_fs_free(fs);
    pm_test_rmtree(root);
    pm_free(root);
    pm_free(dir);
    pm_free(in);
    pm_free(out);
    pm_free(prefix);
}

/* pm_fs_remove_many on backends without a batch op: one remove() each, a missing file is
 * no error, a directory with entries stops it with the backend's error. */
static void test_remove_many_fallback(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    paimon_error err;
    const char *paths[] = {"/m/a", "/m/gone", "/m/b"};
    const char *bad[] = {"/m/c", "/m/d"};
    bool exists = true;
    (void)state;
    assert_null(fs->remove_many);
    assert_int_equal(fs->write_atomic(fs, "/m/a", "1", 1, false, &err), 0);
    assert_int_equal(fs->write_atomic(fs, "/m/b", "2", 1, false, &err), 0);
    assert_int_equal(fs->write_atomic(fs, "/m/c", "3", 1, false, &err), 0);
    assert_int_equal(fs->write_atomic(fs, "/m/d/e", "4", 1, false, &err), 0);
    assert_int_equal(pm_fs_remove_many(fs, paths, 3, &err), 0);
    assert_int_equal(pm_fs_exists(fs, "/m/a", &exists, &err), 0);
    assert_false(exists);
    assert_int_equal(pm_fs_exists(fs, "/m/b", &exists, &err), 0);
    assert_false(exists);
    assert_int_equal(pm_fs_remove_many(fs, bad, 2, &err), PAIMON_EIO);
    assert_non_null(strstr(err.message, "/m/d"));
    assert_int_equal(pm_fs_exists(fs, "/m/c", &exists, &err), 0);
    assert_false(exists);
    pm_fs_free(fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_local_contract),      cmocka_unit_test(test_memory_contract),
        cmocka_unit_test(test_atomic_create_races), cmocka_unit_test(test_fault_fail_every_n),
        cmocka_unit_test(test_fault_halt),          cmocka_unit_test(test_local_error_classes),
        cmocka_unit_test(test_fault_deny),          cmocka_unit_test(test_remove_many_fallback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
