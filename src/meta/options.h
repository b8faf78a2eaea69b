/*
 * Table options read by their type, with Java's defaults.
 *
 * The options themselves are a plain string map (util/options.h).  The getters below read
 * one option of Java Paimon 1.4.2's catalogue (meta/option_catalog.h, generated from
 * CoreOptions.java): the value of `key` or of one of its fallback keys, parsed with Java's
 * grammar for the option's type (util/units.h).  When the option is absent they give the
 * default the catalogue records, so no call site repeats a default.
 *
 * Options whose default Java does not declare get the `_or` variants, which take the
 * fallback from the call site: defaults that Java derives from other options (num-levels =
 * num-sorted-run.compaction-trigger + 1; changelog.num-retained.min falls back to
 * snapshot.num-retained.min; target-file-size depends on the primary key), "unset" meanings
 * (commit.timeout), and keys 1.4.2's catalogue does not list (fields.<f>.count-limit).
 *
 * Using a getter against the catalogue is a programming error that the getter reports as
 * PAIMON_EINVALID naming the key: a plain getter on a key without a catalogued default, an
 * `_or` getter on a key that has one, or a getter of another type.  The unit test
 * tests/unit/meta/test_option_defaults.c checks every literal key at every call site in
 * src/ the same way, so such a mistake fails the build's tests, not a user's write.
 *
 * A malformed value is PAIMON_EINVALID "option KEY: 'VALUE' is not ..."; create and alter
 * refuse such values (pm_options_validate), so this is met only with tables written by
 * others.
 */
#ifndef PM_META_OPTIONS_H
#define PM_META_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "paimon/error.h"
#include "util/options.h"
#include "util/error.h"

/* INT and LONG options. */
PM_MUST_CHECK int pm_options_get_i64(const pm_options *o, const char *key, int64_t *out,
                                     paimon_error *err);
PM_MUST_CHECK int pm_options_get_bool(const pm_options *o, const char *key, bool *out,
                                      paimon_error *err);
PM_MUST_CHECK int pm_options_get_double(const pm_options *o, const char *key, double *out,
                                        paimon_error *err);
/* MemorySize options, in bytes. */
PM_MUST_CHECK int pm_options_get_memory(const pm_options *o, const char *key, int64_t *out,
                                        paimon_error *err);
/* Duration options, in milliseconds. */
PM_MUST_CHECK int pm_options_get_duration(const pm_options *o, const char *key, int64_t *out_ms,
                                          paimon_error *err);
/* STRING and ENUM options: the value as given (enums: compare ignoring case), else the
 * catalogue's default, else NULL.  Borrowed from `o` or the catalogue. */
const char *pm_options_get_str(const pm_options *o, const char *key);

/* The same for options without a catalogued default: `fallback` when absent. */
PM_MUST_CHECK int pm_options_get_i64_or(const pm_options *o, const char *key, int64_t fallback,
                                        int64_t *out, paimon_error *err);
PM_MUST_CHECK int pm_options_get_bool_or(const pm_options *o, const char *key, bool fallback,
                                         bool *out, paimon_error *err);
PM_MUST_CHECK int pm_options_get_memory_or(const pm_options *o, const char *key, int64_t fallback,
                                           int64_t *out, paimon_error *err);
PM_MUST_CHECK int pm_options_get_duration_or(const pm_options *o, const char *key,
                                             int64_t fallback_ms, int64_t *out_ms,
                                             paimon_error *err);

#endif /* PM_META_OPTIONS_H */
