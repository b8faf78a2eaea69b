// Reads the Avro files paimon-c wrote (interop_write_manifests DIR) with avsc (codecs from
// fzstd and snappyjs) and checks every record equals the JSON line paimon-c wrote, and the
// writer schema equals Java 1.4.2's reference schema after avsc's normalization (as the
// oracle compares them).  usage: node read_avro.mjs DIR REF_SCHEMA_DIR
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import avro from 'avsc';
import { decompress as zstdDecompress } from 'fzstd';
import snappy from 'snappyjs';

const [dir, refs] = process.argv.slice(2);
const REFS = { 'manifest-list': 'manifest-list-1.4-2.0.json', manifest: 'manifest-1.3-2.0.json', 'index-manifest': 'index-manifest-1.4.json' };
const kindOf = (name) => ['manifest-list', 'index-manifest', 'manifest'].find((k) => name.startsWith(k));
const codecs = {
  null: (buf, cb) => cb(null, buf),
  deflate: (buf, cb) => zlib.inflateRaw(buf, cb),
  zstandard: (buf, cb) => { try { cb(null, Buffer.from(zstdDecompress(buf))); } catch (e) { cb(e); } },
  snappy: (buf, cb) => { try { cb(null, Buffer.from(snappy.uncompress(buf.subarray(0, buf.length - 4)))); } catch (e) { cb(e); } },
};

const plain = (v) => {
  if (Buffer.isBuffer(v)) return v.toString('base64');
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') {
    const out = {};
    for (const [k, x] of Object.entries(v)) out[k] = plain(x);
    return out;
  }
  return v;
};

// avsc reads longs as JS numbers: read them as BigInt-safe strings instead.
const longType = avro.types.LongType.__with({
  fromBuffer: (buf) => buf.readBigInt64LE(),
  toBuffer: (n) => { const b = Buffer.alloc(8); b.writeBigInt64LE(BigInt(n)); return b; },
  fromJSON: BigInt, toJSON: (n) => n, isValid: (n) => typeof n === 'bigint', compare: (a, b) => (a < b ? -1 : a > b),
});

const readFile = (file) => new Promise((resolve, reject) => {
  const records = [];
  let schema = null;
  fs.createReadStream(file)
    .pipe(new avro.streams.BlockDecoder({ codecs, parseHook: (s) => avro.Type.forSchema(s, { registry: { long: longType } }) }))
    .on('metadata', (type, codec, header) => { schema = JSON.parse(header.meta['avro.schema'].toString()); })
    .on('data', (r) => records.push(r))
    .on('end', () => resolve({ schema, records }))
    .on('error', reject);
});

const normalize = (s) => JSON.stringify(avro.Type.forSchema(s).schema({ exportAttrs: true }));
const toJson = (v) => JSON.parse(JSON.stringify(plain(v), (k, x) => (typeof x === 'bigint' ? `@@${x}@@` : x)));

let files = 0, total = 0;
for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.avro')).sort()) {
  const file = path.join(dir, name);
  const { schema, records } = await readFile(file);
  const ref = JSON.parse(fs.readFileSync(path.join(refs, REFS[kindOf(name)]), 'utf8')).schema;
  if (normalize(schema) !== normalize(ref)) {
    console.log(`${name}: writer schema differs from the Java 1.4.2 reference`);
    process.exit(1);
  }
  const want = fs.readFileSync(file.replace(/\.avro$/, '.jsonl'), 'utf8').split('\n').filter(Boolean);
  if (want.length !== records.length) {
    console.log(`${name}: avsc read ${records.length} records, paimon-c wrote ${want.length}`);
    process.exit(1);
  }
  for (let i = 0; i < want.length; i++) {
    // Compare with every integer as text so 64-bit values stay exact.
    const got = JSON.stringify(toJson(records[i])).replace(/"@@(-?\d+)@@"/g, '$1');
    const exp = JSON.stringify(JSON.parse(want[i].replace(/(-?\d+)(?=[,}\]])/g, (m) => `"@@${m}@@"`))).replace(/"@@(-?\d+)@@"/g, '$1');
    if (got !== exp) {
      console.log(`${name} record ${i}:\n avsc     ${got}\n paimon-c ${exp}`);
      process.exit(1);
    }
  }
  files++;
  total += records.length;
}
if (files < 13) { console.log(`expected at least 13 files, found ${files}`); process.exit(1); }
console.log(`avsc: ${files} files, ${total} records, all equal; schemas equal Java 1.4.2's`);
