/*
 * The pgoutput decoder (pgoutput.h has the message formats).  A cursor over the message
 * checks every read against what remains; the first failure records the offset and every
 * later read fails, so a decoding function checks once at its end.
 */
#include <stdlib.h>
#include <string.h>

#include "cdc_util.h"
#include "pgoutput.h"

typedef struct cursor {
    const uint8_t *p;
    size_t len;
    size_t off;
    bool bad;       /* a read ran past the end, or a string had no NUL */
    size_t bad_off; /* where */
} cursor;

static void fail(cursor *c)
{
    if (!c->bad) {
        c->bad = true;
        c->bad_off = c->off;
    }
}

static bool need(cursor *c, size_t n)
{
    if (c->bad || c->len - c->off < n) {
        fail(c);
        return false;
    }
    return true;
}

static uint8_t u8(cursor *c)
{
    if (!need(c, 1))
        return 0;
    return c->p[c->off++];
}

static uint16_t u16(cursor *c)
{
    uint16_t v;
    if (!need(c, 2))
        return 0;
    v = (uint16_t)((c->p[c->off] << 8) | c->p[c->off + 1]);
    c->off += 2;
    return v;
}

static uint32_t u32(cursor *c)
{
    uint32_t v = 0;
    if (!need(c, 4))
        return 0;
    for (int i = 0; i < 4; i++)
        v = (v << 8) | c->p[c->off + i];
    c->off += 4;
    return v;
}

static uint64_t u64(cursor *c)
{
    uint64_t hi = u32(c);
    return (hi << 32) | u32(c);
}

/* A NUL-terminated string inside the message. */
static const char *str(cursor *c)
{
    const uint8_t *nul;
    const char *s;
    if (c->bad)
        return "";
    nul = memchr(c->p + c->off, 0, c->len - c->off);
    if (nul == NULL) {
        fail(c);
        return "";
    }
    s = (const char *)(c->p + c->off);
    c->off = (size_t)(nul - c->p) + 1;
    return s;
}

/* Grows *arr to hold n items of `size`, after checking that the message can hold n items
 * of at least `min_bytes` each (so a forged count allocates nothing big). */
static int reserve(cursor *c, void **arr, size_t *cap, size_t n, size_t size, size_t min_bytes)
{
    void *grown;
    if (n > (c->len - c->off) / min_bytes) {
        fail(c);
        return PAIMON_ECORRUPT;
    }
    if (n <= *cap)
        return 0;
    if ((grown = realloc(*arr, n * size)) == NULL)
        return PAIMON_ENOMEM;
    *arr = grown;
    *cap = n;
    return 0;
}

static int tuple(pm_pgo_decoder *d, int which, cursor *c, pm_pgo_tuple *t)
{
    uint16_t n = u16(c);
    int rc;
    if (c->bad)
        return PAIMON_ECORRUPT;
    if ((rc = reserve(c, (void **)&d->values[which], &d->values_cap[which], n, sizeof(pm_pgo_value),
                      1)) != 0)
        return rc;
    t->count = n;
    t->values = d->values[which];
    for (uint16_t i = 0; i < n && !c->bad; i++) {
        pm_pgo_value *v = &t->values[i];
        v->kind = (char)u8(c);
        v->ptr = NULL;
        v->len = 0;
        if (v->kind == 't') {
            v->len = u32(c);
            if (need(c, v->len)) {
                v->ptr = (const char *)(c->p + c->off);
                c->off += v->len;
            }
        } else if (v->kind != 'n' && v->kind != 'u') {
            c->off--;
            fail(c);
        }
    }
    return c->bad ? PAIMON_ECORRUPT : 0;
}

static int relation(pm_pgo_decoder *d, cursor *c, pm_pgo_msg *m)
{
    int rc;
    m->rel = u32(c);
    m->nspname = str(c);
    m->relname = str(c);
    m->replica_identity = (char)u8(c);
    m->column_count = u16(c);
    if (c->bad)
        return PAIMON_ECORRUPT;
    /* each column takes at least 10 bytes: flags, an empty name's NUL, oid, typmod */
    if ((rc = reserve(c, (void **)&d->columns, &d->columns_cap, m->column_count,
                      sizeof(pm_pgo_column), 10)) != 0)
        return rc;
    m->columns = d->columns;
    for (uint16_t i = 0; i < m->column_count && !c->bad; i++) {
        pm_pgo_column *col = &m->columns[i];
        col->key = (u8(c) & 1) != 0;
        col->name = str(c);
        col->type_oid = u32(c);
        col->typmod = (int32_t)u32(c);
    }
    return c->bad ? PAIMON_ECORRUPT : 0;
}

void pm_pgo_decoder_free(pm_pgo_decoder *d)
{
    free(d->columns);
    free(d->values[0]);
    free(d->values[1]);
    free(d->rels);
    memset(d, 0, sizeof(*d));
}

int pm_pgo_decode(pm_pgo_decoder *d, const uint8_t *buf, size_t len, pm_pgo_msg *m,
                  paimon_error *err)
{
    cursor c = {buf, len, 0, false, 0};
    int rc = 0;
    memset(m, 0, sizeof(*m));
    if (len == 0)
        return pm_cdc_err(err, PAIMON_ECORRUPT, "pgoutput: empty message");
    m->kind = (char)u8(&c);
    switch (m->kind) {
    case 'B':
        m->lsn = u64(&c);
        m->time_us = (int64_t)u64(&c);
        m->xid = u32(&c);
        break;
    case 'C':
        (void)u8(&c); /* flags, unused (0) */
        m->lsn = u64(&c);
        m->end_lsn = u64(&c);
        m->time_us = (int64_t)u64(&c);
        break;
    case 'O':
        m->lsn = u64(&c);
        m->relname = str(&c);
        break;
    case 'R': rc = relation(d, &c, m); break;
    case 'Y':
        m->rel = u32(&c);
        m->nspname = str(&c);
        m->relname = str(&c);
        break;
    case 'I':
        m->rel = u32(&c);
        if (u8(&c) != 'N' && !c.bad) {
            c.off--;
            fail(&c);
        }
        if (!c.bad)
            rc = tuple(d, 1, &c, &m->new_tuple);
        break;
    case 'U':
    case 'D': {
        uint8_t t;
        m->rel = u32(&c);
        t = u8(&c);
        if (!c.bad && (t == 'K' || t == 'O')) {
            m->old_kind = (char)t;
            if ((rc = tuple(d, 0, &c, &m->old_tuple)) != 0)
                break;
            if (m->kind == 'U')
                t = u8(&c);
        }
        if (c.bad)
            break;
        if (m->kind == 'D') {
            if (m->old_kind == 0) {
                c.off--;
                fail(&c);
            }
            break;
        }
        if (t != 'N') {
            c.off--;
            fail(&c);
            break;
        }
        rc = tuple(d, 1, &c, &m->new_tuple);
        break;
    }
    case 'T':
        m->truncate_count = u32(&c);
        m->truncate_options = u8(&c);
        if (c.bad)
            break;
        if ((rc = reserve(&c, (void **)&d->rels, &d->rels_cap, m->truncate_count, sizeof(uint32_t),
                          4)) != 0)
            break;
        m->truncate_rels = d->rels;
        for (uint32_t i = 0; i < m->truncate_count && !c.bad; i++)
            m->truncate_rels[i] = u32(&c);
        break;
    case 'M': {
        uint32_t n;
        (void)u8(&c);
        m->lsn = u64(&c);
        m->relname = str(&c);
        n = u32(&c);
        if (need(&c, n))
            c.off += n;
        break;
    }
    default:
        return pm_cdc_err(err, PAIMON_EUNSUPPORTED,
                          "pgoutput: message kind 0x%02x is not one of protocol version 1",
                          (unsigned)(uint8_t)m->kind);
    }
    if (rc == PAIMON_ENOMEM)
        return pm_cdc_err(err, rc, "pgoutput: out of memory");
    if (c.bad || rc != 0)
        return pm_cdc_err(err, PAIMON_ECORRUPT,
                          "pgoutput: malformed '%c' message of %zu bytes at offset %zu", m->kind,
                          len, c.bad_off);
    if (c.off != len)
        return pm_cdc_err(err, PAIMON_ECORRUPT,
                          "pgoutput: '%c' message has %zu bytes after its end at offset %zu",
                          m->kind, len - c.off, c.off);
    return 0;
}
