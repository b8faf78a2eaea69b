/*
 * A text description of an ORC file's layout: what `paimon file meta` prints for ORC, and
 * what the structure tests compare between files paimon-c writes and Java-written ones.
 * One fact per line, stable order:
 *
 *   format orc
 *   file FILE_VERSION writer WRITER software VERSION calendar CALENDAR writer_version N
 *   compression KIND block BYTES
 *   rows N stripes N row_index_stride N
 *   type COLUMN DEPTH NAME KIND [ATTRIBUTES]
 *   stripe I offset O rows N index BYTES data BYTES footer BYTES timezone ZONE
 *     stream COLUMN KIND BYTES
 *     encoding COLUMN KIND [dictionary N]
 *     row_index COLUMN ENTRY positions P,Q,... STATS
 *   stats file|stripe I COLUMN STATS
 */
#include "format/orc/orc_describe.h"

#include <inttypes.h>
#include <string.h>

static int stats_text(pm_buf *out, const pm_orc_stats *s, bool with_bytes)
{
    int rc = 0;
    if (s->has & PM_OS_VALUES)
        rc = pm_buf_printf(out, " values %" PRIu64, s->number_of_values);
    if (rc == 0 && (s->has & PM_OS_HAS_NULL))
        rc = pm_buf_printf(out, " has_null %s", s->has_null ? "true" : "false");
    if (rc == 0 && with_bytes && (s->has & PM_OS_BYTES))
        rc = pm_buf_printf(out, " bytes_on_disk %" PRIu64, s->bytes_on_disk);
    if (rc != 0)
        return rc;
    switch (s->kind) {
    case PM_OSK_INT:
    case PM_OSK_DATE:
        rc = pm_buf_puts(out, s->kind == PM_OSK_INT ? " int" : " date");
        if (rc == 0 && (s->has & PM_OS_MIN))
            rc = pm_buf_printf(out, " min %" PRId64, s->i_min);
        if (rc == 0 && (s->has & PM_OS_MAX))
            rc = pm_buf_printf(out, " max %" PRId64, s->i_max);
        if (rc == 0 && (s->has & PM_OS_SUM))
            rc = pm_buf_printf(out, " sum %" PRId64, s->i_sum);
        break;
    case PM_OSK_DOUBLE:
        rc = pm_buf_puts(out, " double");
        if (rc == 0 && (s->has & PM_OS_MIN))
            rc = pm_buf_printf(out, " min %.17g", s->d_min);
        if (rc == 0 && (s->has & PM_OS_MAX))
            rc = pm_buf_printf(out, " max %.17g", s->d_max);
        if (rc == 0 && (s->has & PM_OS_SUM))
            rc = pm_buf_printf(out, " sum %.17g", s->d_sum);
        break;
    case PM_OSK_STRING:
    case PM_OSK_DECIMAL:
        rc = pm_buf_puts(out, s->kind == PM_OSK_STRING ? " string" : " decimal");
        if (rc == 0 && (s->has & PM_OS_MIN))
            rc = pm_buf_printf(out, " min \"%.*s\"", (int)s->s_min.len, (const char *)s->s_min.ptr);
        if (rc == 0 && (s->has & PM_OS_MAX))
            rc = pm_buf_printf(out, " max \"%.*s\"", (int)s->s_max.len, (const char *)s->s_max.ptr);
        if (rc == 0 && (s->has & PM_OS_LOWER))
            rc = pm_buf_printf(out, " lower \"%.*s\"", (int)s->s_lower.len,
                               (const char *)s->s_lower.ptr);
        if (rc == 0 && (s->has & PM_OS_UPPER))
            rc = pm_buf_printf(out, " upper \"%.*s\"", (int)s->s_upper.len,
                               (const char *)s->s_upper.ptr);
        if (rc == 0 && (s->has & PM_OS_SUM)) {
            if (s->kind == PM_OSK_STRING)
                rc = pm_buf_printf(out, " sum %" PRId64, s->i_sum);
            else
                rc = pm_buf_printf(out, " sum \"%.*s\"", (int)s->dec_sum.len,
                                   (const char *)s->dec_sum.ptr);
        }
        break;
    case PM_OSK_BINARY:
        rc = pm_buf_puts(out, " binary");
        if (rc == 0 && (s->has & PM_OS_SUM))
            rc = pm_buf_printf(out, " sum %" PRId64, s->i_sum);
        break;
    case PM_OSK_TIMESTAMP:
        rc = pm_buf_puts(out, " timestamp");
        if (rc == 0 && (s->has & PM_OS_MIN))
            rc = pm_buf_printf(out, " min %" PRId64, s->i_min);
        if (rc == 0 && (s->has & PM_OS_MAX))
            rc = pm_buf_printf(out, " max %" PRId64, s->i_max);
        if (rc == 0 && (s->has & PM_OS_MIN_UTC))
            rc = pm_buf_printf(out, " min_utc %" PRId64, s->ts_min_utc);
        if (rc == 0 && (s->has & PM_OS_MAX_UTC))
            rc = pm_buf_printf(out, " max_utc %" PRId64, s->ts_max_utc);
        if (rc == 0 && (s->has & PM_OS_MIN_NANOS))
            rc = pm_buf_printf(out, " min_nanos %d", s->ts_min_nanos);
        if (rc == 0 && (s->has & PM_OS_MAX_NANOS))
            rc = pm_buf_printf(out, " max_nanos %d", s->ts_max_nanos);
        break;
    case PM_OSK_BUCKET:
        rc = pm_buf_puts(out, " bucket");
        for (size_t i = 0; i < s->bucket_count && rc == 0; i++)
            rc = pm_buf_printf(out, " %" PRIu64, s->buckets[i]);
        break;
    case PM_OSK_COLLECTION:
        rc = pm_buf_puts(out, " collection");
        if (rc == 0 && (s->has & PM_OS_MIN))
            rc = pm_buf_printf(out, " min %" PRIu64, s->coll_min);
        if (rc == 0 && (s->has & PM_OS_MAX))
            rc = pm_buf_printf(out, " max %" PRIu64, s->coll_max);
        if (rc == 0 && (s->has & PM_OS_COLL_TOTAL))
            rc = pm_buf_printf(out, " total %" PRIu64, s->coll_total);
        break;
    case PM_OSK_NONE: break;
    }
    return rc;
}

int pm_orc_stats_text(pm_buf *out, const pm_orc_stats *s, bool with_bytes)
{
    return stats_text(out, s, with_bytes);
}

static int type_text(pm_buf *out, const pm_orc_footer *f, uint32_t col, const char *name, int depth)
{
    const pm_orc_type *t = &f->types[col];
    int rc = pm_buf_printf(out, "type %u %d %s %s", col, depth, name, pm_orc_kind_name(t->kind));
    if (rc == 0 && t->kind == PM_ORC_DECIMAL)
        rc = pm_buf_printf(out, "(%u,%u)", t->precision, t->scale);
    if (rc == 0 && (t->kind == PM_ORC_VARCHAR || t->kind == PM_ORC_CHAR))
        rc = pm_buf_printf(out, "(%u)", t->max_length);
    for (size_t i = 0; i < t->attr_count && rc == 0; i++)
        rc = pm_buf_printf(out, " %s=%s", t->attrs[i].key, t->attrs[i].value);
    if (rc == 0)
        rc = pm_buf_putc(out, '\n');
    for (size_t i = 0; i < t->subtype_count && rc == 0; i++) {
        const char *child = t->kind == PM_ORC_STRUCT ? t->field_names[i]
                            : t->kind == PM_ORC_MAP  ? (i == 0 ? "(key)" : "(value)")
                                                     : "(element)";
        if (depth >= PM_ORC_MAX_DEPTH) /* pm_orc_check_types() bounds a file's tree */
            return PAIMON_ELIMIT;
        rc = type_text(out, f, t->subtypes[i], child, depth + 1);
    }
    return rc;
}

int pm_orc_describe(pm_orc_reader *r, const pm_orc_describe_options *o, pm_buf *out,
                    paimon_error *err)
{
    const pm_orc_postscript *ps = pm_orc_reader_postscript(r);
    const pm_orc_footer *f = pm_orc_reader_footer(r);
    const pm_orc_stripe_stats *ss = NULL;
    size_t nss = 0;
    bool bytes = o == NULL || o->bytes;
    int rc;

#define P(...)                                                                                     \
    do {                                                                                           \
        if ((rc = pm_buf_printf(out, __VA_ARGS__)) != 0)                                           \
            return pm_buf_error(err, rc);                                                          \
    } while (0)

    P("format orc\n");
    P("file %u.%u writer %u software %s calendar %u writer_version %u\n",
      ps->version_count > 0 ? ps->version[0] : 0, ps->version_count > 1 ? ps->version[1] : 0,
      f->writer, f->software_version != NULL ? f->software_version : "-", f->calendar,
      ps->writer_version);
    P("compression %s block %" PRIu64 "\n", pm_orc_compression_name(ps->compression),
      ps->compression_block_size);
    P("rows %" PRIu64 " stripes %zu row_index_stride %u\n", f->number_of_rows, f->stripe_count,
      f->row_index_stride);
    for (size_t i = 0; i < f->metadata_count; i++)
        P("metadata %s %zu bytes\n", f->metadata[i].name, f->metadata[i].value.len);
    if ((rc = type_text(out, f, 0, "(root)", 0)) != 0)
        return pm_buf_error(err, rc);
    if ((rc = pm_orc_reader_stripe_stats(r, &ss, &nss, err)) != 0)
        return rc;
    for (size_t s = 0; s < f->stripe_count; s++) {
        const pm_orc_stripe_info *si = &f->stripes[s];
        const pm_orc_stripe_footer *sf;
        if ((rc = pm_orc_reader_stripe_footer(r, s, &sf, err)) != 0)
            return rc;
        P("stripe %zu", s);
        if (bytes)
            P(" offset %" PRIu64, si->offset);
        P(" rows %" PRIu64, si->number_of_rows);
        if (bytes)
            P(" index %" PRIu64 " data %" PRIu64 " footer %" PRIu64, si->index_length,
              si->data_length, si->footer_length);
        P(" timezone %s\n", sf->writer_timezone != NULL ? sf->writer_timezone : "-");
        for (size_t k = 0; k < sf->stream_count; k++) {
            P("  stream %u %s", sf->streams[k].column,
              pm_orc_stream_kind_name(sf->streams[k].kind));
            if (bytes)
                P(" %" PRIu64, sf->streams[k].length);
            P("\n");
        }
        for (size_t c = 0; c < sf->encoding_count; c++) {
            P("  encoding %zu %s", c, pm_orc_encoding_name(sf->encodings[c].kind));
            if (sf->encodings[c].kind == PM_ORC_DICTIONARY ||
                sf->encodings[c].kind == PM_ORC_DICTIONARY_V2)
                P(" dictionary %u", sf->encodings[c].dictionary_size);
            P("\n");
        }
        if (o != NULL && o->row_indexes) {
            for (uint32_t c = 0; c < f->type_count; c++) {
                const pm_orc_row_index *ri;
                if ((rc = pm_orc_reader_row_index(r, s, c, &ri, err)) != 0)
                    return rc;
                for (size_t e = 0; ri != NULL && e < ri->entry_count; e++) {
                    const pm_orc_index_entry *ie = &ri->entries[e];
                    P("  row_index %u %zu positions", c, e);
                    for (size_t p = 0; p < ie->position_count; p++)
                        P("%s%" PRIu64, p == 0 ? " " : ",", ie->positions[p]);
                    if (ie->has_stats && (rc = stats_text(out, &ie->stats, bytes)) != 0)
                        return pm_buf_error(err, rc);
                    P("\n");
                }
            }
        }
        if (s < nss) {
            for (size_t c = 0; c < ss[s].column_count; c++) {
                P("stats stripe %zu %zu", s, c);
                if ((rc = stats_text(out, &ss[s].columns[c], bytes)) != 0)
                    return pm_buf_error(err, rc);
                P("\n");
            }
        }
    }
    for (size_t c = 0; c < f->statistics_count; c++) {
        P("stats file %zu", c);
        if ((rc = stats_text(out, &f->statistics[c], bytes)) != 0)
            return pm_buf_error(err, rc);
        P("\n");
    }
#undef P
    return 0;
}
