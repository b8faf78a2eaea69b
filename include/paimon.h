/*
 * paimon-c: Apache Paimon tables from C.
 *
 * This is the umbrella header; include it and link with -lpaimon.  The API is grouped by
 * topic in the headers under include/paimon/; every function returns 0 or a negative PAIMON_E* code and
 * reports details through an optional caller-owned paimon_error (paimon/error.h).
 *
 * paimon-c reads tables written by Apache Paimon 0.8 to 2.0 (Java) and paimon-cpp, and
 * writes exactly what Java Paimon 1.4.2 writes (paimon_format_version()).
 */
#ifndef PAIMON_H
#define PAIMON_H

#include "paimon/error.h"
#include "paimon/version.h"
#include "paimon/table.h"
#include "paimon/inspect.h"
#include "paimon/scan.h"
#include "paimon/arrow.h"
#include "paimon/file.h"
#include "paimon/write.h"
#include "paimon/changes.h"

#endif /* PAIMON_H */
