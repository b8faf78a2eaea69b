/*
 * Decoding the ORC metadata messages: see orc_meta.h.  Each decoder walks the message once
 * to count its repeated fields, allocates exactly, then walks it again to fill them.
 */
#include "format/orc/orc_meta.h"

#include <string.h>

#include "format/orc/orc_proto.h"

#define BAD(c)                                                                                     \
    pm_corrupt(err, "%s: malformed ORC %s at offset %llu", path, what,                             \
               (unsigned long long)pm_pb_offset(c))

static char *dup_str(pm_arena *a, const uint8_t *p, size_t len)
{
    return pm_arena_strndup(a, (const char *)p, len);
}

/* Counts occurrences of `field` (any wire type) in a message. */
static bool count_field(pm_pb c, uint32_t field, size_t *count)
{
    uint32_t f;
    int wire, r;
    *count = 0;
    while ((r = pm_pb_next(&c, &f, &wire)) == 1) {
        if (f == field)
            (*count)++;
        if (!pm_pb_skip(&c, wire))
            return false;
    }
    return r == 0;
}

/* Counts the values of a packed (or unpacked) repeated varint field. */
static bool count_packed(pm_pb c, uint32_t field, size_t *count)
{
    uint32_t f;
    int wire, r;
    *count = 0;
    while ((r = pm_pb_next(&c, &f, &wire)) == 1) {
        if (f == field && wire == PM_PB_LEN) {
            const uint8_t *d;
            size_t n;
            if (!pm_pb_bytes(&c, &d, &n))
                return false;
            /* every varint ends with a byte whose high bit is clear */
            for (size_t i = 0; i < n; i++)
                *count += (d[i] & 0x80) == 0;
        } else {
            if (f == field)
                (*count)++;
            if (!pm_pb_skip(&c, wire))
                return false;
        }
    }
    return r == 0;
}

/* Appends the values of one occurrence of a repeated varint field (packed or not). */
static bool read_packed(pm_pb *c, int wire, uint64_t *values, size_t cap, size_t *n)
{
    if (wire == PM_PB_VARINT) {
        if (*n >= cap || !pm_pb_varint(c, &values[*n]))
            return false;
        (*n)++;
        return true;
    }
    if (wire == PM_PB_LEN) {
        pm_pb sub;
        if (!pm_pb_sub(c, &sub))
            return false;
        while (sub.p < sub.end) {
            if (*n >= cap || !pm_pb_varint(&sub, &values[*n]))
                return false;
            (*n)++;
        }
        return true;
    }
    return false;
}

static bool get_u64(pm_pb *c, int wire, uint64_t *v)
{
    return wire == PM_PB_VARINT && pm_pb_varint(c, v);
}

static bool get_u32(pm_pb *c, int wire, uint32_t *v)
{
    uint64_t x;
    if (!get_u64(c, wire, &x) || x > UINT32_MAX)
        return false;
    *v = (uint32_t)x;
    return true;
}

static bool get_s64(pm_pb *c, int wire, int64_t *v)
{
    uint64_t x;
    if (!get_u64(c, wire, &x))
        return false;
    *v = pm_zigzag_decode(x);
    return true;
}

static bool get_bytes(pm_pb *c, int wire, pm_orc_bytes *b)
{
    return wire == PM_PB_LEN && pm_pb_bytes(c, &b->ptr, &b->len);
}

/* ---- ColumnStatistics ------------------------------------------------------------------ */

/* Reads one typed sub-message into `s` (fields numbered 1..6 inside it). */
static bool stats_sub(pm_pb *c, int kind, pm_orc_stats *s, pm_arena *arena)
{
    pm_pb m;
    uint32_t f;
    int wire, r;
    if (!pm_pb_sub(c, &m))
        return false;
    s->kind = (pm_orc_stats_kind)kind;
    while ((r = pm_pb_next(&m, &f, &wire)) == 1) {
        bool ok = true, known = true;
        switch (kind * 16 + (int)f) {
        case PM_OSK_INT * 16 + 1: ok = get_s64(&m, wire, &s->i_min), s->has |= PM_OS_MIN; break;
        case PM_OSK_INT * 16 + 2: ok = get_s64(&m, wire, &s->i_max), s->has |= PM_OS_MAX; break;
        case PM_OSK_INT * 16 + 3: ok = get_s64(&m, wire, &s->i_sum), s->has |= PM_OS_SUM; break;
        case PM_OSK_DOUBLE * 16 + 1:
        case PM_OSK_DOUBLE * 16 + 2:
        case PM_OSK_DOUBLE * 16 + 3: {
            double *slot = f == 1 ? &s->d_min : f == 2 ? &s->d_max : &s->d_sum;
            ok = wire == PM_PB_FIXED64 && pm_pb_double(&m, slot);
            s->has |= f == 1 ? PM_OS_MIN : f == 2 ? PM_OS_MAX : PM_OS_SUM;
            break;
        }
        case PM_OSK_STRING * 16 + 1:
            ok = get_bytes(&m, wire, &s->s_min), s->has |= PM_OS_MIN;
            break;
        case PM_OSK_STRING * 16 + 2:
            ok = get_bytes(&m, wire, &s->s_max), s->has |= PM_OS_MAX;
            break;
        case PM_OSK_STRING * 16 + 3: ok = get_s64(&m, wire, &s->i_sum), s->has |= PM_OS_SUM; break;
        case PM_OSK_STRING * 16 + 4:
            ok = get_bytes(&m, wire, &s->s_lower), s->has |= PM_OS_LOWER;
            break;
        case PM_OSK_STRING * 16 + 5:
            ok = get_bytes(&m, wire, &s->s_upper), s->has |= PM_OS_UPPER;
            break;
        case PM_OSK_BUCKET * 16 + 1: {
            size_t n = 0, cap;
            pm_pb whole = m;
            /* count over the rest of the sub-message, then read this occurrence */
            whole.p = m.start;
            if (!count_packed(whole, 1, &cap))
                return false;
            if (s->buckets == NULL) {
                s->buckets = pm_arena_calloc(arena, cap == 0 ? 1 : cap, sizeof(uint64_t));
                if (s->buckets == NULL)
                    return false;
                s->bucket_count = 0;
            }
            n = s->bucket_count;
            ok = read_packed(&m, wire, s->buckets, cap, &n);
            s->bucket_count = n;
            break;
        }
        case PM_OSK_DECIMAL * 16 + 1:
            ok = get_bytes(&m, wire, &s->s_min), s->has |= PM_OS_MIN;
            break;
        case PM_OSK_DECIMAL * 16 + 2:
            ok = get_bytes(&m, wire, &s->s_max), s->has |= PM_OS_MAX;
            break;
        case PM_OSK_DECIMAL * 16 + 3:
            ok = get_bytes(&m, wire, &s->dec_sum), s->has |= PM_OS_SUM;
            break;
        case PM_OSK_DATE * 16 + 1:
        case PM_OSK_DATE * 16 + 2: {
            int64_t v;
            ok = get_s64(&m, wire, &v) && v >= INT32_MIN && v <= INT32_MAX;
            if (f == 1)
                s->i_min = v, s->has |= PM_OS_MIN;
            else
                s->i_max = v, s->has |= PM_OS_MAX;
            break;
        }
        case PM_OSK_BINARY * 16 + 1: ok = get_s64(&m, wire, &s->i_sum), s->has |= PM_OS_SUM; break;
        case PM_OSK_TIMESTAMP * 16 + 1:
            ok = get_s64(&m, wire, &s->i_min), s->has |= PM_OS_MIN;
            break;
        case PM_OSK_TIMESTAMP * 16 + 2:
            ok = get_s64(&m, wire, &s->i_max), s->has |= PM_OS_MAX;
            break;
        case PM_OSK_TIMESTAMP * 16 + 3:
            ok = get_s64(&m, wire, &s->ts_min_utc), s->has |= PM_OS_MIN_UTC;
            break;
        case PM_OSK_TIMESTAMP * 16 + 4:
            ok = get_s64(&m, wire, &s->ts_max_utc), s->has |= PM_OS_MAX_UTC;
            break;
        case PM_OSK_TIMESTAMP * 16 + 5:
        case PM_OSK_TIMESTAMP * 16 + 6: {
            uint64_t v = 0;
            /* int32 fields: negative values are sign-extended to 10 bytes */
            ok = get_u64(&m, wire, &v);
            if (f == 5)
                s->ts_min_nanos = (int32_t)v, s->has |= PM_OS_MIN_NANOS;
            else
                s->ts_max_nanos = (int32_t)v, s->has |= PM_OS_MAX_NANOS;
            break;
        }
        case PM_OSK_COLLECTION * 16 + 1:
            ok = get_u64(&m, wire, &s->coll_min), s->has |= PM_OS_MIN;
            break;
        case PM_OSK_COLLECTION * 16 + 2:
            ok = get_u64(&m, wire, &s->coll_max), s->has |= PM_OS_MAX;
            break;
        case PM_OSK_COLLECTION * 16 + 3:
            ok = get_u64(&m, wire, &s->coll_total), s->has |= PM_OS_COLL_TOTAL;
            break;
        default: known = false; break;
        }
        if (!known)
            ok = pm_pb_skip(&m, wire);
        if (!ok)
            return false;
    }
    return r == 0;
}

static bool decode_stats(pm_pb *c, pm_orc_stats *s, pm_arena *arena)
{
    pm_pb m;
    uint32_t f;
    int wire, r;
    memset(s, 0, sizeof(*s));
    if (!pm_pb_sub(c, &m))
        return false;
    while ((r = pm_pb_next(&m, &f, &wire)) == 1) {
        bool ok;
        switch (f) {
        case 1: ok = get_u64(&m, wire, &s->number_of_values), s->has |= PM_OS_VALUES; break;
        case 2:
        case 3:
        case 4:
        case 5:
        case 6:
        case 7:
        case 8:
        case 9:
        case 12: ok = wire == PM_PB_LEN && stats_sub(&m, (int)f, s, arena); break;
        case 10: {
            uint64_t v = 0;
            ok = get_u64(&m, wire, &v);
            s->has_null = v != 0;
            s->has |= PM_OS_HAS_NULL;
            break;
        }
        case 11: ok = get_u64(&m, wire, &s->bytes_on_disk), s->has |= PM_OS_BYTES; break;
        default: ok = pm_pb_skip(&m, wire); break;
        }
        if (!ok)
            return false;
    }
    return r == 0;
}

/* ---- PostScript ------------------------------------------------------------------------ */

int pm_orc_decode_postscript(const uint8_t *data, size_t len, uint64_t off, const char *path,
                             pm_orc_postscript *ps, paimon_error *err)
{
    static const char what[] = "PostScript";
    pm_pb c = pm_pb_init(data, len, off);
    uint32_t f, v32;
    int wire, r;
    bool has_magic = false;

    memset(ps, 0, sizeof(*ps));
    while ((r = pm_pb_next(&c, &f, &wire)) == 1) {
        bool ok;
        switch (f) {
        case 1: ok = get_u64(&c, wire, &ps->footer_length); break;
        case 2:
            ok = get_u32(&c, wire, &v32);
            ps->compression = (pm_orc_compression)v32;
            break;
        case 3:
            ok = get_u64(&c, wire, &ps->compression_block_size);
            ps->has_compression_block_size = true;
            break;
        case 4: {
            uint64_t v[2];
            size_t n = ps->version_count;
            uint64_t tmp[16];
            size_t tn = 0;
            ok = read_packed(&c, wire, tmp, 16, &tn);
            for (size_t i = 0; ok && i < tn; i++, n++)
                if (n < 2)
                    v[n] = tmp[i], ps->version[n] = v[n] > UINT32_MAX ? UINT32_MAX : (uint32_t)v[n];
            ps->version_count = n < 2 ? n : 2;
            break;
        }
        case 5: ok = get_u64(&c, wire, &ps->metadata_length); break;
        case 6:
            ok = get_u32(&c, wire, &ps->writer_version);
            ps->has_writer_version = true;
            break;
        case 7: ok = get_u64(&c, wire, &ps->stripe_statistics_length); break;
        case 8000: {
            pm_orc_bytes m;
            ok = get_bytes(&c, wire, &m) && m.len == 3 && memcmp(m.ptr, "ORC", 3) == 0;
            has_magic = ok;
            break;
        }
        default: ok = pm_pb_skip(&c, wire); break;
        }
        if (!ok)
            return BAD(&c);
    }
    if (r != 0)
        return BAD(&c);
    if (!has_magic)
        return pm_corrupt(err, "%s: ORC PostScript at offset %llu has no \"ORC\" magic", path,
                          (unsigned long long)off);
    return 0;
}

/* ---- Footer ---------------------------------------------------------------------------- */

static bool decode_type(pm_pb *c, pm_orc_type *t, pm_arena *arena)
{
    pm_pb m;
    uint32_t f, v;
    int wire, r;
    size_t nsub, nnames, nattrs, isub = 0;
    uint64_t *tmp = NULL;

    memset(t, 0, sizeof(*t));
    if (!pm_pb_sub(c, &m))
        return false;
    if (!count_packed(m, 2, &nsub) || !count_field(m, 3, &nnames) || !count_field(m, 7, &nattrs))
        return false;
    if (nsub > 0) {
        tmp = pm_arena_alloc(arena, nsub * sizeof(uint64_t));
        t->subtypes = pm_arena_alloc(arena, nsub * sizeof(uint32_t));
        if (tmp == NULL || t->subtypes == NULL)
            return false;
    }
    if (nnames > 0 && (t->field_names = pm_arena_calloc(arena, nnames, sizeof(char *))) == NULL)
        return false;
    if (nattrs > 0 && (t->attrs = pm_arena_calloc(arena, nattrs, sizeof(pm_orc_attr))) == NULL)
        return false;
    while ((r = pm_pb_next(&m, &f, &wire)) == 1) {
        bool ok;
        switch (f) {
        case 1:
            ok = get_u32(&m, wire, &v) && v < PM_ORC_KIND_COUNT;
            t->kind = (pm_orc_kind)v;
            break;
        case 2: ok = read_packed(&m, wire, tmp, nsub, &isub); break;
        case 3: {
            pm_orc_bytes b;
            ok = get_bytes(&m, wire, &b) &&
                 (t->field_names[t->field_name_count++] = dup_str(arena, b.ptr, b.len)) != NULL;
            break;
        }
        case 4: ok = get_u32(&m, wire, &t->max_length), t->has_max_length = true; break;
        case 5: ok = get_u32(&m, wire, &t->precision), t->has_precision = true; break;
        case 6: ok = get_u32(&m, wire, &t->scale), t->has_scale = true; break;
        case 7: {
            pm_pb pair;
            uint32_t pf;
            int pw, pr;
            pm_orc_attr *a = &t->attrs[t->attr_count++];
            ok = wire == PM_PB_LEN && pm_pb_sub(&m, &pair);
            while (ok && (pr = pm_pb_next(&pair, &pf, &pw)) == 1) {
                pm_orc_bytes b;
                if (pf == 1 || pf == 2) {
                    char *s;
                    ok = get_bytes(&pair, pw, &b) && (s = dup_str(arena, b.ptr, b.len)) != NULL;
                    if (ok && pf == 1)
                        a->key = s;
                    else if (ok)
                        a->value = s;
                } else {
                    ok = pm_pb_skip(&pair, pw);
                }
            }
            ok = ok && pr == 0 && a->key != NULL && a->value != NULL;
            break;
        }
        default: ok = pm_pb_skip(&m, wire); break;
        }
        if (!ok)
            return false;
    }
    if (r != 0)
        return false;
    for (size_t i = 0; i < isub; i++) {
        if (tmp[i] > UINT32_MAX)
            return false;
        t->subtypes[i] = (uint32_t)tmp[i];
    }
    t->subtype_count = isub;
    return true;
}

static bool decode_stripe_info(pm_pb *c, pm_orc_stripe_info *s)
{
    pm_pb m;
    uint32_t f;
    int wire, r;
    memset(s, 0, sizeof(*s));
    if (!pm_pb_sub(c, &m))
        return false;
    while ((r = pm_pb_next(&m, &f, &wire)) == 1) {
        bool ok;
        switch (f) {
        case 1: ok = get_u64(&m, wire, &s->offset); break;
        case 2: ok = get_u64(&m, wire, &s->index_length); break;
        case 3: ok = get_u64(&m, wire, &s->data_length); break;
        case 4: ok = get_u64(&m, wire, &s->footer_length); break;
        case 5: ok = get_u64(&m, wire, &s->number_of_rows); break;
        default: ok = pm_pb_skip(&m, wire); break;
        }
        if (!ok)
            return false;
    }
    return r == 0;
}

/* Checks the type tree: children have larger ids than their parent (pre-order), each id is
 * the child of exactly one parent, struct names match the children, arities fit the kind. */
static int check_types(pm_orc_footer *f, const char *path, uint64_t off, paimon_error *err)
{
    if (f->type_count == 0)
        return pm_corrupt(err, "%s: ORC footer at offset %llu has no types", path,
                          (unsigned long long)off);
    if (f->types[0].kind != PM_ORC_STRUCT)
        return pm_corrupt(err, "%s: ORC root type is %s, not a struct", path,
                          pm_orc_kind_name(f->types[0].kind));
    for (size_t i = 0; i < f->type_count; i++)
        f->types[i].parent = UINT32_MAX;
    f->types[0].parent = 0;
    for (size_t i = 0; i < f->type_count; i++) {
        pm_orc_type *t = &f->types[i];
        size_t need;
        switch (t->kind) {
        case PM_ORC_LIST: need = 1; break;
        case PM_ORC_MAP: need = 2; break;
        case PM_ORC_STRUCT:
        case PM_ORC_UNION: need = t->subtype_count; break;
        default: need = 0; break;
        }
        if (t->subtype_count != need || (t->kind == PM_ORC_UNION && need == 0) ||
            (t->kind == PM_ORC_STRUCT && t->field_name_count != t->subtype_count))
            return pm_corrupt(err, "%s: ORC type %zu (%s) has %zu children and %zu names", path, i,
                              pm_orc_kind_name(t->kind), t->subtype_count, t->field_name_count);
        for (size_t k = 0; k < t->subtype_count; k++) {
            uint32_t c = t->subtypes[k];
            /* pre-order: the first child follows its parent, each next one follows the last */
            if (c <= i || c >= f->type_count || f->types[c].parent != UINT32_MAX ||
                (k > 0 && c <= t->subtypes[k - 1]))
                return pm_corrupt(err, "%s: ORC type %zu has a bad child id %u", path, i, c);
            f->types[c].parent = (uint32_t)i;
        }
    }
    for (size_t i = 1; i < f->type_count; i++)
        if (f->types[i].parent == UINT32_MAX)
            return pm_corrupt(err, "%s: ORC type %zu is nobody's child", path, i);
    return 0;
}

int pm_orc_decode_footer(const uint8_t *data, size_t len, uint64_t off, const char *path,
                         pm_arena *arena, pm_orc_footer *ft, paimon_error *err)
{
    static const char what[] = "footer";
    pm_pb c = pm_pb_init(data, len, off);
    size_t nstripes, ntypes, nmeta, nstats;
    uint32_t f;
    int wire, r;

    memset(ft, 0, sizeof(*ft));
    if (!count_field(c, 3, &nstripes) || !count_field(c, 4, &ntypes) ||
        !count_field(c, 5, &nmeta) || !count_field(c, 7, &nstats))
        return BAD(&c);
    ft->stripes = pm_arena_calloc(arena, nstripes + 1, sizeof(*ft->stripes));
    ft->types = pm_arena_calloc(arena, ntypes + 1, sizeof(*ft->types));
    ft->metadata = pm_arena_calloc(arena, nmeta + 1, sizeof(*ft->metadata));
    ft->statistics = pm_arena_calloc(arena, nstats + 1, sizeof(*ft->statistics));
    if (ft->stripes == NULL || ft->types == NULL || ft->metadata == NULL || ft->statistics == NULL)
        return pm_nomem(err);
    while ((r = pm_pb_next(&c, &f, &wire)) == 1) {
        bool ok;
        switch (f) {
        case 1: ok = get_u64(&c, wire, &ft->header_length); break;
        case 2: ok = get_u64(&c, wire, &ft->content_length); break;
        case 3:
            ok = wire == PM_PB_LEN && decode_stripe_info(&c, &ft->stripes[ft->stripe_count++]);
            break;
        case 4:
            ok = wire == PM_PB_LEN && decode_type(&c, &ft->types[ft->type_count++], arena);
            break;
        case 5: {
            pm_pb m;
            uint32_t mf;
            int mw, mr;
            pm_orc_user_meta *um = &ft->metadata[ft->metadata_count++];
            ok = wire == PM_PB_LEN && pm_pb_sub(&c, &m);
            while (ok && (mr = pm_pb_next(&m, &mf, &mw)) == 1) {
                pm_orc_bytes b;
                if (mf == 1)
                    ok = get_bytes(&m, mw, &b) && (um->name = dup_str(arena, b.ptr, b.len)) != NULL;
                else if (mf == 2)
                    ok = get_bytes(&m, mw, &um->value);
                else
                    ok = pm_pb_skip(&m, mw);
            }
            ok = ok && mr == 0 && um->name != NULL;
            break;
        }
        case 6: ok = get_u64(&c, wire, &ft->number_of_rows); break;
        case 7:
            ok = wire == PM_PB_LEN &&
                 decode_stats(&c, &ft->statistics[ft->statistics_count++], arena);
            break;
        case 8: ok = get_u32(&c, wire, &ft->row_index_stride); break;
        case 9: ok = get_u32(&c, wire, &ft->writer), ft->has_writer = true; break;
        case 10: ok = pm_pb_skip(&c, wire), ft->has_encryption = true; break;
        case 11: ok = get_u32(&c, wire, &ft->calendar), ft->has_calendar = true; break;
        case 12: {
            pm_orc_bytes b;
            ok = get_bytes(&c, wire, &b) &&
                 (ft->software_version = dup_str(arena, b.ptr, b.len)) != NULL;
            break;
        }
        default: ok = pm_pb_skip(&c, wire); break;
        }
        if (!ok)
            return BAD(&c);
    }
    if (r != 0)
        return BAD(&c);
    return check_types(ft, path, off, err);
}

/* ---- Metadata -------------------------------------------------------------------------- */

int pm_orc_decode_metadata(const uint8_t *data, size_t len, uint64_t off, const char *path,
                           pm_arena *arena, pm_orc_stripe_stats **out, size_t *count,
                           paimon_error *err)
{
    static const char what[] = "metadata";
    pm_pb c = pm_pb_init(data, len, off);
    pm_orc_stripe_stats *ss;
    size_t n, i = 0;
    uint32_t f;
    int wire, r;

    *out = NULL;
    *count = 0;
    if (!count_field(c, 1, &n))
        return BAD(&c);
    if ((ss = pm_arena_calloc(arena, n + 1, sizeof(*ss))) == NULL)
        return pm_nomem(err);
    while ((r = pm_pb_next(&c, &f, &wire)) == 1) {
        pm_pb m;
        size_t ncols;
        uint32_t mf;
        int mw, mr;
        if (f != 1) {
            if (!pm_pb_skip(&c, wire))
                return BAD(&c);
            continue;
        }
        if (wire != PM_PB_LEN || !pm_pb_sub(&c, &m) || !count_field(m, 1, &ncols))
            return BAD(&c);
        if ((ss[i].columns = pm_arena_calloc(arena, ncols + 1, sizeof(pm_orc_stats))) == NULL)
            return pm_nomem(err);
        while ((mr = pm_pb_next(&m, &mf, &mw)) == 1) {
            bool ok = mf == 1 ? mw == PM_PB_LEN &&
                                    decode_stats(&m, &ss[i].columns[ss[i].column_count++], arena)
                              : pm_pb_skip(&m, mw);
            if (!ok)
                return BAD(&m);
        }
        if (mr != 0)
            return BAD(&m);
        i++;
    }
    if (r != 0)
        return BAD(&c);
    *out = ss;
    *count = i;
    return 0;
}

/* ---- StripeFooter ---------------------------------------------------------------------- */

int pm_orc_decode_stripe_footer(const uint8_t *data, size_t len, uint64_t off, const char *path,
                                pm_arena *arena, pm_orc_stripe_footer *sf, paimon_error *err)
{
    static const char what[] = "stripe footer";
    pm_pb c = pm_pb_init(data, len, off);
    size_t nstreams, nenc;
    uint32_t f;
    int wire, r;
    uint64_t pos = 0;

    memset(sf, 0, sizeof(*sf));
    if (!count_field(c, 1, &nstreams) || !count_field(c, 2, &nenc))
        return BAD(&c);
    sf->streams = pm_arena_calloc(arena, nstreams + 1, sizeof(*sf->streams));
    sf->encodings = pm_arena_calloc(arena, nenc + 1, sizeof(*sf->encodings));
    if (sf->streams == NULL || sf->encodings == NULL)
        return pm_nomem(err);
    while ((r = pm_pb_next(&c, &f, &wire)) == 1) {
        pm_pb m;
        uint32_t mf, v = 0;
        int mw, mr = 0;
        bool ok = true;
        if (f == 1 || f == 2) {
            pm_orc_stream_info *s = f == 1 ? &sf->streams[sf->stream_count++] : NULL;
            pm_orc_encoding *e = f == 2 ? &sf->encodings[sf->encoding_count++] : NULL;
            if (wire != PM_PB_LEN || !pm_pb_sub(&c, &m))
                return BAD(&c);
            while (ok && (mr = pm_pb_next(&m, &mf, &mw)) == 1) {
                if (s != NULL && mf == 1)
                    ok = get_u32(&m, mw, &v), s->kind = (pm_orc_stream_kind)v;
                else if (s != NULL && mf == 2)
                    ok = get_u32(&m, mw, &s->column);
                else if (s != NULL && mf == 3)
                    ok = get_u64(&m, mw, &s->length);
                else if (e != NULL && mf == 1)
                    ok = get_u32(&m, mw, &v) && v <= PM_ORC_DICTIONARY_V2,
                    e->kind = (pm_orc_encoding_kind)v;
                else if (e != NULL && mf == 2)
                    ok = get_u32(&m, mw, &e->dictionary_size);
                else
                    ok = pm_pb_skip(&m, mw);
            }
            if (!ok || mr != 0)
                return BAD(&m);
            if (s != NULL) {
                s->offset = pos;
                if (__builtin_add_overflow(pos, s->length, &pos))
                    return BAD(&c);
            }
        } else if (f == 3) {
            pm_orc_bytes b;
            if (!get_bytes(&c, wire, &b) ||
                (sf->writer_timezone = dup_str(arena, b.ptr, b.len)) == NULL)
                return BAD(&c);
        } else {
            if (f == 4)
                sf->has_encryption = true;
            if (!pm_pb_skip(&c, wire))
                return BAD(&c);
        }
    }
    if (r != 0)
        return BAD(&c);
    return 0;
}

/* ---- RowIndex -------------------------------------------------------------------------- */

int pm_orc_decode_row_index(const uint8_t *data, size_t len, uint64_t off, const char *path,
                            pm_arena *arena, pm_orc_row_index *ri, paimon_error *err)
{
    static const char what[] = "row index";
    pm_pb c = pm_pb_init(data, len, off);
    size_t n;
    uint32_t f;
    int wire, r;

    memset(ri, 0, sizeof(*ri));
    if (!count_field(c, 1, &n))
        return BAD(&c);
    if ((ri->entries = pm_arena_calloc(arena, n + 1, sizeof(*ri->entries))) == NULL)
        return pm_nomem(err);
    while ((r = pm_pb_next(&c, &f, &wire)) == 1) {
        pm_pb m;
        pm_orc_index_entry *e;
        size_t np;
        uint32_t mf;
        int mw, mr;
        if (f != 1) {
            if (!pm_pb_skip(&c, wire))
                return BAD(&c);
            continue;
        }
        e = &ri->entries[ri->entry_count++];
        if (wire != PM_PB_LEN || !pm_pb_sub(&c, &m) || !count_packed(m, 1, &np))
            return BAD(&c);
        if ((e->positions = pm_arena_alloc(arena, (np + 1) * sizeof(uint64_t))) == NULL)
            return pm_nomem(err);
        while ((mr = pm_pb_next(&m, &mf, &mw)) == 1) {
            bool ok;
            if (mf == 1)
                ok = read_packed(&m, mw, e->positions, np, &e->position_count);
            else if (mf == 2)
                ok = mw == PM_PB_LEN && decode_stats(&m, &e->stats, arena), e->has_stats = true;
            else
                ok = pm_pb_skip(&m, mw);
            if (!ok)
                return BAD(&m);
        }
        if (mr != 0)
            return BAD(&m);
    }
    if (r != 0)
        return BAD(&c);
    return 0;
}

/* ---- names ----------------------------------------------------------------------------- */

const char *pm_orc_type_attr(const pm_orc_type *t, const char *key)
{
    for (size_t i = 0; i < t->attr_count; i++)
        if (strcmp(t->attrs[i].key, key) == 0)
            return t->attrs[i].value;
    return NULL;
}

const char *pm_orc_kind_name(pm_orc_kind kind)
{
    static const char *const names[PM_ORC_KIND_COUNT] = {"boolean",
                                                         "tinyint",
                                                         "smallint",
                                                         "int",
                                                         "bigint",
                                                         "float",
                                                         "double",
                                                         "string",
                                                         "binary",
                                                         "timestamp",
                                                         "array",
                                                         "map",
                                                         "struct",
                                                         "uniontype",
                                                         "decimal",
                                                         "date",
                                                         "varchar",
                                                         "char",
                                                         "timestamp with local time zone"};
    return (unsigned)kind < PM_ORC_KIND_COUNT ? names[kind] : "unknown";
}

const char *pm_orc_stream_kind_name(pm_orc_stream_kind kind)
{
    static const char *const names[] = {
        "PRESENT",       "DATA",      "LENGTH",       "DICTIONARY_DATA",   "DICTIONARY_COUNT",
        "SECONDARY",     "ROW_INDEX", "BLOOM_FILTER", "BLOOM_FILTER_UTF8", "ENCRYPTED_INDEX",
        "ENCRYPTED_DATA"};
    return (unsigned)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "UNKNOWN";
}

const char *pm_orc_encoding_name(pm_orc_encoding_kind kind)
{
    static const char *const names[] = {"DIRECT", "DICTIONARY", "DIRECT_V2", "DICTIONARY_V2"};
    return (unsigned)kind < 4 ? names[kind] : "UNKNOWN";
}

const char *pm_orc_compression_name(pm_orc_compression c)
{
    static const char *const names[] = {"NONE", "ZLIB", "SNAPPY", "LZO", "LZ4", "ZSTD"};
    return (unsigned)c < 6 ? names[c] : "UNKNOWN";
}
