/* Universal compaction picks (lsm/universal_compaction.h) against the cases of Java's
 * UniversalCompactionTest (release 1.4.2) and behaviour.md §3.3's worked example. */
#include <string.h>

#include "testlib.h"

#include "lsm/universal_compaction.h"

static pm_universal testing(int64_t max_amp, int64_t ratio, int64_t trigger)
{
    pm_universal u;
    memset(&u, 0, sizeof(u));
    u.max_size_amp = max_amp;
    u.size_ratio = ratio;
    u.trigger = trigger;
    u.offpeak_start = u.offpeak_end = -1;
    u.interval_ms = u.total_size = u.incremental = -1;
    u.last_full_ms = -1;
    return u;
}

/* createUnit through a forced pick whose runs grow too fast to be extended. */
static int32_t output_of(const int32_t *levels, size_t n, size_t count, int32_t num_levels)
{
    pm_universal u = testing(25, 1, 3);
    pm_level_run runs[16];
    size_t take;
    int32_t out;
    int64_t size = 1;
    for (size_t i = 0; i < n; i++, size *= 10) {
        runs[i].level = levels[i];
        runs[i].size = size;
    }
    assert_true(pm_universal_pick_size_ratio(&u, num_levels, runs, n, count, true, &take, &out));
    return out;
}

static void test_output_level(void **state)
{
    const int32_t levels[] = {0, 0, 1, 3, 4};
    (void)state;
    assert_int_equal(output_of(levels, 5, 1, 6), 1);
    assert_int_equal(output_of(levels, 5, 2, 6), 1);
    assert_int_equal(output_of(levels, 5, 3, 6), 2);
    assert_int_equal(output_of(levels, 5, 4, 6), 3);
    assert_int_equal(output_of(levels, 5, 5, 6), 5);
}

static bool pick(pm_universal *u, int32_t num_levels, const int32_t *levels, const int64_t *sizes,
                 size_t n, size_t *take, int32_t *out)
{
    pm_level_run runs[32];
    for (size_t i = 0; i < n; i++) {
        runs[i].level = levels[i];
        runs[i].size = sizes[i];
    }
    return pm_universal_pick(u, num_levels, runs, n, take, out);
}

static void test_pick(void **state)
{
    pm_universal u = testing(25, 1, 3);
    size_t take;
    int32_t out;
    (void)state;
    { /* size amplification: everything */
        const int32_t l[] = {0, 0, 0, 0};
        const int64_t s[] = {1, 2, 3, 3};
        assert_true(pick(&u, 3, l, s, 4, &take, &out));
        assert_int_equal(take, 4);
        assert_int_equal(out, 2);
    }
    { /* size ratio */
        const int32_t l[] = {0, 1, 2, 3};
        const int64_t s[] = {1, 1, 1, 50};
        assert_true(pick(&u, 4, l, s, 4, &take, &out));
        assert_int_equal(take, 3);
        assert_int_equal(out, 2);
    }
    { /* file number, then size ratio takes the 3 */
        const int32_t l[] = {0, 1, 2, 3};
        const int64_t s[] = {1, 2, 3, 50};
        assert_true(pick(&u, 4, l, s, 4, &take, &out));
        assert_int_equal(take, 3);
    }
    {
        const int32_t l[] = {0, 0, 1, 2};
        const int64_t s[] = {1, 1, 1, 50};
        assert_true(pick(&u, 3, l, s, 4, &take, &out));
        assert_int_equal(take, 3);
        assert_int_equal(out, 1);
    }
    {
        const int32_t l[] = {0, 0, 1, 2};
        const int64_t s[] = {1, 2, 3, 50};
        assert_true(pick(&u, 3, l, s, 4, &take, &out));
        assert_int_equal(take, 3);
    }
    { /* under the trigger: nothing */
        const int32_t l[] = {0, 2};
        const int64_t s[] = {100, 1};
        assert_false(pick(&u, 3, l, s, 2, &take, &out));
    }
}

static void test_no_output_level_zero(void **state)
{
    pm_universal u = testing(200, 1, 5);
    const int32_t l[] = {0, 0, 0, 0, 0};
    const int64_t s[] = {1, 1, 1, 1024, 1024 * 1024};
    size_t take;
    int32_t out;
    (void)state;
    assert_true(pick(&u, 6, l, s, 5, &take, &out));
    assert_int_equal(take, 5);
    assert_int_equal(out, 5);
}

/* behaviour.md §3.3: L0 [1MB x4] + L5 [100MB] -> the four L0 files into L4. */
static void test_worked_example(void **state)
{
    pm_universal u = testing(200, 1, 5);
    const int32_t l[] = {0, 0, 0, 0, 5};
    const int64_t mb = 1 << 20, s[] = {mb, mb, mb, mb, 100 * mb};
    size_t take;
    int32_t out;
    (void)state;
    assert_true(pick(&u, 6, l, s, 5, &take, &out));
    assert_int_equal(take, 4);
    assert_int_equal(out, 4);
}

/* Java's pickForSizeRatio helper: runs at levels 0, 1, 2, ...; the picked prefix becomes
 * one run of their total size. */
static size_t size_ratio_step(pm_universal *u, int64_t *sizes, size_t n)
{
    pm_level_run runs[32];
    size_t take;
    int32_t out;
    for (size_t i = n; i > 0; i--)
        sizes[i] = sizes[i - 1];
    sizes[0] = 1;
    n++;
    for (size_t i = 0; i < n; i++) {
        runs[i].level = (int32_t)i;
        runs[i].size = sizes[i];
    }
    if ((int64_t)n < u->trigger ||
        !pm_universal_pick_size_ratio(u, (int32_t)n, runs, n, 1, false, &take, &out))
        return n;
    {
        int64_t total = 0;
        for (size_t i = 0; i < take; i++)
            total += sizes[i];
        sizes[0] = total;
        memmove(sizes + 1, sizes + take, (n - take) * sizeof(*sizes));
        return n - take + 1;
    }
}

static void expect(const int64_t *got, size_t n, const int64_t *want, size_t wn)
{
    assert_int_equal(n, wn);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(got[i], want[i]);
}

static void test_size_ratio_sequence(void **state)
{
    pm_universal u = testing(25, 1, 5);
    int64_t sizes[32] = {1, 1, 1, 1};
    size_t n = 4;
    static const int64_t want[][6] = {
        {5},           {1, 5},           {1, 1, 5},       {1, 1, 1, 5},
        {4, 5},        {1, 4, 5},        {1, 1, 4, 5},    {3, 4, 5},
        {1, 3, 4, 5},  {2, 3, 4, 5},     {1, 2, 3, 4, 5}, {16},
        {1, 16},       {1, 1, 16},       {1, 1, 1, 16},   {4, 16},
        {1, 4, 16},    {1, 1, 4, 16},    {3, 4, 16},      {1, 3, 4, 16},
        {2, 3, 4, 16}, {1, 2, 3, 4, 16}, {11, 16}};
    (void)state;
    for (size_t step = 0; step < sizeof(want) / sizeof(want[0]); step++) {
        size_t wn = 0;
        while (wn < 6 && want[step][wn] != 0)
            wn++;
        n = size_ratio_step(&u, sizes, n);
        expect(sizes, n, want[step], wn);
    }
}

static void test_size_ratio_threshold(void **state)
{
    pm_level_run runs[3] = {{0, 8}, {1, 9}, {2, 10}};
    pm_universal u10 = testing(25, 10, 2), u20 = testing(25, 20, 2);
    size_t take;
    int32_t out;
    (void)state;
    assert_false(pm_universal_pick_size_ratio(&u10, 3, runs, 3, 1, false, &take, &out));
    assert_true(pm_universal_pick_size_ratio(&u20, 3, runs, 3, 1, false, &take, &out));
    assert_int_equal(take, 3);
}

static int hour_fixed;
static int fixed_hour(void)
{
    return hour_fixed;
}

static void test_offpeak_and_early_full(void **state)
{
    pm_level_run runs[3] = {{0, 8}, {1, 9}, {2, 10}};
    pm_universal u = testing(25, 10, 2);
    size_t take;
    int32_t out;
    (void)state;
    /* an off-peak ratio of 10 between 22h and 6h lets 8 take 9 at 23h, not at noon */
    u.offpeak_start = 22;
    u.offpeak_end = 6;
    u.offpeak_ratio = 10;
    u.hour_now = fixed_hour;
    hour_fixed = 12;
    assert_false(pm_universal_pick_size_ratio(&u, 3, runs, 3, 1, false, &take, &out));
    hour_fixed = 23;
    assert_true(pm_universal_pick_size_ratio(&u, 3, runs, 3, 1, false, &take, &out));
    /* compaction.total-size-threshold: a small table is compacted whole */
    {
        pm_universal v = testing(200, 1, 5);
        const int32_t l[] = {0, 3};
        const int64_t s[] = {1, 100};
        v.total_size = 1000;
        assert_true(pick(&v, 4, l, s, 2, &take, &out));
        assert_int_equal(take, 2);
        assert_int_equal(out, 3);
        v.total_size = 50;
        assert_false(pick(&v, 4, l, s, 2, &take, &out));
        /* a single run never */
        v.total_size = 1000;
        assert_false(pick(&v, 4, l + 1, s + 1, 1, &take, &out));
    }
}

static void test_options(void **state)
{
    pm_options o;
    pm_universal u;
    paimon_error err;
    (void)state;
    pm_options_init(&o);
    assert_int_equal(pm_universal_init(&u, &o, &err), 0);
    assert_int_equal(u.max_size_amp, 200);
    assert_int_equal(u.size_ratio, 1);
    assert_int_equal(u.trigger, 5);
    assert_int_equal(u.interval_ms, -1);
    assert_int_equal(pm_options_set(&o, "num-sorted-run.compaction-trigger", "zero"), 0);
    assert_int_equal(pm_universal_init(&u, &o, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "num-sorted-run.compaction-trigger"));
    assert_int_equal(pm_options_set(&o, "num-sorted-run.compaction-trigger", "3"), 0);
    assert_int_equal(pm_options_set(&o, "compaction.optimization-interval", "1 h"), 0);
    assert_int_equal(pm_universal_init(&u, &o, &err), 0);
    assert_int_equal(u.trigger, 3);
    assert_int_equal(u.interval_ms, 3600 * 1000);
    pm_options_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_output_level),           cmocka_unit_test(test_pick),
        cmocka_unit_test(test_no_output_level_zero),   cmocka_unit_test(test_worked_example),
        cmocka_unit_test(test_size_ratio_sequence),    cmocka_unit_test(test_size_ratio_threshold),
        cmocka_unit_test(test_offpeak_and_early_full), cmocka_unit_test(test_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
