// Avro data files paimon-c wrote (interop_avro_data_gen write DIR), read by avsc: every file
// decodes (null, deflate, snappy with its CRC, zstandard), and its records are written back
// (deflate) to DIR/avsc-<name>.avro for paimon-c to read.  avsc decodes logical types as
// their underlying types (and writes them back with their logical attributes), so the round
// trip is exact; plain longs (BIGINT) are read as BigInt, since the rows hold values beyond
// 2^53 that JavaScript numbers would round.
// usage: node avro_data.mjs DIR
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const avro = require('avsc');
const fzstd = require('fzstd');
const snappy = require('snappyjs');

const codecs = {
  null: (buf, cb) => cb(null, buf),
  deflate: (buf, cb) => zlib.inflateRaw(buf, cb),
  snappy: (buf, cb) => {
    try {
      const data = Buffer.from(snappy.uncompress(buf.subarray(0, buf.length - 4)));
      cb(null, data);
    } catch (e) { cb(e); }
  },
  zstandard: (buf, cb) => {
    try { cb(null, Buffer.from(fzstd.decompress(buf))); } catch (e) { cb(e); }
  },
};

// A long type over BigInt.  Logical longs (timestamps) keep avsc's number type; the rows
// keep them within 2^53.
const bigLong = avro.types.LongType.__with({
  fromBuffer: (b) => b.readBigInt64LE(),
  toBuffer: (n) => { const b = Buffer.alloc(8); b.writeBigInt64LE(n); return b; },
  fromJSON: (x) => BigInt(x),
  toJSON: (n) => n.toString(),
  isValid: (n) => typeof n === 'bigint',
  compare: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
});
const typeHook = (schema) =>
  schema === 'long' || (schema && schema.type === 'long' && !schema.logicalType) ? bigLong : undefined;

// Logical types pass their underlying values through unchanged, and are written back with
// their attributes (avsc drops the logicalType of types it does not know).
class Pass extends avro.types.LogicalType {
  constructor(schema, opts) {
    super(schema, opts);
    this.extra = { precision: schema.precision, scale: schema.scale };
  }
  _fromValue(v) { return v; }
  _toValue(v) { return v; }
  _export(schema) {
    for (const [k, v] of Object.entries(this.extra)) if (v !== undefined) schema[k] = v;
  }
}
const logicalTypes = Object.fromEntries(
  ['date', 'time-millis', 'decimal', 'timestamp-millis', 'timestamp-micros',
    'local-timestamp-millis', 'local-timestamp-micros', 'map'].map((n) => [n, Pass]));
const parseHook = (schema) => avro.Type.forSchema(schema, { typeHook, logicalTypes });

const dir = process.argv[2];
const files = fs.readdirSync(dir).filter((f) => f.startsWith('paimon-') && f.endsWith('.avro')).sort();
if (files.length !== 4) throw new Error(`expected 4 files, found ${files}`);

for (const name of files) {
  const records = [];
  let type;
  await new Promise((resolve, reject) => {
    avro.createFileDecoder(path.join(dir, name), { codecs, parseHook })
      .on('metadata', (t) => { type = t; })
      .on('data', (r) => records.push(r))
      .on('end', resolve)
      .on('error', reject);
  });
  if (records.length !== 3000) throw new Error(`${name}: ${records.length} records`);
  const out = path.join(dir, 'avsc-' + name.slice('paimon-'.length));
  await new Promise((resolve, reject) => {
    const enc = avro.createFileEncoder(out, type, { codec: 'deflate' });
    enc.on('finish', resolve).on('error', reject);
    for (const r of records) enc.write(r);
    enc.end();
  });
  console.log(`${name}: ${records.length} records, written back`);
}
