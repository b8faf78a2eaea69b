/* Version 4 UUIDs from the kernel's random source. */
#include "util/uuid.h"

#include <errno.h>
#include <stdint.h>
#include <sys/random.h>

#include "paimon/error.h"

int pm_uuid_v4(char out[PM_UUID_STRLEN + 1])
{
    static const char hex[] = "0123456789abcdef";
    uint8_t b[16];
    size_t got = 0;
    int o = 0;

    while (got < sizeof(b)) {
        ssize_t n = getrandom(b + got, sizeof(b) - got, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return PAIMON_EIO;
        }
        got += (size_t)n;
    }
    b[6] = (uint8_t)((b[6] & 0x0f) | 0x40); /* version 4 */
    b[8] = (uint8_t)((b[8] & 0x3f) | 0x80); /* RFC 4122 variant */
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out[o++] = '-';
        out[o++] = hex[b[i] >> 4];
        out[o++] = hex[b[i] & 15];
    }
    out[o] = '\0';
    return 0;
}
