/* lsm_check TABLE: checks the LSM shape of a primary-key table's latest snapshot
 * (tests/lib/lsm_check.h) and prints "max-level N files M"; exit 1 with the problem. */
#include <stdio.h>

#include "lsm_check.h"

int main(int argc, char **argv)
{
    char msg[512];
    int top = -1;
    size_t files = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: lsm_check TABLE\n");
        return 2;
    }
    if (pm_test_check_lsm(argv[1], msg, sizeof(msg), &top, &files) != 0) {
        fprintf(stderr, "lsm_check: %s\n", msg);
        return 1;
    }
    printf("max-level %d files %zu\n", top, files);
    return 0;
}
