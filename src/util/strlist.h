/* A growable list of owned strings (directory listings, key lists). */
#ifndef PM_UTIL_STRLIST_H
#define PM_UTIL_STRLIST_H

#include <stddef.h>

typedef struct pm_strlist {
    char **items; /* owned strings, each from pm_malloc */
    size_t count; /* items in use */
    size_t cap;   /* slots allocated */
} pm_strlist;

void pm_strlist_init(pm_strlist *l);
void pm_strlist_free(pm_strlist *l);
/* Copies `s` (`len` bytes) into the list.  0 or PAIMON_ENOMEM. */
int pm_strlist_push(pm_strlist *l, const char *s);
int pm_strlist_pushn(pm_strlist *l, const char *s, size_t len);
/* Sorts by strcmp (byte order). */
void pm_strlist_sort(pm_strlist *l);
/* Index of `s`, or -1. */
long pm_strlist_find(const pm_strlist *l, const char *s);

#endif /* PM_UTIL_STRLIST_H */
