/*
 * The list of tags (include/paimon/maintenance.h paimon_table_tags), with what Java's
 * TagsTable shows of each: name, snapshot id, schema id, commit time, record count,
 * create time and retention (Duration.toString()).  The $tags system table
 * (system_tags.c) and `paimon inspect TABLE tags` read it.
 */
#include <string.h>

#include "table/inspect.h"
#include "table/tag.h"
#include "table/tag_list.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/json.h"

static const char *keep(paimon_list *l, const char *s, bool *failed)
{
    char *c = pm_arena_strndup(&l->arena, s, strlen(s));
    if (c == NULL)
        *failed = true;
    return c;
}

int pm_inspect_tags(paimon_table *t, paimon_list **out, paimon_error *err)
{
    pm_tag **tags = NULL;
    size_t n = 0;
    paimon_list *l = NULL;
    paimon_tag_info *items;
    bool failed = false;
    int rc = 0;

    *out = NULL;
    PM_TRY(pm_tag_read_all(t->fs, t->path, &tags, &n, err));
    if ((l = pm_calloc(1, sizeof(*l))) == NULL)
        PM_TRY(pm_nomem(err));
    l->kind = PM_LIST_TAGS;
    pm_arena_init(&l->arena, 1 << 14);
    if ((l->items = pm_arena_calloc(&l->arena, n + 1, sizeof(paimon_tag_info))) == NULL)
        PM_TRY(pm_nomem(err));
    items = l->items;
    for (size_t i = 0; i < n && !failed; i++) {
        const pm_snapshot *s = tags[i]->snapshot;
        paimon_tag_info *x = &items[i];
        int64_t ms;
        pm_buf b;
        x->name = keep(l, tags[i]->name, &failed);
        x->snapshot_id = s->id;
        x->schema_id = s->schema_id;
        x->commit_time = s->time_millis;
        x->record_count = s->total_record_count;
        x->has_create_time = pm_tag_create_time_ms(tags[i], &x->create_time);
        if (pm_tag_time_retained_ms(tags[i], &ms)) {
            char text[64];
            pm_tag_duration_string(ms, text, sizeof(text));
            x->time_retained = keep(l, text, &failed);
        }
        pm_buf_init(&b, 0);
        if (s->json == NULL || pm_json_write_compact(&b, s->json) != 0)
            failed = true;
        else
            x->json = keep(l, pm_buf_cstr(&b), &failed);
        pm_buf_free(&b);
    }
    if (failed)
        PM_TRY(pm_nomem(err));
    l->count = n;
    *out = l;
    l = NULL;
done:
    pm_list_free(l);
    pm_tag_free_all(tags, n);
    return rc;
}
