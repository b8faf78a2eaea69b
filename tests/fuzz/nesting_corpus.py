#!/usr/bin/env python3
# Writes the hand-made nesting seeds of the fuzz corpora (issue 19, item 8): schema files,
# type strings, COLUMNS and expressions just past the bounds (json); JSON values and a
# Debezium envelope nested past 64 levels (input); Avro containers whose header schema
# refers to itself, expands past 2^20 nodes, nests past 260 nodes or 64 types
# (avro_container); Parquet footers of 64, 65, 130 and 2000 nested groups (parquet).
# The 64-deep data files nest-64-deep-columns.* were written by paimon-c itself
# (tests/cli/cases/write_deep_types.case's schema).  Usage: nesting_corpus.py tests/fuzz/corpus
import os, struct, sys, json
root = sys.argv[1]
def w(target, name, data):
    d = os.path.join(root, target); os.makedirs(d, exist_ok=True)
    if isinstance(data, str): data = data.encode()
    open(os.path.join(d, name), 'wb').write(data)

# ---- json target: schema files, type strings, COLUMNS, expressions
def schema(levels):
    t = '"INT"'
    for _ in range(levels): t = '{"type":"ARRAY","element":%s}' % t
    return '{"version":3,"id":0,"fields":[{"id":0,"name":"c","type":%s}],"highestFieldId":0,"partitionKeys":[],"primaryKeys":[],"options":{}}' % t
w('json', 'nest-schema-64', schema(64))
w('json', 'nest-schema-65', schema(65))
w('json', 'nest-type-array-65', 'ARRAY<' * 65 + 'INT' + '>' * 65)
w('json', 'nest-type-suffix-65', 'INT' + ' ARRAY' * 65)
w('json', 'nest-columns-row-65', 'id INT, r ' + 'ROW<a ' * 65 + 'INT' + '>' * 65)
w('json', 'nest-columns-row-empty', 'id INT, r ROW<>, `  ` INT')
w('json', 'nest-expr-parens-257', '(' * 257 + 'id = 1' + ')' * 257)
w('json', 'nest-expr-parens-20000', '(' * 20000 + 'id = 1' + ')' * 20000)
w('json', 'nest-expr-not-257', 'NOT ' * 257 + 'id = 1')
w('json', 'expr-keywords', "AND * OR IN (1) BETWEEN 1 AND 2 OR `in` = 1 AND ok IS NOT NULL AND name NOT IN ('a', 'b')")

# ---- input target: byte 0 = format (0 JSONL, 2 Debezium)
w('input', 'nest-jsonl-array-70', b'\x00' + ('{"a":' + '[' * 70 + '1' + ']' * 70 + '}\n').encode())
w('input', 'nest-jsonl-row-70', b'\x00' + ('{"r":' + '{"y":' * 70 + '1' + '}' * 70 + '}\n').encode())
w('input', 'nest-debezium-source-65', b'\x02' + ('{"op":"c","source":' + '[' * 65 + '1' + ']' * 65 + ',"after":{"i":1}}\n').encode())
w('input', 'nest-debezium-source-20000', b'\x02' + ('{"op":"c","source":' + '{"x":' * 20000 + '1' + '}' * 20000 + ',"after":{"i":1}}\n').encode())

# ---- avro containers with hostile schemas and no blocks
def zz(n): return (n << 1) ^ (n >> 63)
def varint(n):
    n = zz(n); out = b''
    while True:
        b = n & 0x7f; n >>= 7
        if n: out += bytes([b | 0x80])
        else: return out + bytes([b])
def avro_bytes(b): return varint(len(b)) + b
def container(schema_json):
    meta = varint(2) + avro_bytes(b'avro.schema') + avro_bytes(schema_json.encode()) + avro_bytes(b'avro.codec') + avro_bytes(b'null') + varint(0)
    sync = bytes(range(16))
    # one block of one record holding nothing readable: ends at the sync marker
    return b'Obj\x01' + meta + sync + varint(1) + varint(1) + b'\x00' + sync
w('avro_container', 'nest-recursive-record.avro', container('{"type":"record","name":"r","fields":[{"name":"n","type":["null","r"]}]}'))
dag = '{"type":"record","name":"top","fields":[{"name":"z","type":{"type":"record","name":"r0","fields":[]}}'
for i in range(1, 41):
    dag += ',{"name":"f%d","type":{"type":"record","name":"r%d","fields":[{"name":"a","type":"r%d"},{"name":"b","type":"r%d"}]}}' % (i, i, i - 1, i - 1)
dag += ']}'
w('avro_container', 'nest-expanding-references.avro', container(dag))
deep = '"int"'
for _ in range(131): deep = '["null",{"type":"array","items":%s}]' % deep
w('avro_container', 'nest-schema-131-arrays.avro', container('{"type":"record","name":"record","fields":[{"name":"c","type":%s}]}' % deep))
deep = '"int"'
for i in range(65): deep = '{"type":"record","name":"r%d","fields":[{"name":"a","type":%s}]}' % (i, deep)
w('avro_container', 'nest-records-65.avro', container('{"type":"record","name":"record","fields":[{"name":"c","type":%s}]}' % deep))

# ---- parquet footers: `levels` groups of one repetition around an INT32 leaf, no rows
def tc_field(delta, ftype): return bytes([(delta << 4) | ftype])
def tc_i32(n): return varint(n)
def tc_string(s): b = s.encode(); return varint_u(len(b)) + b
def varint_u(n):
    out = b''
    while True:
        b = n & 0x7f; n >>= 7
        if n: out += bytes([b | 0x80])
        else: return out + bytes([b])
def elem(name, rep, children=None, ptype=None):
    out = b''; last = 0
    def f(fid, ftype, payload):
        nonlocal out, last
        out += tc_field(fid - last, ftype) + payload; last = fid
    if ptype is not None: f(1, 5, tc_i32(ptype))
    if rep is not None: f(3, 5, tc_i32(rep))
    f(4, 8, tc_string(name))
    if children is not None: f(5, 5, tc_i32(children))
    return out + b'\x00'
def footer(levels, rep):
    elems = [elem('schema', None, 1)] + [elem('g', rep, 1) for _ in range(levels)] + [elem('x', rep, None, 1)]
    n = len(elems)
    lst = (bytes([0xF0 | 12]) + varint_u(n)) if n >= 15 else bytes([(n << 4) | 12])
    meta = tc_field(1, 5) + tc_i32(1) + tc_field(1, 9) + lst + b''.join(elems) + tc_field(1, 6) + varint(0) + tc_field(1, 9) + bytes([0x0C]) + b'\x00'
    return b'PAR1' + meta + struct.pack('<I', len(meta)) + b'PAR1'
w('parquet', 'nest-required-groups-65.parquet', footer(65, 0))
w('parquet', 'nest-optional-groups-130.parquet', footer(130, 1))
w('parquet', 'nest-required-groups-2000.parquet', footer(2000, 0))
w('parquet', 'nest-required-groups-64.parquet', footer(64, 0))
