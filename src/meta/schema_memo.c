/*
 * What a command reads twice, remembered on the file system it was read through
 * (pm_fs.memo), so that the store is asked once: the latest schema of a table, and the last
 * few manifest lists read.
 *
 * Why: every module of a command (the table handle, the writer, the commit, each step of
 * the upkeep after it) asks for the latest schema, and on S3 each ask is a LIST of schema/
 * and a GET: 16 of the 53 requests of a one-row write (issue 14, docs/PERFORMANCE.md
 * "Requests on S3").  A writer restoring a bucket and then its commit read the same two
 * manifest lists.  A table handle owns its file system, so the memo lives exactly as long
 * as the handle, and the handle already promises "the latest schema when opened"
 * (table/table.h), as Java's FileStoreTable holds the schema it was loaded with.
 *
 * What is kept: file bytes, handed out as copies (callers parse them as before).  Schema
 * files are never rewritten (a change is a new schema-<id+1>, created only if absent); the
 * latest one is forgotten when a schema is committed through this file system, and by
 * pm_schema_forget: the commit calls it after losing a race, when another writer may have
 * changed the table, so a retry records the newest schema as Java's does.  Manifest lists
 * have unique names and are never rewritten, so they can be kept as long as wanted: the
 * last MEMO_FILES_MAX, so that a long-lived handle (a follower of the table) stays small.
 *
 * Thread safety: one lock for every memo (asks are rare and short).
 */
#include <pthread.h>
#include <string.h>

#include "meta/schema.h"
#include "util/alloc.h"
#include "util/error.h"

#define MEMO_FILES_MAX 8 /* manifest lists kept: a restore's and its commit's two, and more */

typedef struct memo_entry {
    char *key;     /* 'S' + table root (its latest schema), or 'F' + a file's path */
    uint8_t *data; /* the bytes */
    size_t len;
} memo_entry;

typedef struct meta_memo {
    memo_entry *e; /* oldest first */
    size_t count, cap;
} meta_memo;

static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;

static void memo_free(void *p)
{
    meta_memo *m = p;
    for (size_t i = 0; i < m->count; i++) {
        pm_free(m->e[i].key);
        pm_free(m->e[i].data);
    }
    pm_free(m->e);
    pm_free(m);
}

/* fs's memo, or NULL (also when another layer's memo sits there).  Under memo_lock. */
static meta_memo *memo_of(pm_fs *fs)
{
    return fs->memo_free == memo_free ? fs->memo : NULL;
}

/* The index of `kind` + `name` in `m`, or -1.  Under memo_lock. */
static long memo_find(const meta_memo *m, char kind, const char *name)
{
    for (size_t i = 0; m != NULL && i < m->count; i++)
        if (m->e[i].key[0] == kind && strcmp(m->e[i].key + 1, name) == 0)
            return (long)i;
    return -1;
}

static void memo_remove_at(meta_memo *m, size_t i)
{
    pm_free(m->e[i].key);
    pm_free(m->e[i].data);
    memmove(&m->e[i], &m->e[i + 1], (m->count - i - 1) * sizeof(*m->e));
    m->count--;
}

PM_MUST_CHECK static int memo_get(pm_fs *fs, char kind, const char *name, uint8_t **data,
                                  size_t *len, paimon_error *err)
{
    long i;
    int rc = 0;
    *data = NULL;
    *len = 0;
    pthread_mutex_lock(&memo_lock);
    if ((i = memo_find(memo_of(fs), kind, name)) >= 0) {
        const memo_entry *e = &memo_of(fs)->e[i];
        if ((*data = pm_malloc(e->len + 1)) == NULL) {
            rc = pm_nomem(err);
        } else {
            memcpy(*data, e->data, e->len);
            (*data)[e->len] = '\0';
            *len = e->len;
        }
    }
    pthread_mutex_unlock(&memo_lock);
    return rc;
}

/* Remembers a copy of data[0..len) as `kind` + `name`; without memory nothing happens (a
 * memo is an optimisation: the next ask reads again). */
static void memo_put(pm_fs *fs, char kind, const char *name, const uint8_t *data, size_t len)
{
    size_t nl = strlen(name);
    uint8_t *copy = pm_malloc(len + 1);
    char *key = pm_malloc(nl + 2);
    meta_memo *m;
    long i;

    if (copy == NULL || key == NULL)
        goto done;
    memcpy(copy, data, len);
    copy[len] = '\0';
    key[0] = kind;
    memcpy(key + 1, name, nl + 1);
    pthread_mutex_lock(&memo_lock);
    if (fs->memo == NULL && fs->memo_free == NULL && (m = pm_calloc(1, sizeof(*m))) != NULL) {
        fs->memo = m;
        fs->memo_free = memo_free;
    }
    if ((m = memo_of(fs)) != NULL) {
        size_t files = 0;
        if ((i = memo_find(m, kind, name)) >= 0)
            memo_remove_at(m, (size_t)i);
        for (size_t j = 0; j < m->count; j++)
            files += m->e[j].key[0] == 'F';
        for (size_t j = 0; kind == 'F' && files >= MEMO_FILES_MAX && j < m->count;)
            if (m->e[j].key[0] == 'F') {
                memo_remove_at(m, j); /* the oldest file goes */
                files--;
            } else {
                j++;
            }
        if (m->count == m->cap) {
            size_t cap = m->cap == 0 ? 4 : m->cap * 2;
            memo_entry *grown = pm_realloc(m->e, cap * sizeof(*grown));
            if (grown != NULL) {
                m->e = grown;
                m->cap = cap;
            }
        }
        if (m->count < m->cap) {
            m->e[m->count++] = (memo_entry){key, copy, len};
            key = NULL;
            copy = NULL;
        }
    }
    pthread_mutex_unlock(&memo_lock);
done:
    pm_free(key);
    pm_free(copy);
}

int pm_schema_memo_get(pm_fs *fs, const char *table, uint8_t **json, size_t *len, paimon_error *err)
{
    return memo_get(fs, 'S', table, json, len, err);
}

void pm_schema_memo_put(pm_fs *fs, const char *table, const uint8_t *json, size_t len)
{
    memo_put(fs, 'S', table, json, len);
}

void pm_schema_forget(pm_fs *fs, const char *table)
{
    long i;
    pthread_mutex_lock(&memo_lock);
    if ((i = memo_find(memo_of(fs), 'S', table)) >= 0)
        memo_remove_at(memo_of(fs), (size_t)i);
    pthread_mutex_unlock(&memo_lock);
}

int pm_memo_file_get(pm_fs *fs, const char *path, uint8_t **data, size_t *len, paimon_error *err)
{
    return memo_get(fs, 'F', path, data, len, err);
}

void pm_memo_file_put(pm_fs *fs, const char *path, const uint8_t *data, size_t len)
{
    memo_put(fs, 'F', path, data, len);
}
