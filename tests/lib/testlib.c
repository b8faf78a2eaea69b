/* Test helpers: see testlib.h. */
#include "testlib.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "paimon.h"
#include "util/alloc.h"

const char *pm_test_fixtures(void)
{
    const char *dir = getenv("PAIMON_FIXTURES");
    struct stat st;
    if (dir == NULL || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return NULL;
    return dir;
}

int pm_test_require_fixtures(void)
{
    if (pm_test_fixtures() != NULL)
        return 1;
    if (getenv("CI") != NULL) {
        fprintf(stderr, "fixtures not found at $PAIMON_FIXTURES=%s (required under CI)\n",
                getenv("PAIMON_FIXTURES") ? getenv("PAIMON_FIXTURES") : "(unset)");
        fail();
    }
    printf("NOTE: fixtures not found (PAIMON_FIXTURES=%s): compatibility checks did not run\n",
           getenv("PAIMON_FIXTURES") ? getenv("PAIMON_FIXTURES") : "(unset)");
    return 0;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

void pm_test_fixture_tables(pm_strlist *out)
{
    const char *root = pm_test_fixtures();
    DIR *d;
    struct dirent *e;
    if (root == NULL || (d = opendir(root)) == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        char path[4096], schema[4200];
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof(path), "%s/%s", root, e->d_name);
        snprintf(schema, sizeof(schema), "%s/schema", path);
        if (is_dir(schema))
            assert_int_equal(pm_strlist_push(out, path), 0);
    }
    closedir(d);
    pm_strlist_sort(out);
}

static void find_rec(const char *dir, const char *prefix, pm_strlist *out)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        char path[4096];
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        if (is_dir(path))
            find_rec(path, prefix, out);
        else if (strncmp(e->d_name, prefix, strlen(prefix)) == 0)
            assert_int_equal(pm_strlist_push(out, path), 0);
    }
    closedir(d);
}

void pm_test_find_files(const char *dir, const char *prefix, pm_strlist *out)
{
    find_rec(dir, prefix, out);
    pm_strlist_sort(out);
}

char *pm_test_tmpdir(const char *tag)
{
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char path[4096];
    snprintf(path, sizeof(path), "%s/paimon-test-%s-XXXXXX", base, tag);
    assert_non_null(mkdtemp(path));
    return pm_strdup(path);
}

char *pm_test_table_path(const char *tag)
{
    char *dir = pm_test_tmpdir(tag), *path;
    size_t cap = strlen(dir) + sizeof("/t");
    path = pm_malloc(cap);
    assert_non_null(path);
    snprintf(path, cap, "%s/t", dir);
    pm_free(dir);
    return path;
}

char *pm_test_create_table(const char *tag, const char *columns, const char *primary_key,
                           const char *const *options)
{
    enum { MAX_OPTIONS = 16 };
    char *path = pm_test_table_path(tag);
    char buf[MAX_OPTIONS][128];
    const char *keys[MAX_OPTIONS], *vals[MAX_OPTIONS];
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    paimon_error err;
    size_t n = 0;
    for (; options != NULL && options[n] != NULL; n++) {
        char *eq;
        assert_true(n < MAX_OPTIONS && strlen(options[n]) < sizeof(buf[n]));
        snprintf(buf[n], sizeof(buf[n]), "%s", options[n]);
        eq = strchr(buf[n], '=');
        assert_non_null(eq);
        *eq = '\0';
        keys[n] = buf[n];
        vals[n] = eq + 1;
    }
    co.columns = columns;
    co.primary_keys = primary_key != NULL ? &primary_key : NULL;
    co.primary_key_count = primary_key != NULL ? 1 : 0;
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = n;
    if (paimon_table_create(path, &co, &err) != 0)
        fail_msg("%s: %s", path, err.message);
    return path;
}

void pm_test_rmtree(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    if (d == NULL) {
        unlink(path);
        return;
    }
    while ((e = readdir(d)) != NULL) {
        char child[4096];
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(child, sizeof(child), "%s/%s", path, e->d_name);
        pm_test_rmtree(child);
    }
    closedir(d);
    rmdir(path);
}

uint8_t *pm_test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data;
    long n;
    if (f == NULL)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    data = pm_malloc((size_t)n + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
    data[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return data;
}

void pm_test_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        fail_msg("cannot create %s", path);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

const char *pm_test_hex(const uint8_t *data, size_t len)
{
    static char buf[4097];
    size_t n = 0;
    for (size_t i = 0; i < len && n + 2 < sizeof(buf); i++)
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%02x", data[i]);
    buf[n] = 0;
    return buf;
}

size_t pm_test_unhex(const char *hex, uint8_t *out, size_t cap)
{
    size_t n = 0;
    int hi = -1;
    for (const char *p = hex; *p; p++) {
        int v;
        if (*p >= '0' && *p <= '9')
            v = *p - '0';
        else if (*p >= 'a' && *p <= 'f')
            v = *p - 'a' + 10;
        else if (*p >= 'A' && *p <= 'F')
            v = *p - 'A' + 10;
        else
            continue;
        if (hi < 0) {
            hi = v;
        } else {
            assert_true(n < cap);
            out[n++] = (uint8_t)(hi << 4 | v);
            hi = -1;
        }
    }
    return n;
}

int pm_test_run(const char *cmd, pm_buf *out)
{
    FILE *p = popen(cmd, "r");
    char chunk[4096];
    size_t n;
    int status;
    assert_non_null(p);
    while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
        if (out != NULL)
            assert_int_equal(pm_buf_append(out, chunk, n), 0);
    status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

int pm_test_fork(void (*fn)(void *arg), void *arg, pm_buf *err_out)
{
    int fds[2], status = 0;
    char chunk[4096];
    ssize_t n;
    pid_t pid;
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit none = {0, 0};
        (void)setrlimit(RLIMIT_CORE, &none);
        close(fds[0]);
        if (dup2(fds[1], 2) < 0)
            _exit(126);
        fn(arg);
        fflush(NULL);
        _exit(0);
    }
    close(fds[1]);
    while ((n = read(fds[0], chunk, sizeof(chunk))) > 0)
        if (err_out != NULL)
            assert_int_equal(pm_buf_append(err_out, chunk, (size_t)n), 0);
    close(fds[0]);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return status;
}

/* See testlib.h. */
char *pm_test_changes_table(const char *tag)
{
    static const char *const COMMITS[] = {
        "{\"id\":1,\"v\":\"a\"}\n{\"id\":2,\"v\":\"b\"}\n",
        "{\"_ROW_KIND\":\"-U\",\"id\":1,\"v\":\"a\"}\n{\"_ROW_KIND\":\"+U\",\"id\":1,\"v\":\"c\"}\n"
        "{\"_ROW_KIND\":\"-D\",\"id\":2,\"v\":\"b\"}\n",
    };
    char *path = pm_test_table_path(tag);
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pks[1] = {"id"}, *keys[2] = {"bucket", "changelog-producer"},
               *vals[2] = {"1", "input"};
    paimon_table *t;
    paimon_error err;
    co.columns = "id BIGINT, v STRING";
    co.primary_keys = pks;
    co.primary_key_count = 1;
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = 2;
    if (paimon_table_create(path, &co, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    for (size_t i = 0; i < 2; i++) {
        paimon_writer *w;
        paimon_input *in;
        paimon_commit_messages *m;
        paimon_commit_options cmo = PAIMON_COMMIT_OPTIONS_INIT;
        int64_t id;
        FILE *f = fmemopen((void *)COMMITS[i], strlen(COMMITS[i]), "r");
        assert_non_null(f);
        assert_int_equal(paimon_writer_open(&w, t, NULL, &err), 0);
        assert_int_equal(paimon_input_open(&in, w, f, "jsonl", &err), 0);
        if (paimon_input_write(in, w, 0, NULL, &err) != PAIMON_ITEROVER)
            fail_msg("%s", err.message);
        assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
        assert_int_equal(paimon_writer_prepare_commit(w, m, &err), 0);
        if (paimon_table_commit(t, m, &cmo, &id, &err) != 0)
            fail_msg("%s", err.message);
        assert_int_equal(id, (int64_t)i + 1);
        paimon_commit_messages_free(m);
        paimon_input_free(in);
        paimon_writer_free(w);
        fclose(f);
    }
    paimon_table_free(t);
    return path;
}
