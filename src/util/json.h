/*
 * JSON helpers over jansson (exact 64-bit integers, insertion-ordered objects).
 *
 * Reading: pm_json_parse() turns file bytes into a json_t, reporting malformed input as
 * PAIMON_ECORRUPT with the file name, line and column.  The pm_json_get_*() accessors
 * validate one member each and name it in their errors.
 *
 * Writing: pm_json_write_jackson() prints the layout Jackson's default pretty printer gives
 * Java Paimon's metadata files (metadata.md §2): "key" : value, two-space indentation per
 * object level, arrays inline as [ a, b ], empty containers as [ ] and { }, no trailing
 * newline.  Readers do not care, but matching it is cheap and makes diffs against Java
 * tables quiet.
 */
#ifndef PM_UTIL_JSON_H
#define PM_UTIL_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "util/error.h"

/* Parses `len` bytes.  Caller owns `*out` (json_decref).  `what` names the source. */
PM_MUST_CHECK int pm_json_parse(const uint8_t *data, size_t len, const char *what, json_t **out,
                                paimon_error *err);

/* The same for a document that must be a JSON object (a metadata file): anything else is
 * PAIMON_ECORRUPT "WHAT: not a JSON object".  Caller owns `*out` (json_decref). */
PM_MUST_CHECK int pm_json_parse_object(const uint8_t *data, size_t len, const char *what,
                                       json_t **out, paimon_error *err);

/* Member accessors.  `what` names the file for messages.  A missing member is an error
 * when `required`, otherwise the out value is left as given and *present is false.  JSON
 * null counts as missing. */
PM_MUST_CHECK int pm_json_get_i64(const json_t *obj, const char *key, bool required, int64_t *out,
                                  bool *present, const char *what, paimon_error *err);
PM_MUST_CHECK int pm_json_get_str(const json_t *obj, const char *key, bool required,
                                  const char **out, const char *what, paimon_error *err);

/* Appends `s` as a JSON string literal: '"', '\\' and control characters escaped, UTF-8
 * kept as is, invalid UTF-8 replaced by U+FFFD so the output is always valid JSON. */
int pm_json_quote(pm_buf *out, const char *s, size_t len);

/* The same with Jackson's escapes (what Java writes into metadata files and system-table
 * JSON): other control characters as \u00XX with upper-case hex. */
int pm_json_quote_jackson(pm_buf *out, const char *s, size_t len);

/* Appends `value` in Jackson's default pretty-printed layout. */
int pm_json_write_jackson(pm_buf *out, const json_t *value);

/* The same for a value just built: takes ownership of `value`; NULL (the build ran out of
 * memory) gives PAIMON_ENOMEM. */
int pm_json_write_jackson_owned(pm_buf *out, json_t *value);

/* Appends `value` as compact JSON ("k":v, no spaces), as Jackson's default writer does.
 * Both writers escape strings with pm_json_quote_jackson(). */
int pm_json_write_compact(pm_buf *out, const json_t *value);

#endif /* PM_UTIL_JSON_H */
