/* paimon-c: versions.  Thread-safe. */
#ifndef PAIMON_VERSION_H
#define PAIMON_VERSION_H

#include "paimon/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PAIMON_VERSION_MAJOR 0
#define PAIMON_VERSION_MINOR 1
#define PAIMON_VERSION_PATCH 0

/* The Apache Paimon release whose on-disk shapes this library writes. */
#define PAIMON_FORMAT_VERSION "1.4"

/* The library's own version, e.g. "0.1.0" (static string). */
PAIMON_API const char *paimon_version(void);

/* The Paimon format version it writes: "1.4" (static string). */
PAIMON_API const char *paimon_format_version(void);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_VERSION_H */
