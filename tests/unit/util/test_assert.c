/* PM_ASSERT (util/assert.h): in a debug build a false condition prints FILE:LINE and the
 * condition and aborts (checked in a child process); in a release build (NDEBUG) it is
 * compiled out and does not even evaluate its condition.  Then the buffer invariants:
 * pm_buf_is_valid() on broken buffers, and a broken buffer caught by the assertion in
 * pm_buf_cstr() before it writes past the allocation. */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "testlib.h"
#include "util/alloc.h"
#include "util/assert.h"
#include "util/buf.h"

static int evaluated;

static int count(void)
{
    evaluated++;
    return 1;
}

static void false_assert(void *arg)
{
    volatile int one = 1;
    (void)arg;
    PM_ASSERT(one == 2);
}
enum { FALSE_ASSERT_LINE = __LINE__ - 2 }; /* the line of the PM_ASSERT above */

static void test_assert_macro(void **state)
{
    pm_buf err;
    char want[128];
    int status;
    (void)state;
    pm_buf_init(&err, 0);
    status = pm_test_fork(false_assert, NULL, &err);
    snprintf(want, sizeof(want), "test_assert.c:%d: assertion failed: one == 2\n",
             (int)FALSE_ASSERT_LINE);
    if (pm_test_asserts_active()) {
        assert_true(WIFSIGNALED(status));
        assert_int_equal(WTERMSIG(status), SIGABRT);
        assert_non_null(strstr(pm_buf_cstr(&err), want));
    } else {
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
        assert_string_equal(pm_buf_cstr(&err), "");
    }
    /* A true condition passes; in release builds it is not evaluated at all. */
    evaluated = 0;
    PM_ASSERT(count() == 1);
    assert_int_equal(evaluated, pm_test_asserts_active() ? 1 : 0);
    pm_buf_free(&err);
}

static void test_buf_is_valid(void **state)
{
    pm_buf b;
    (void)state;
    pm_buf_init(&b, 100);
    assert_true(pm_buf_is_valid(&b));
    assert_int_equal(pm_buf_puts(&b, "abc"), 0);
    assert_true(pm_buf_is_valid(&b));
    b.len = b.cap; /* no room left for pm_buf_cstr's NUL */
    assert_false(pm_buf_is_valid(&b));
    b.len = 3;
    b.max = 2; /* len above the limit */
    assert_false(pm_buf_is_valid(&b));
    b.max = 100;
    assert_true(pm_buf_is_valid(&b));
    pm_buf_free(&b);
    b.len = 1; /* no memory, yet a length */
    assert_false(pm_buf_is_valid(&b));
}

static void cstr_of_full_buffer(void *arg)
{
    pm_buf b;
    (void)arg;
    pm_buf_init(&b, 0);
    if (pm_buf_puts(&b, "abc") != 0)
        return;
    b.len = b.cap; /* pm_buf_cstr would write data[cap] */
    (void)pm_buf_cstr(&b);
    pm_buf_free(&b);
}

static void test_buf_assert(void **state)
{
    pm_buf err;
    int status;
    (void)state;
    if (!pm_test_asserts_active())
        skip(); /* compiled out: the child would write past the allocation */
    pm_buf_init(&err, 0);
    status = pm_test_fork(cstr_of_full_buffer, NULL, &err);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
    assert_non_null(strstr(pm_buf_cstr(&err), "buf.c:"));
    assert_non_null(strstr(pm_buf_cstr(&err), "assertion failed: pm_buf_is_valid(b)"));
    pm_buf_free(&err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_assert_macro),
        cmocka_unit_test(test_buf_is_valid),
        cmocka_unit_test(test_buf_assert),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
