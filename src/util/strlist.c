/* List of owned strings: see strlist.h. */
#include "util/strlist.h"

#include <stdlib.h>
#include <string.h>

#include "paimon/error.h"
#include "util/alloc.h"

void pm_strlist_init(pm_strlist *l)
{
    l->items = NULL;
    l->count = 0;
    l->cap = 0;
}

void pm_strlist_free(pm_strlist *l)
{
    for (size_t i = 0; i < l->count; i++)
        pm_free(l->items[i]);
    pm_free(l->items);
    pm_strlist_init(l);
}

int pm_strlist_pushn(pm_strlist *l, const char *s, size_t len)
{
    char *copy;
    if (l->count == l->cap) {
        size_t cap = l->cap == 0 ? 8 : l->cap * 2;
        char **grown = pm_realloc(l->items, cap * sizeof(*grown));
        if (grown == NULL)
            return PAIMON_ENOMEM;
        l->items = grown;
        l->cap = cap;
    }
    copy = pm_strndup(s, len);
    if (copy == NULL)
        return PAIMON_ENOMEM;
    l->items[l->count++] = copy;
    return 0;
}

int pm_strlist_push(pm_strlist *l, const char *s)
{
    return pm_strlist_pushn(l, s, strlen(s));
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void pm_strlist_sort(pm_strlist *l)
{
    if (l->count > 1)
        qsort(l->items, l->count, sizeof(char *), cmp_str);
}

long pm_strlist_find(const pm_strlist *l, const char *s)
{
    for (size_t i = 0; i < l->count; i++)
        if (strcmp(l->items[i], s) == 0)
            return (long)i;
    return -1;
}
