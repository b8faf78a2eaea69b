/* The failure path of PM_ASSERT: see assert.h. */
#include "util/assert.h"

#include <stdio.h>
#include <stdlib.h>

void pm_assert_fail(const char *file, int line, const char *cond)
{
    fprintf(stderr, "%s:%d: assertion failed: %s\n", file, line, cond);
    fflush(stderr);
    abort();
}
