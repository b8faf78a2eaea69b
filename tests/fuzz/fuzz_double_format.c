/*
 * Fuzz target: the canonical text of DOUBLE and FLOAT values (pm_format_double and
 * pm_format_float over util/shortest.c) against the formatter they replaced, kept as the
 * reference in tests/lib/double_ref.h.  The input is a run of 8-byte little-endian words;
 * each is tried as one binary64 pattern and as two binary32 patterns (its halves), so every
 * NaN payload, subnormal and exponent is reachable.  A difference the reference does not
 * allow (see double_ref.h: only fewer digits at a power of two) aborts with both texts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/double_ref.h"
#include "data/canonical.h"
#include "util/buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *why)
{
    fprintf(stderr, "fuzz_double_format: %s\n", why);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pm_buf b;
    char why[160];
    pm_buf_init(&b, 0);
    for (size_t i = 0; i < size; i += 8) {
        uint8_t word[8] = {0};
        uint64_t bits = 0;
        uint32_t half;
        double d;
        float f;
        memcpy(word, data + i, size - i < 8 ? size - i : 8);
        for (int j = 7; j >= 0; j--)
            bits = bits << 8 | word[j];
        memcpy(&d, &bits, sizeof(d));
        pm_buf_reset(&b);
        if (pm_format_double(&b, d) != 0)
            fail("out of memory");
        if (ref_check_double(bits, pm_buf_cstr(&b), why) != NULL)
            fail(why);
        for (int h = 0; h < 2; h++) {
            half = (uint32_t)(bits >> (32 * h));
            memcpy(&f, &half, sizeof(f));
            pm_buf_reset(&b);
            if (pm_format_float(&b, f) != 0)
                fail("out of memory");
            if (ref_check_float(half, pm_buf_cstr(&b), why) != NULL)
                fail(why);
        }
    }
    pm_buf_free(&b);
    return 0;
}
