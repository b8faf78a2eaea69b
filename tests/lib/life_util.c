/* Helpers of the table's-life tests: see life_util.h. */
#define _XOPEN_SOURCE 700
#include "life_util.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>

#include "table_files.h"
#include "testlib.h"

#include "paimon.h"
#include "util/alloc.h"
#include "util/buf.h"

char *life_table(const char *tag, bool pk, const char *const *options)
{
    char *path = pm_test_table_path(tag);
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pkeys[1] = {"id"}, *keys[16], *vals[16];
    char copies[16][128];
    size_t n = 0;
    paimon_error err;
    if (pk) {
        keys[n] = "bucket";
        vals[n++] = "1";
    }
    for (size_t i = 0; options != NULL && options[i] != NULL && n < 16; i++) {
        char *eq;
        snprintf(copies[i], sizeof(copies[i]), "%s", options[i]);
        eq = strchr(copies[i], '=');
        assert_non_null(eq);
        *eq = '\0';
        keys[n] = copies[i];
        vals[n++] = eq + 1;
    }
    co.columns = pk ? "id BIGINT NOT NULL, v STRING" : "id BIGINT, v STRING";
    co.primary_keys = pk ? pkeys : NULL;
    co.primary_key_count = pk ? 1 : 0;
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = n;
    if (paimon_table_create(path, &co, &err) != 0)
        fail_msg("%s", err.message);
    return path;
}

int64_t life_write(const char *path, const char *jsonl, bool overwrite)
{
    paimon_table *t = NULL;
    paimon_writer *w = NULL;
    paimon_writer_options wo = PAIMON_WRITER_OPTIONS_INIT;
    paimon_commit_options co = PAIMON_COMMIT_OPTIONS_INIT;
    paimon_commit_messages *m = NULL;
    paimon_input *in = NULL;
    paimon_error err;
    FILE *f = fmemopen((void *)jsonl, strlen(jsonl), "r");
    int64_t id = 0;
    int rc;
    assert_non_null(f);
    wo.overwrite = overwrite;
    co.overwrite = overwrite;
    if (paimon_table_open(&t, path, &err) != 0 || paimon_writer_open(&w, t, &wo, &err) != 0 ||
        paimon_input_open(&in, w, f, "jsonl", &err) != 0)
        fail_msg("%s", err.message);
    rc = paimon_input_write(in, w, 0, NULL, &err);
    if (rc != PAIMON_ITEROVER && rc != 0)
        fail_msg("%s", err.message);
    if (paimon_commit_messages_new(&m, &err) != 0 ||
        paimon_writer_prepare_commit(w, m, &err) != 0 ||
        paimon_table_commit(t, m, &co, &id, &err) != 0)
        fail_msg("%s", err.message);
    paimon_commit_messages_free(m);
    paimon_input_free(in);
    paimon_writer_free(w);
    paimon_table_free(t);
    fclose(f);
    return id;
}

char *life_rows(const char *path, int64_t snapshot, const char *tag, char *why, size_t cap)
{
    int rc;
    return pm_test_rows_at(path, snapshot > 0 ? snapshot : 0, tag, &rc, why, cap);
}

static pm_strlist *g_files;
static size_t g_root_len;
static int64_t g_age;

static int collect(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (flag == FTW_F)
        pm_strlist_push(g_files, path + g_root_len + 1);
    return 0;
}

void life_files(const char *dir, pm_strlist *out)
{
    g_files = out;
    g_root_len = strlen(dir);
    nftw(dir, collect, 16, FTW_PHYS);
    pm_strlist_sort(out);
}

char *life_copy(const char *src, const char *tag)
{
    char *dst = pm_test_table_path(tag), cmd[4096];
    snprintf(cmd, sizeof(cmd), "cp -a '%s' '%s'", src, dst);
    assert_int_equal(system(cmd), 0);
    return dst;
}

void life_age(const char *path, int64_t seconds)
{
    struct timeval tv[2];
    gettimeofday(&tv[0], NULL);
    tv[0].tv_sec -= (time_t)seconds;
    tv[1] = tv[0];
    assert_int_equal(utimes(path, tv), 0);
}

static int age_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (flag == FTW_F)
        life_age(path, g_age);
    return 0;
}

void life_age_all(const char *dir, int64_t seconds)
{
    g_age = seconds;
    nftw(dir, age_one, 16, FTW_PHYS);
}
