/*
 * A decoder of PostgreSQL's pgoutput logical replication messages, protocol version 1
 * (PostgreSQL docs, "Logical Replication Message Formats"): the payload of one XLogData
 * message of a START_REPLICATION ... LOGICAL stream with proto_version '1'.
 *
 *   message  first byte  body (integers big-endian; String = bytes up to a NUL)
 *   Begin    'B'         Int64 final LSN, Int64 commit time, Int32 xid
 *   Commit   'C'         Int8 flags (0), Int64 commit LSN, Int64 end LSN, Int64 commit time
 *   Origin   'O'         Int64 origin LSN, String name
 *   Relation 'R'         Int32 oid, String namespace, String name, Int8 replica identity,
 *                        Int16 n, n x (Int8 flags (1: key), String name, Int32 type oid,
 *                        Int32 type modifier)
 *   Type     'Y'         Int32 oid, String namespace, String name
 *   Insert   'I'         Int32 oid, 'N', TupleData
 *   Update   'U'         Int32 oid, optional ('K' | 'O', TupleData), 'N', TupleData
 *   Delete   'D'         Int32 oid, 'K' | 'O', TupleData
 *   Truncate 'T'         Int32 n, Int8 options (1: CASCADE, 2: RESTART IDENTITY), n x Int32 oid
 *   Message  'M'         Int8 flags, Int64 LSN, String prefix, Int32 len, len bytes
 *   TupleData            Int16 n, n x ('n' null | 'u' unchanged TOASTed value |
 *                        't' Int32 len, len bytes of the value's text form)
 *
 * The bytes come from the network and are untrusted: every length is checked against
 * what remains before it is used, counts are checked before anything is allocated for
 * them, and a malformed message is PAIMON_ECORRUPT naming the message kind and the offset,
 * never a crash (tests/fuzz/fuzz_pgoutput.c).  Decoded strings and values point into the
 * caller's buffer (borrowed: valid while it is); the arrays live in the decoder and are
 * reused by the next message.
 */
#ifndef PM_CDC_PGOUTPUT_H
#define PM_CDC_PGOUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "paimon.h"

typedef struct pm_pgo_value {
    char kind;       /* 'n' null, 'u' unchanged TOASTed value (not sent), 't' text */
    const char *ptr; /* 't': the text, not NUL-terminated; borrowed from the message */
    uint32_t len;
} pm_pgo_value;

typedef struct pm_pgo_tuple {
    uint16_t count;
    pm_pgo_value *values; /* owned by the decoder */
} pm_pgo_tuple;

typedef struct pm_pgo_column {
    bool key;          /* part of the replica identity (the primary key by default) */
    const char *name;  /* borrowed from the message */
    uint32_t type_oid; /* pg_type oid */
    int32_t typmod;    /* atttypmod; -1 when none */
} pm_pgo_column;

typedef struct pm_pgo_msg {
    char kind;              /* 'B', 'C', 'O', 'R', 'Y', 'I', 'U', 'D', 'T', 'M' */
    uint64_t lsn;           /* B: the final (commit) LSN; C: the commit LSN; O, M: LSN */
    uint64_t end_lsn;       /* C: the end of the commit record */
    int64_t time_us;        /* B, C: commit time, microseconds since 2000-01-01 */
    uint32_t xid;           /* B */
    uint32_t rel;           /* R, Y, I, U, D: the relation (or type) oid */
    const char *nspname;    /* R, Y: namespace; borrowed */
    const char *relname;    /* R, Y: name; O: origin name; M: prefix; borrowed */
    char replica_identity;  /* R: 'd' default, 'n' nothing, 'f' full, 'i' index */
    uint16_t column_count;  /* R */
    pm_pgo_column *columns; /* R; owned by the decoder */
    char old_kind;          /* U, D: 'K' (key columns only), 'O' (the whole old row), or 0 */
    pm_pgo_tuple old_tuple; /* U, D when old_kind != 0 */
    pm_pgo_tuple new_tuple; /* I, U */
    uint8_t truncate_options;
    uint32_t truncate_count; /* T */
    uint32_t *truncate_rels; /* T; owned by the decoder */
} pm_pgo_msg;

/* Reusable storage of decoded messages. */
typedef struct pm_pgo_decoder {
    pm_pgo_column *columns;
    size_t columns_cap;
    pm_pgo_value *values[2];
    size_t values_cap[2];
    uint32_t *rels;
    size_t rels_cap;
} pm_pgo_decoder;

void pm_pgo_decoder_free(pm_pgo_decoder *d);

/* Decodes the message in buf[0..len) into *msg.  0, PAIMON_ECORRUPT for a malformed
 * message (the message names its kind and offset), PAIMON_EUNSUPPORTED for a message kind
 * protocol version 1 does not have, or PAIMON_ENOMEM. */
PM_MUST_CHECK int pm_pgo_decode(pm_pgo_decoder *d, const uint8_t *buf, size_t len, pm_pgo_msg *msg,
                                paimon_error *err);

#endif /* PM_CDC_PGOUTPUT_H */
