/*
 * The HashMap replay against orders printed by java.util.HashMap (OpenJDK 17) for keys
 * with chosen hashCode()s, and Paimon's BinaryString hash against values computed in Java.
 */
#include <string.h>

#include "testlib.h"

#include "util/hash.h"
#include "util/java_hashmap.h"

/* Keys are equal when their ids agree modulo 1000 (as the Java program's key class). */
static bool ids_equal(void *ctx, int64_t a, int64_t b)
{
    (void)ctx;
    return a % 1000 == b % 1000;
}

/* Puts (hashes[i], ids[i]) -> i and checks the iteration order "key=value ..." */
static void check_order(const int32_t *hashes, const int64_t *ids, size_t n, const char *want)
{
    pm_jhm m;
    pm_jhm_iter it = PM_JHM_ITER_INIT;
    const pm_jhm_entry *e;
    char got[1024] = "";
    pm_jhm_init(&m, ids_equal, NULL);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(pm_jhm_put(&m, hashes[i], ids[i], (int64_t)i), 0);
    while ((e = pm_jhm_next(&m, &it)) != NULL) {
        char one[64];
        snprintf(one, sizeof(one), "%s%lld=%lld", got[0] != '\0' ? " " : "", (long long)e->key,
                 (long long)e->value);
        strncat(got, one, sizeof(got) - strlen(got) - 1);
    }
    assert_string_equal(got, want);
    assert_null(pm_jhm_next(&m, &it));
    pm_jhm_free(&m);
}

static void test_orders_match_java(void **state)
{
    (void)state;
    {
        int32_t h[] = {17, 1, 33, 2};
        int64_t id[] = {0, 1, 2, 3};
        check_order(h, id, 4, "0=0 1=1 2=2 3=3");
    }
    {
        /* 12 keys in one bin: the 9th makes Java resize 16 -> 32 instead of a tree. */
        int32_t h[12];
        int64_t id[12];
        for (int i = 0; i < 12; i++) {
            h[i] = 1 + 16 * i;
            id[i] = i;
        }
        check_order(h, id, 12, "0=0 2=2 4=4 6=6 8=8 10=10 1=1 3=3 5=5 7=7 9=9 11=11");
    }
    {
        /* 30 spread keys: resizes at 13 and 25. */
        int32_t h[30];
        int64_t id[30];
        for (int i = 0; i < 30; i++) {
            h[i] = (int32_t)((uint32_t)i * 0x9E3779B1u);
            id[i] = i;
        }
        check_order(h, id, 30,
                    "0=0 10=10 20=20 29=29 1=1 21=21 9=9 2=2 28=28 7=7 18=18 12=12 26=26 4=4 "
                    "23=23 15=15 5=5 25=25 14=14 16=16 6=6 24=24 13=13 17=17 22=22 27=27 8=8 "
                    "3=3 11=11 19=19");
    }
    {
        /* An equal key keeps its entry and its key, and takes the value. */
        int32_t h[] = {5, 3, 5, -7};
        int64_t id[] = {1, 2, 1001, 4};
        check_order(h, id, 4, "2=1 1=2 4=3");
    }
    {
        /* The spread (h ^ h >>> 16) decides the bin. */
        int32_t h[] = {-1, 0x10000, 0x7fff0000, -65536, 42};
        int64_t id[] = {0, 1, 2, 3, 4};
        check_order(h, id, 5, "0=0 1=1 4=4 2=2 3=3");
    }
}

static void test_remove_and_clear(void **state)
{
    pm_jhm m;
    pm_jhm_iter it = PM_JHM_ITER_INIT;
    (void)state;
    pm_jhm_init(&m, ids_equal, NULL);
    for (int i = 0; i < 5; i++)
        assert_int_equal(pm_jhm_put(&m, i, i, i), 0);
    assert_true(pm_jhm_remove(&m, 2, 2));
    assert_false(pm_jhm_remove(&m, 2, 2));
    assert_null(pm_jhm_get(&m, 2, 2));
    assert_non_null(pm_jhm_get(&m, 3, 1003));
    assert_int_equal(m.size, 4);
    for (int want = 0; want < 5; want++) {
        if (want == 2)
            continue;
        assert_int_equal(pm_jhm_next(&m, &it)->key, want);
    }
    assert_null(pm_jhm_next(&m, &it));
    pm_jhm_clear(&m);
    assert_null(pm_jhm_get(&m, 3, 3));
    assert_int_equal(pm_jhm_put(&m, 7, 7, 0), 0);
    assert_int_equal(m.size, 1);
    pm_jhm_free(&m);
}

static void test_binary_string_hash(void **state)
{
    /* MurmurHashUtils.hashBytes(seed 42) computed in Java; the tail bytes are widened with
     * their sign, which the last two vectors exercise. */
    static const struct {
        const char *s;
        int32_t h;
    } V[] = {{"", 142593372},
             {"a", 1485273170},
             {"ab", -97053317},
             {"abc", 1322437556},
             {"abcd", -396302900},
             {"abcde", 814637928},
             {"h\xc3\xa9llo w\xc3\xb6rld", -281075962},
             {"\xc3\xbf\xc3\xbe", 1468979952}};
    (void)state;
    for (size_t i = 0; i < sizeof(V) / sizeof(V[0]); i++)
        assert_int_equal(pm_murmur3_bytes_java(V[i].s, strlen(V[i].s), 42), V[i].h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orders_match_java),
        cmocka_unit_test(test_remove_and_clear),
        cmocka_unit_test(test_binary_string_hash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
