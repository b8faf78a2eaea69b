/* util: CRC-32 (pm_crc32, pm_crc32_update) equals zlib's crc32 for every length from 0 to
 * 1100 bytes at several alignments and starting values, over lengths that cross the
 * carry-less folding's 64-byte and 16-byte steps, incrementally fed, and for known vectors. */
#include <string.h>
#include <zlib.h>

#include "testlib.h"

#include "util/crc32_fold.h"
#include "util/hash.h"

static uint8_t data[70000];

static void fill(void)
{
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < sizeof(data); i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        data[i] = (uint8_t)x;
    }
}

static void test_known_vectors(void **state)
{
    (void)state;
    assert_int_equal(pm_crc32("", 0), 0);
    assert_int_equal(pm_crc32("123456789", 9), 0xCBF43926u);
    /* 64 bytes of zeros and of 0xff: long enough for the folding */
    {
        uint8_t z[64], f[64];
        memset(z, 0, sizeof(z));
        memset(f, 0xff, sizeof(f));
        assert_int_equal(pm_crc32(z, 64), (uint32_t)crc32(0, z, 64));
        assert_int_equal(pm_crc32(f, 64), (uint32_t)crc32(0, f, 64));
    }
}

static void test_matches_zlib(void **state)
{
    (void)state;
    fill();
    for (size_t off = 0; off < 4; off++)
        for (size_t len = 0; len <= 1100; len++) {
            uint32_t seed = (uint32_t)(off * 0x1234567u);
            uint32_t want = (uint32_t)crc32(seed, data + off, (uInt)len);
            assert_int_equal(pm_crc32_update(seed, data + off, len), want);
        }
    /* long inputs, odd lengths */
    for (size_t len = 4096 - 3; len < sizeof(data); len = len * 3 + 7)
        assert_int_equal(pm_crc32(data + 1, len), (uint32_t)crc32(0, data + 1, (uInt)len));
}

static void test_incremental(void **state)
{
    uint32_t whole, crc = 0;
    size_t pos = 0, step = 1;
    (void)state;
    fill();
    whole = pm_crc32(data, sizeof(data));
    while (pos < sizeof(data)) {
        size_t n = sizeof(data) - pos < step ? sizeof(data) - pos : step;
        crc = pm_crc32_update(crc, data + pos, n);
        pos += n;
        step = step * 2 + 13;
    }
    assert_int_equal(crc, whole);
}

static void test_fold_contract(void **state)
{
    uint32_t crc = 0;
    size_t n;
    (void)state;
    fill();
    /* below 64 bytes nothing is folded; above, a multiple of 16 */
    assert_int_equal(pm_crc32_fold(&crc, data, 63), 0);
    assert_int_equal(crc, 0);
    n = pm_crc32_fold(&crc, data, 1000);
    assert_true(n == 0 || n == 992);
    if (n > 0)
        assert_int_equal(crc, (uint32_t)crc32(0, data, (uInt)n));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_vectors),
        cmocka_unit_test(test_matches_zlib),
        cmocka_unit_test(test_incremental),
        cmocka_unit_test(test_fold_contract),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
