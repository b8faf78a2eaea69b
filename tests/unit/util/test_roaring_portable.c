/*
 * The RoaringBitmap validator: every bitmap CRoaring serializes (arrays, bitsets, runs, with
 * and without run containers, with and without offsets) passes with its exact size; every
 * truncation and the malformations the validator exists for fail.
 */
#include <roaring/roaring.h>
#include <string.h>

#include "testlib.h"

#include "util/alloc.h"
#include "util/bytes.h"
#include "util/roaring_portable.h"

static uint64_t rng = 12345;
static uint32_t rnd(uint32_t n)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(rng >> 33) % n;
}

/* A random bitmap mixing sparse keys (arrays), dense ones (bitsets) and ranges (runs). */
static roaring_bitmap_t *random_bitmap(int shape)
{
    roaring_bitmap_t *b = roaring_bitmap_create();
    int keys = 1 + (int)rnd(6);
    for (int k = 0; k < keys; k++) {
        uint32_t base = (rnd(200) * 3 + (uint32_t)k) << 16;
        switch ((shape + k) % 3) {
        case 0:
            for (int i = 0; i < 50; i++)
                roaring_bitmap_add(b, base + rnd(65536));
            break;
        case 1:
            for (int i = 0; i < 9000; i++)
                roaring_bitmap_add(b, base + rnd(65536));
            break;
        default: roaring_bitmap_add_range(b, base + 100, base + 100 + rnd(60000)); break;
        }
    }
    if (shape % 2 == 0)
        roaring_bitmap_run_optimize(b);
    return b;
}

static void test_valid_bitmaps(void **state)
{
    (void)state;
    for (int i = 0; i < 200; i++) {
        roaring_bitmap_t *b = random_bitmap(i);
        size_t n = roaring_bitmap_portable_size_in_bytes(b), used = 0;
        char *buf = pm_malloc(n + 16);
        assert_int_equal(roaring_bitmap_portable_serialize(b, buf), n);
        memset(buf + n, 0xee, 16); /* trailing bytes are not the bitmap's */
        assert_true(pm_roaring_portable_valid((uint8_t *)buf, n + 16, &used));
        assert_int_equal(used, n);
        for (size_t cut = 0; cut < n; cut += 1 + n / 50)
            assert_false(pm_roaring_portable_valid((uint8_t *)buf, cut, &used));
        pm_free(buf);
        roaring_bitmap_free(b);
    }
    {
        roaring_bitmap_t *empty = roaring_bitmap_create();
        char buf[64];
        size_t n = roaring_bitmap_portable_serialize(empty, buf), used = 0;
        assert_true(pm_roaring_portable_valid((uint8_t *)buf, n, &used));
        assert_int_equal(used, n);
        roaring_bitmap_free(empty);
    }
}

static void test_malformed(void **state)
{
    roaring_bitmap_t *b = roaring_bitmap_of(3, 5, 1, 70000); /* two array containers */
    uint8_t buf[128], bad[128];
    size_t n = roaring_bitmap_portable_serialize(b, (char *)buf), used;
    (void)state;
    assert_true(pm_roaring_portable_valid(buf, n, &used));
    /* keys not ascending */
    memcpy(bad, buf, n);
    pm_store_le16(bad + 8 + 4, 0);
    assert_false(pm_roaring_portable_valid(bad, n, &used));
    /* an array value out of order */
    memcpy(bad, buf, n);
    {
        size_t first = pm_load_le32(bad + 8 + 8); /* offset of container 0 */
        uint16_t v0 = (uint16_t)pm_load_le16(bad + first),
                 v1 = (uint16_t)pm_load_le16(bad + first + 2);
        pm_store_le16(bad + first, v1);
        pm_store_le16(bad + first + 2, v0);
    }
    assert_false(pm_roaring_portable_valid(bad, n, &used));
    /* a cardinality larger than the bytes that follow */
    memcpy(bad, buf, n);
    pm_store_le16(bad + 8 + 6, 4000);
    assert_false(pm_roaring_portable_valid(bad, n, &used));
    /* an unknown cookie */
    memcpy(bad, buf, n);
    pm_store_le32(bad, 12345);
    assert_false(pm_roaring_portable_valid(bad, n, &used));
    roaring_bitmap_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_bitmaps),
        cmocka_unit_test(test_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
