/* Public version functions. */
#include "paimon/version.h"

PAIMON_API const char *paimon_version(void)
{
    return PAIMON_VERSION_STRING;
}

PAIMON_API const char *paimon_format_version(void)
{
    return PAIMON_FORMAT_VERSION;
}
