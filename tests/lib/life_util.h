/*
 * Helpers of the tests of the table's life (tags, rollback, orphan files): small tables
 * written through the public API, their rows at a snapshot or tag, copies, file listings
 * and file ages.
 */
#ifndef PM_TEST_LIFE_UTIL_H
#define PM_TEST_LIFE_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "util/strlist.h"

/* A new table "<tmp>/t": `pk` gives (id BIGINT NOT NULL primary key, v STRING, bucket 1),
 * else an append table (id BIGINT, v STRING); `options` "k=v" items (NULL-terminated, may be
 * NULL).  Free with pm_test_remove_table. */
char *life_table(const char *tag, bool pk, const char *const *options);

/* Writes JSONL rows and commits them (with the post-commit upkeep); returns the snapshot. */
int64_t life_write(const char *path, const char *jsonl, bool overwrite);

/* The rows at snapshot `snapshot` (> 0) or tag `tag` (else the latest), as sorted canonical
 * JSON lines; NULL when the read fails (`why`, may be NULL, receives the message).  Free
 * with pm_free. */
char *life_rows(const char *path, int64_t snapshot, const char *tag, char *why, size_t cap);

/* Every file under `dir`, as paths relative to it, sorted. */
void life_files(const char *dir, pm_strlist *out);

/* A copy of the table directory `src` under a new temporary directory: "<tmp>/t". */
char *life_copy(const char *src, const char *tag);

/* Sets the modification time of `path` to `seconds` ago. */
void life_age(const char *path, int64_t seconds);

/* Ages every file under `dir` by `seconds`. */
void life_age_all(const char *dir, int64_t seconds);

#endif /* PM_TEST_LIFE_UTIL_H */
