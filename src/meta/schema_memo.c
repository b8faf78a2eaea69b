/*
 * The latest schema of a table, remembered on the file system it was read through
 * (pm_fs.memo), so that one command or table handle finds and reads it once.
 *
 * Why: every module of a command (the table handle, the writer, the commit, each step of
 * the upkeep after it) asks for the latest schema, and on S3 each ask is a LIST of schema/
 * and a GET: 16 of the 53 requests of a one-row write (issue 14, docs/PERFORMANCE.md
 * "Requests on S3").  A table handle owns its file system, so the memo lives exactly as
 * long as the handle, and the handle already promises "the latest schema when opened"
 * (table/table.h), as Java's FileStoreTable holds the schema it was loaded with.
 *
 * What is kept: the schema file's bytes (schema files are never rewritten: a change is a
 * new schema-<id+1>, created only if absent), parsed again for every caller, who owns its
 * copy as before.  It is forgotten when a schema is committed through this file system, and
 * by pm_schema_forget: the commit calls it after losing a race, when another writer may
 * have changed the table, so a retry records the newest schema as Java's does.
 *
 * Thread safety: one lock for every memo (asks are rare and short).
 */
#include <pthread.h>
#include <string.h>

#include "meta/schema.h"
#include "util/alloc.h"
#include "util/error.h"

typedef struct memo_entry {
    char *table;   /* the table root as callers name it */
    uint8_t *json; /* the latest schema file's bytes */
    size_t len;
} memo_entry;

typedef struct schema_memo {
    memo_entry *e;
    size_t count, cap;
} schema_memo;

static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;

static void memo_free(void *p)
{
    schema_memo *m = p;
    for (size_t i = 0; i < m->count; i++) {
        pm_free(m->e[i].table);
        pm_free(m->e[i].json);
    }
    pm_free(m->e);
    pm_free(m);
}

/* The entry of `table` in fs's memo, or NULL.  Called under memo_lock. */
static memo_entry *memo_find(pm_fs *fs, const char *table)
{
    schema_memo *m = fs->memo_free == memo_free ? fs->memo : NULL;
    for (size_t i = 0; m != NULL && i < m->count; i++)
        if (strcmp(m->e[i].table, table) == 0)
            return &m->e[i];
    return NULL;
}

int pm_schema_memo_get(pm_fs *fs, const char *table, uint8_t **json, size_t *len, paimon_error *err)
{
    memo_entry *e;
    int rc = 0;
    *json = NULL;
    *len = 0;
    pthread_mutex_lock(&memo_lock);
    if ((e = memo_find(fs, table)) != NULL) {
        if ((*json = pm_malloc(e->len + 1)) == NULL) {
            rc = pm_nomem(err);
        } else {
            memcpy(*json, e->json, e->len);
            (*json)[e->len] = '\0';
            *len = e->len;
        }
    }
    pthread_mutex_unlock(&memo_lock);
    return rc;
}

void pm_schema_memo_put(pm_fs *fs, const char *table, const uint8_t *json, size_t len)
{
    memo_entry *e;
    uint8_t *copy = pm_malloc(len + 1);
    if (copy == NULL)
        return; /* a memo is an optimisation: without memory, the next ask reads again */
    memcpy(copy, json, len);
    copy[len] = '\0';
    pthread_mutex_lock(&memo_lock);
    if (fs->memo == NULL && fs->memo_free == NULL) {
        schema_memo *m = pm_calloc(1, sizeof(*m));
        if (m != NULL) {
            fs->memo = m;
            fs->memo_free = memo_free;
        }
    }
    if ((e = memo_find(fs, table)) != NULL) {
        pm_free(e->json);
        e->json = copy;
        e->len = len;
        copy = NULL;
    } else if (fs->memo_free == memo_free) {
        schema_memo *m = fs->memo;
        char *name = pm_strdup(table);
        if (name != NULL && m->count == m->cap) {
            size_t cap = m->cap == 0 ? 4 : m->cap * 2;
            memo_entry *grown = pm_realloc(m->e, cap * sizeof(*grown));
            if (grown != NULL) {
                m->e = grown;
                m->cap = cap;
            }
        }
        if (name != NULL && m->count < m->cap) {
            m->e[m->count++] = (memo_entry){name, copy, len};
            copy = NULL;
            name = NULL;
        }
        pm_free(name);
    }
    pthread_mutex_unlock(&memo_lock);
    pm_free(copy);
}

void pm_schema_forget(pm_fs *fs, const char *table)
{
    memo_entry *e;
    pthread_mutex_lock(&memo_lock);
    if ((e = memo_find(fs, table)) != NULL) {
        schema_memo *m = fs->memo;
        pm_free(e->table);
        pm_free(e->json);
        *e = m->e[--m->count];
    }
    pthread_mutex_unlock(&memo_lock);
}
