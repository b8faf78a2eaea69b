/*
 * A bump allocator for data that dies together: one decoded manifest, one batch.  Never use
 * it for objects with lifetimes of their own (STYLE.md).
 *
 * Memory comes in chunks of at least `chunk_size`; allocations are 16-byte aligned (as
 * __int128 needs).  Blocks allocated elsewhere with pm_malloc (a decompressed Avro block whose
 * strings the decoded records point into) can be handed over with pm_arena_adopt() and die
 * with the arena.
 *
 * Thread safety: none; one thread per arena.
 */
#ifndef PM_UTIL_ARENA_H
#define PM_UTIL_ARENA_H

#include <stddef.h>

typedef struct pm_arena_chunk pm_arena_chunk;

typedef struct pm_arena {
    pm_arena_chunk *head;    /* newest chunk first; allocation happens in head */
    pm_arena_chunk *adopted; /* blocks handed over with pm_arena_adopt() */
    size_t chunk_size;       /* minimum size of a new chunk */
    size_t bytes;            /* total bytes held (chunks and adopted blocks) */
} pm_arena;

void pm_arena_init(pm_arena *a, size_t chunk_size);
void pm_arena_free(pm_arena *a);

/* Forgets every allocation but keeps the newest chunk for reuse (adopted blocks are
 * freed): a per-record scratch arena costs no allocation once warm. */
void pm_arena_reset(pm_arena *a);

/* NULL on allocation failure.  Zero-sized requests return a valid unique pointer. */
void *pm_arena_alloc(pm_arena *a, size_t size);
void *pm_arena_calloc(pm_arena *a, size_t count, size_t size);
void *pm_arena_dup(pm_arena *a, const void *data, size_t len);
char *pm_arena_strndup(pm_arena *a, const char *s, size_t len);

/* Takes ownership of `block` (from pm_malloc), also on failure; 0 or PAIMON_ENOMEM. */
int pm_arena_adopt(pm_arena *a, void *block, size_t len);

/* Moves everything `src` holds into `dst` (pointers into it stay valid) and leaves `src`
 * empty: threads decode into arenas of their own and hand the results to one owner. */
void pm_arena_absorb(pm_arena *dst, pm_arena *src);

#endif /* PM_UTIL_ARENA_H */
