/* Commit messages: the entries writers hand to a commit (commit.h). */
#include <string.h>

#include "meta/manifest_write.h"
#include "table/commit.h"
#include "util/alloc.h"
#include "util/error.h"

void pm_commit_messages_init(pm_commit_messages *m)
{
    memset(m, 0, sizeof(*m));
    pm_arena_init(&m->arena, 64 * 1024);
}

void pm_commit_messages_release(pm_commit_messages *m)
{
    pm_free(m->data);
    pm_free(m->changelog);
    pm_free(m->index);
    pm_free(m->compact);
    pm_free(m->compact_changelog);
    pm_free(m->compact_index);
    pm_arena_free(&m->arena);
    memset(m, 0, sizeof(*m));
}

static int grow(void **items, size_t *cap, size_t count, size_t size)
{
    void *p;
    size_t n;
    if (count < *cap)
        return 0;
    n = *cap == 0 ? 16 : *cap * 2;
    if ((p = pm_realloc(*items, n * size)) == NULL)
        return PAIMON_ENOMEM;
    *items = p;
    *cap = n;
    return 0;
}

int pm_commit_messages_add_data(pm_commit_messages *m, const pm_manifest_entry *e)
{
    if (grow((void **)&m->data, &m->data_cap, m->data_count, sizeof(*m->data)) != 0 ||
        pm_manifest_entry_copy(&m->arena, &m->data[m->data_count], e) != 0)
        return PAIMON_ENOMEM;
    m->data[m->data_count++].version = PM_MANIFEST_VERSION;
    return 0;
}

int pm_commit_messages_add_changelog(pm_commit_messages *m, const pm_manifest_entry *e)
{
    if (grow((void **)&m->changelog, &m->changelog_cap, m->changelog_count,
             sizeof(*m->changelog)) != 0 ||
        pm_manifest_entry_copy(&m->arena, &m->changelog[m->changelog_count], e) != 0)
        return PAIMON_ENOMEM;
    m->changelog[m->changelog_count++].version = PM_MANIFEST_VERSION;
    return 0;
}

int pm_commit_messages_add_compact(pm_commit_messages *m, const pm_manifest_entry *e)
{
    if (grow((void **)&m->compact, &m->compact_cap, m->compact_count, sizeof(*m->compact)) != 0 ||
        pm_manifest_entry_copy(&m->arena, &m->compact[m->compact_count], e) != 0)
        return PAIMON_ENOMEM;
    m->compact[m->compact_count++].version = PM_MANIFEST_VERSION;
    return 0;
}

int pm_commit_messages_add_compact_changelog(pm_commit_messages *m, const pm_manifest_entry *e)
{
    if (grow((void **)&m->compact_changelog, &m->compact_changelog_cap, m->compact_changelog_count,
             sizeof(*m->compact_changelog)) != 0 ||
        pm_manifest_entry_copy(&m->arena, &m->compact_changelog[m->compact_changelog_count], e) !=
            0)
        return PAIMON_ENOMEM;
    m->compact_changelog[m->compact_changelog_count++].version = PM_MANIFEST_VERSION;
    return 0;
}

static const char *dup_str(pm_arena *a, const char *s)
{
    return s == NULL ? NULL : pm_arena_strndup(a, s, strlen(s));
}

/* Copies `e` into items[*count] (grown), with what it points to in m's arena. */
static int add_index_to(pm_commit_messages *m, pm_index_manifest_entry **items, size_t *count,
                        size_t *cap, const pm_index_manifest_entry *e)
{
    pm_index_manifest_entry *d;
    if (grow((void **)items, cap, *count, sizeof(**items)) != 0)
        return PAIMON_ENOMEM;
    d = &(*items)[*count];
    *d = *e;
    d->version = PM_INDEX_MANIFEST_VERSION;
    d->has_global_index = false; /* global indexes are not written by this library */
    memset(&d->global_index, 0, sizeof(d->global_index));
    d->partition.ptr = pm_arena_dup(&m->arena, e->partition.ptr, e->partition.len);
    d->index_type = dup_str(&m->arena, e->index_type);
    d->file_name = dup_str(&m->arena, e->file_name);
    d->external_path = dup_str(&m->arena, e->external_path);
    if (d->partition.ptr == NULL || d->index_type == NULL || d->file_name == NULL ||
        (e->external_path != NULL && d->external_path == NULL))
        return PAIMON_ENOMEM;
    if (e->dv_ranges.count > 0) {
        const pm_dv_range *src = e->dv_ranges.items;
        pm_dv_range *r = pm_arena_alloc(&m->arena, e->dv_ranges.count * sizeof(*r));
        if (r == NULL)
            return PAIMON_ENOMEM;
        for (size_t i = 0; i < e->dv_ranges.count; i++) {
            r[i] = src[i];
            if ((r[i].data_file = dup_str(&m->arena, src[i].data_file)) == NULL)
                return PAIMON_ENOMEM;
        }
        d->dv_ranges.items = r;
    }
    (*count)++;
    return 0;
}

int pm_commit_messages_add_index(pm_commit_messages *m, const pm_index_manifest_entry *e)
{
    return add_index_to(m, &m->index, &m->index_count, &m->index_cap, e);
}

int pm_commit_messages_add_compact_index(pm_commit_messages *m, const pm_index_manifest_entry *e)
{
    return add_index_to(m, &m->compact_index, &m->compact_index_count, &m->compact_index_cap, e);
}

int pm_commit_messages_append(pm_commit_messages *dst, const pm_commit_messages *src)
{
    for (size_t i = 0; i < src->data_count; i++)
        if (pm_commit_messages_add_data(dst, &src->data[i]) != 0)
            return PAIMON_ENOMEM;
    for (size_t i = 0; i < src->changelog_count; i++)
        if (pm_commit_messages_add_changelog(dst, &src->changelog[i]) != 0)
            return PAIMON_ENOMEM;
    for (size_t i = 0; i < src->index_count; i++)
        if (pm_commit_messages_add_index(dst, &src->index[i]) != 0)
            return PAIMON_ENOMEM;
    for (size_t i = 0; i < src->compact_count; i++)
        if (pm_commit_messages_add_compact(dst, &src->compact[i]) != 0)
            return PAIMON_ENOMEM;
    for (size_t i = 0; i < src->compact_changelog_count; i++)
        if (pm_commit_messages_add_compact_changelog(dst, &src->compact_changelog[i]) != 0)
            return PAIMON_ENOMEM;
    for (size_t i = 0; i < src->compact_index_count; i++)
        if (pm_commit_messages_add_compact_index(dst, &src->compact_index[i]) != 0)
            return PAIMON_ENOMEM;
    if (src->has_watermark && (!dst->has_watermark || src->watermark > dst->watermark)) {
        dst->has_watermark = true;
        dst->watermark = src->watermark;
    }
    return 0;
}
