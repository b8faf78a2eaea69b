/*
 * Protocol Buffers wire format, by hand, for the ORC file tail (PostScript, Footer,
 * Metadata), stripe footers and row indexes (docs/format/orc.md; the messages are those of
 * apache/orc proto/orc_proto.proto, proto2).
 *
 * A message is a sequence of fields, each a key varint (field number << 3 | wire type)
 * followed by its value:
 *
 *   WIRE  NAME              VALUE
 *   0     varint            LEB128 (uint64; sint64 fields are zigzag)
 *   1     64-bit            8 bytes little-endian (double, fixed64)
 *   2     length-delimited  varint length, then that many bytes (strings, bytes,
 *                           sub-messages, packed repeated scalars)
 *   5     32-bit            4 bytes little-endian
 *
 * Reading is a bounded cursor: every function checks what remains and returns false
 * instead of reading past the end, so callers turn a false into PAIMON_ECORRUPT with the
 * file and offset.  Unknown fields are skipped, as protobuf requires.  Groups (wire types
 * 3 and 4) were never used by ORC and are malformed here.
 *
 * Messages are decoded by pm_pb_decode() from a table of field descriptors (pm_pb_msg), as
 * meta/manifest.c drives Avro records from one table: each row names a field number, how
 * its value is read, where it lands in the C struct and which presence flag it sets.
 */
#ifndef PM_FORMAT_ORC_PROTO_H
#define PM_FORMAT_ORC_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/varint.h"

#define PM_PB_VARINT  0
#define PM_PB_FIXED64 1
#define PM_PB_LEN     2
#define PM_PB_FIXED32 5

typedef struct pm_pb {
    const uint8_t *p;     /* next byte */
    const uint8_t *end;   /* one past the message */
    const uint8_t *start; /* for offsets in messages */
    uint64_t base_off;    /* offset of `start` in whatever the caller reports against */
} pm_pb;

static inline pm_pb pm_pb_init(const uint8_t *data, size_t len, uint64_t base_off)
{
    static const uint8_t none[1]; /* NULL + 0 is undefined: empty messages point here */
    const uint8_t *p = data ? data : none;
    pm_pb c = {p, p + len, p, base_off};
    return c;
}

static inline uint64_t pm_pb_offset(const pm_pb *c)
{
    return c->base_off + (uint64_t)(c->p - c->start);
}

static inline bool pm_pb_varint(pm_pb *c, uint64_t *v)
{
    size_t n = pm_uvarint_decode(c->p, c->end, v);
    if (n == 0)
        return false;
    c->p += n;
    return true;
}

/* Reads the next key.  Returns 1 with the field number and wire type, 0 at the end of the
 * message, -1 when the key is malformed. */
static inline int pm_pb_next(pm_pb *c, uint32_t *field, int *wire)
{
    uint64_t key;
    if (c->p >= c->end)
        return 0;
    if (!pm_pb_varint(c, &key) || (key >> 3) == 0 || (key >> 3) > 0x1fffffff)
        return -1;
    *field = (uint32_t)(key >> 3);
    *wire = (int)(key & 7);
    return 1;
}

/* A length-delimited value: a view into the message. */
static inline bool pm_pb_bytes(pm_pb *c, const uint8_t **data, size_t *len)
{
    uint64_t n;
    if (!pm_pb_varint(c, &n) || n > (uint64_t)(c->end - c->p))
        return false;
    *data = c->p;
    *len = (size_t)n;
    c->p += n;
    return true;
}

/* A sub-message as a cursor of its own (offsets stay relative to the outer base). */
static inline bool pm_pb_sub(pm_pb *c, pm_pb *sub)
{
    const uint8_t *data;
    size_t len;
    uint64_t off;
    if (!pm_pb_bytes(c, &data, &len))
        return false;
    off = c->base_off + (uint64_t)(data - c->start);
    *sub = pm_pb_init(data, len, off);
    return true;
}

static inline bool pm_pb_fixed64(pm_pb *c, uint64_t *v)
{
    uint64_t x = 0;
    if (c->end - c->p < 8)
        return false;
    for (int i = 7; i >= 0; i--)
        x = (x << 8) | c->p[i];
    c->p += 8;
    *v = x;
    return true;
}

/* Skips a value of wire type `wire`. */
bool pm_pb_skip(pm_pb *c, int wire);

/* Reads a double (wire type 1). */
bool pm_pb_double(pm_pb *c, double *v);

/* ---- decoding a message from a table of fields ------------------------------------------ */

/* A length-delimited value seen in place: borrowed from the decoded buffer. */
typedef struct pm_pb_view {
    const uint8_t *ptr; /* NULL when absent */
    size_t len;
} pm_pb_view;

/* How a field's value is read and stored.  Scalars take the last occurrence; a value of
 * another wire type than the kind's is malformed. */
typedef enum pm_pb_kind {
    PM_PBK_UINT64,  /* varint -> uint64_t */
    PM_PBK_UINT32,  /* varint up to `max` (0: UINT32_MAX) -> uint32_t, or a 4-byte enum */
    PM_PBK_BOOL,    /* varint -> bool (non-zero) */
    PM_PBK_SINT64,  /* zigzag varint -> int64_t */
    PM_PBK_SINT32,  /* zigzag varint in int32 range -> int64_t */
    PM_PBK_INT32,   /* int32 varint (negatives sign-extended to 10 bytes) -> int32_t */
    PM_PBK_DOUBLE,  /* 64-bit -> double */
    PM_PBK_BYTES,   /* length-delimited -> pm_pb_view */
    PM_PBK_STRING,  /* length-delimited -> char *, a NUL-terminated copy in the arena */
    PM_PBK_PRESENT, /* any value, skipped: only the presence flag says it was there */
    PM_PBK_MESSAGE, /* sub-message `sub` -> the struct at `off`, zeroed first */
    PM_PBK_MERGE,   /* sub-message `sub` whose fields are members of this same struct; the
                     * field number is stored in the uint32_t (or 4-byte enum) at `off` */
    PM_PBK_HOOK,    /* read by `hook` */
    /* Repeated: `off` holds the array pointer, `count_off` its size_t count.  The message is
     * counted before the array is allocated (count + 1 zeroed entries), so no array has more
     * entries than the message has bytes. */
    PM_PBK_PACKED64, /* varints, packed or one per occurrence -> uint64_t[] */
    PM_PBK_PACKED32, /* the same, each up to UINT32_MAX -> uint32_t[] */
    PM_PBK_STRINGS,  /* strings -> char *[] (arena copies) */
    PM_PBK_MESSAGES  /* sub-messages `sub` -> an array of sub->size structs */
} pm_pb_kind;

typedef struct pm_pb_msg pm_pb_msg;

typedef struct pm_pb_field {
    const char *name;     /* the .proto field name, for messages */
    uint32_t number;      /* field number */
    pm_pb_kind kind;      /* how the value is read and stored */
    bool required;        /* the message is malformed without it */
    size_t off;           /* offsetof the member (the array pointer when repeated) */
    long count_off;       /* repeated: offsetof the size_t count; -1 otherwise */
    long has_off;         /* offsetof the presence flag set when the field occurs; -1: none */
    uint32_t has_bit;     /* 0: the flag is a bool; else a bit or'ed into a uint32_t mask */
    uint64_t max;         /* UINT32: the largest value accepted; 0: UINT32_MAX */
    const pm_pb_msg *sub; /* MESSAGE, MERGE, MESSAGES */
    bool (*hook)(pm_pb *c, int wire, void *obj); /* HOOK: false when malformed */
} pm_pb_field;

#define PM_PB_MAX_FIELDS 32 /* descriptors per message (presence is tracked in a mask) */

struct pm_pb_msg {
    const char *name;          /* the .proto message name */
    size_t size;               /* sizeof the C struct */
    size_t field_count;        /* up to PM_PB_MAX_FIELDS */
    const pm_pb_field *fields; /* the fields decoded; others are skipped */
    /* Optional: checks the decoded struct (the message starts at file offset `off`);
     * returns 0, or an error set in `err` naming `path`. */
    int (*check)(void *obj, const char *path, uint64_t off, paimon_error *err);
};

/* Decodes the message `m` in data[0, len) (at file offset `off`) into `out` (m->size
 * bytes, zeroed first).  Strings and arrays are allocated in `arena`; bytes fields point
 * into `data`, which the caller keeps alive.  Sub-message descriptors form no cycle, so the
 * recursion is as deep as the tables, whatever the input.  Returns 0, PAIMON_ECORRUPT
 * ("PATH: malformed ORC WHAT at offset N (Message.field)", or the check's error) or
 * PAIMON_ENOMEM. */
PM_MUST_CHECK int pm_pb_decode(const pm_pb_msg *m, const uint8_t *data, size_t len, uint64_t off,
                               const char *path, const char *what, pm_arena *arena, void *out,
                               paimon_error *err);

/* ---- writing (append to a pm_buf; each returns a pm_buf code) --------------------------- */

int pm_pb_put_key(pm_buf *b, uint32_t field, int wire);
int pm_pb_put_uint(pm_buf *b, uint32_t field, uint64_t v);
int pm_pb_put_sint(pm_buf *b, uint32_t field, int64_t v); /* zigzag */
int pm_pb_put_bool(pm_buf *b, uint32_t field, bool v);
int pm_pb_put_double(pm_buf *b, uint32_t field, double v);
int pm_pb_put_bytes(pm_buf *b, uint32_t field, const void *data, size_t len);
int pm_pb_put_string(pm_buf *b, uint32_t field, const char *s);
/* A packed repeated uint field of `count` values (nothing when count is 0). */
int pm_pb_put_packed(pm_buf *b, uint32_t field, const uint64_t *values, size_t count);
int pm_pb_put_packed32(pm_buf *b, uint32_t field, const uint32_t *values, size_t count);

/* Sub-messages: write the body into a scratch buffer, then pm_pb_put_bytes() it. */

#endif /* PM_FORMAT_ORC_PROTO_H */
