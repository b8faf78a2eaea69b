/* Helpers shared by the tests: fixture discovery, temporary directories, hex. */
#ifndef PM_TESTLIB_H
#define PM_TESTLIB_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "util/buf.h"
#include "util/strlist.h"

/* $PAIMON_FIXTURES, or NULL when the folder is absent. */
const char *pm_test_fixtures(void);

/* Returns 1 if fixtures are available; otherwise prints why and returns 0 (under CI, a
 * missing fixture folder fails the test instead). */
int pm_test_require_fixtures(void);

/* Table directories (any folder holding schema/) under the fixtures, sorted; full paths. */
void pm_test_fixture_tables(pm_strlist *out);

/* Files under `dir` (recursively) whose name starts with `prefix`; full paths, sorted. */
void pm_test_find_files(const char *dir, const char *prefix, pm_strlist *out);

/* A fresh empty directory under $TMPDIR; caller frees with pm_free and may remove it with
 * pm_test_rmtree. */
char *pm_test_tmpdir(const char *tag);
/* "<a new pm_test_tmpdir(tag)>/t": a path for a table the test creates; free with pm_free. */
char *pm_test_table_path(const char *tag);
void pm_test_rmtree(const char *path);
/* Creates a table at a new pm_test_table_path(tag) with `columns` (paimon_create_options'
 * form), primary key `primary_key` (one column; NULL: none) and the options `options` (as
 * "key=value", NULL-terminated; NULL: none); fails the test when it cannot.  Returns its
 * path; free with pm_free. */
char *pm_test_create_table(const char *tag, const char *columns, const char *primary_key,
                           const char *const *options);

/* Reads a whole file (asserts on failure); free with pm_free. */
uint8_t *pm_test_read_file(const char *path, size_t *len);
void pm_test_write_file(const char *path, const void *data, size_t len);

/* Hex of bytes as a NUL-terminated string in a static buffer (for messages, up to 2 KiB). */
const char *pm_test_hex(const uint8_t *data, size_t len);
/* Decodes hex (spaces ignored) into `out`, returning the byte count. */
size_t pm_test_unhex(const char *hex, uint8_t *out, size_t cap);

/* Runs a shell command, capturing stdout into `out` (may be NULL); returns the exit code. */
int pm_test_run(const char *cmd, pm_buf *out);

/* Runs fn(arg) in a child process (no core dump) whose stderr goes into `err_out` (may be
 * NULL); the child exits 0 when fn returns.  Returns the child's wait status: death tests
 * of PM_ASSERT check WIFSIGNALED and SIGABRT.  fn must not use cmocka's assertions. */
int pm_test_fork(void (*fn)(void *arg), void *arg, pm_buf *err_out);

/* A primary-key table (id BIGINT, v STRING; bucket 1, changelog-producer input) written
 * through the public API at a fresh path named after `tag`, whose snapshots are:
 * 1 APPEND +I(1,a) +I(2,b); 2 APPEND -U(1,a) +U(1,c) -D(2,b).  Fails the test on an error.
 * Caller frees the path with pm_free (and may remove it with pm_test_rmtree). */
char *pm_test_changes_table(const char *tag);

/* Whether this build has active PM_ASSERTs (NDEBUG not defined when the tests were built,
 * which the library shares: one preset compiles both). */
static inline int pm_test_asserts_active(void)
{
#ifdef NDEBUG
    return 0;
#else
    return 1;
#endif
}

#endif
