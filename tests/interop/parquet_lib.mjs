// Shared pieces of the Parquet interop tests: Paimon type strings (as `paimon file meta`
// prints them), the canonical JSON form of values read by DuckDB (@duckdb/node-api) and by
// hyparquet, and multiset comparison of JSON lines.
//
// Canonical form: shared/spec/canonical-rows.md.  Lines are compared after normalization:
// integers exactly (BigInt), other numbers by value, strings as strings, object keys in
// order of appearance (both sides print schema order).  Works on Node 18 and 20.
import fs from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetReadObjects, parquetMetadata } from 'hyparquet';

// ---- Paimon type strings ------------------------------------------------------------------

// Parses "ROW<a INT NOT NULL, b ARRAY<STRING>>" into {root, nullable, ...}.
export function parseType(text) {
  let i = 0;
  const s = text;
  const ws = () => { while (s[i] === ' ') i++; };
  const word = () => { ws(); const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i)); if (!m) throw new Error(`type: word expected at ${i} in ${s}`); i += m[0].length; return m[0]; };
  const name = () => {
    ws();
    if (s[i] === '`') {
      let out = ''; i++;
      for (;;) { if (s[i] === '`') { if (s[i + 1] === '`') { out += '`'; i += 2; continue; } i++; return out; } out += s[i++]; }
    }
    return word();
  };
  const params = () => { ws(); if (s[i] !== '(') return []; i++; const out = []; for (;;) { ws(); const m = /^\d+/.exec(s.slice(i)); out.push(Number(m[0])); i += m[0].length; ws(); if (s[i] === ',') { i++; continue; } i++; return out; } };
  const notNull = () => { ws(); if (s.startsWith('NOT NULL', i)) { i += 8; return false; } return true; };
  const type = () => {
    const w = word().toUpperCase();
    let t;
    if (w === 'ARRAY' || w === 'MULTISET') { ws(); i++; const e = type(); ws(); i++; t = { root: w, element: e }; }
    else if (w === 'MAP') { ws(); i++; const k = type(); ws(); i++; const v = type(); ws(); i++; t = { root: 'MAP', key: k, value: v }; }
    else if (w === 'ROW') {
      ws(); i++; const fields = [];
      for (;;) { ws(); if (s[i] === '>') { i++; break; } const n = name(); const ft = type(); fields.push({ name: n, type: ft }); ws(); if (s[i] === ',') i++; }
      t = { root: 'ROW', fields };
    } else {
      const p = params();
      switch (w) {
        case 'STRING': t = { root: 'VARCHAR' }; break;
        case 'BYTES': t = { root: 'VARBINARY' }; break;
        case 'DECIMAL': t = { root: 'DECIMAL', precision: p[0] ?? 10, scale: p[1] ?? 0 }; break;
        case 'TIME': t = { root: 'TIME', precision: p[0] ?? 0 }; break;
        case 'TIMESTAMP': {
          ws();
          const ltz = s.startsWith('WITH LOCAL TIME ZONE', i);
          if (ltz) i += 'WITH LOCAL TIME ZONE'.length;
          t = { root: ltz ? 'TIMESTAMP_LTZ' : 'TIMESTAMP', precision: p[0] ?? 6 };
          break;
        }
        default: t = { root: w };
      }
    }
    t.nullable = notNull();
    return t;
  };
  const t = type();
  return t;
}

// The file's columns as `paimon file meta` reports them ("type: ROW<...>").
export function fieldsFromMeta(metaText) {
  const line = metaText.split('\n').find((l) => l.startsWith('type: '));
  if (!line) throw new Error('no type line in paimon file meta output');
  return parseType(line.slice(6)).fields;
}

// ---- canonical text -------------------------------------------------------------------------

const pad = (n, w) => String(n).padStart(w, '0');

export function dateText(days) {
  const ms = Number(days) * 86400000;
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const ys = y > 9999 ? `+${y}` : y < 0 ? `-${pad(-y, 4)}` : pad(y, 4);
  return `${ys}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
}

const fraction = (nanosOfSecond, p) => (p > 0 ? '.' + pad(nanosOfSecond, 9).slice(0, p) : '');

export function timeText(nanosOfDay, p) {
  const n = BigInt(nanosOfDay);
  const secs = n / 1000000000n;
  return `${pad(secs / 3600n, 2)}:${pad((secs / 60n) % 60n, 2)}:${pad(secs % 60n, 2)}${fraction(n % 1000000000n, p)}`;
}

const floorDiv = (a, b) => (a >= 0n ? a / b : -((-a + b - 1n) / b));

export function timestampText(nanos, p) {
  const n = BigInt(nanos);
  const days = floorDiv(n, 86400000000000n);
  const nod = n - days * 86400000000000n;
  return `${dateText(days)} ${timeText(nod, p)}`;
}

export function decimalText(unscaled, scale) {
  const v = BigInt(unscaled);
  const neg = v < 0n;
  let digits = (neg ? -v : v).toString();
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0');
    digits = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  }
  return (neg ? '-' : '') + digits;
}

// The exact value of a float32 as (numerator, denominator) BigInts, |v| only.
function exactFloat(v) {
  const buf = new DataView(new ArrayBuffer(4));
  buf.setFloat32(0, v);
  const bits = buf.getUint32(0);
  const exp = (bits >>> 23) & 0xff, frac = bits & 0x7fffff;
  const m = BigInt(exp === 0 ? frac : frac | 0x800000);
  const k = (exp === 0 ? 1 : exp) - 150;
  return k >= 0 ? [m << BigInt(k), 1n] : [m, 1n << BigInt(-k)];
}

// The p significant digits of |v| rounded half to even (as C's printf and Java's
// Float.toString break ties), as a decimal string.
function digitsHalfEven(v, p) {
  const [num, den] = exactFloat(Math.abs(v));
  let e = Math.floor(Math.log10(Math.abs(v)));
  // make sure 10^e <= |v| < 10^(e+1) exactly
  const pow = (n) => 10n ** BigInt(n);
  const ge = (a, b) => a >= b;
  for (;;) {
    const lo = e >= 0 ? [pow(e), 1n] : [1n, pow(-e)];
    if (!ge(num * lo[1], lo[0] * den)) { e--; continue; }
    const hi = e + 1 >= 0 ? [pow(e + 1), 1n] : [1n, pow(-(e + 1))];
    if (ge(num * hi[1], hi[0] * den)) { e++; continue; }
    break;
  }
  const q = p - 1 - e; // scale so that the integer part has p digits
  let n, d;
  if (q >= 0) { n = num * pow(q); d = den; } else { n = num; d = den * pow(-q); }
  let r = n / d;
  const rem = n - r * d;
  if (rem * 2n > d || (rem * 2n === d && r % 2n === 1n)) r += 1n;
  const s = r.toString();
  return Number(`${s}e${-q}`) * (v < 0 ? -1 : 1);
}

function floatText(v, float32) {
  if (Number.isNaN(v)) return '"NaN"';
  if (v === Infinity) return '"Infinity"';
  if (v === -Infinity) return '"-Infinity"';
  if (!float32 || v === 0) return String(v);
  for (let p = 1; p <= 9; p++) {
    const x = digitsHalfEven(v, p);
    if (Math.fround(x) === v) return String(x);
  }
  return String(v);
}

const quote = (s) => JSON.stringify(s);
const b64 = (bytes) => quote('base64:' + Buffer.from(bytes).toString('base64'));

// A DuckDB value (node-api) of Paimon type t -> canonical JSON text.
export function duckToJson(v, t) {
  if (v === null || v === undefined) return 'null';
  switch (t.root) {
    case 'BOOLEAN': return v ? 'true' : 'false';
    case 'TINYINT': case 'SMALLINT': case 'INT': case 'BIGINT': return BigInt(v).toString();
    case 'FLOAT': return floatText(v, true);
    case 'DOUBLE': return floatText(v, false);
    case 'DECIMAL': return quote(decimalText(typeof v === 'bigint' || typeof v === 'number' ? BigInt(v) : v.value, t.scale));
    case 'CHAR': case 'VARCHAR':
      if (typeof v === 'string') return quote(v);
      if (v.bytes) return quote(Buffer.from(v.bytes).toString('utf8'));
      return quote(v.toString()); // UUID
    case 'BINARY': case 'VARBINARY': return b64(typeof v === 'string' ? Buffer.from(v, 'utf8') : v.bytes);
    case 'DATE': return quote(dateText(v.days));
    case 'TIME': return quote(timeText(v.nanos ?? v.micros * 1000n, t.precision));
    case 'TIMESTAMP': case 'TIMESTAMP_LTZ': {
      const n = v.nanos ?? (v.micros !== undefined ? v.micros * 1000n : v.millis !== undefined ? v.millis * 1000000n : v.seconds * 1000000000n);
      return quote(timestampText(n, t.precision));
    }
    case 'ARRAY': return `[${v.items.map((e) => duckToJson(e, t.element)).join(',')}]`;
    case 'MAP': return `[${v.entries.map((e) => `[${duckToJson(e.key, t.key)},${duckToJson(e.value, t.value)}]`).join(',')}]`;
    case 'MULTISET': return `[${v.entries.map((e) => `[${duckToJson(e.key, t.element)},${duckToJson(e.value, { root: 'INT' })}]`).join(',')}]`;
    case 'ROW': return `{${t.fields.map((f) => `${quote(f.name)}:${duckToJson(v.entries[f.name], f.type)}`).join(',')}}`;
    default: throw new Error(`duckToJson: type ${t.root}`);
  }
}

// A hyparquet value of Paimon type t -> canonical JSON text.  Read with utf8: false and the
// parsers below, so timestamps arrive as {nanos} and dates as {days}.  Maps arrive as
// objects: their entries are sorted by key text (hyparquet loses the stored order).
export const HYPARQUET_PARSERS = {
  timestampFromMilliseconds: (v) => ({ nanos: BigInt(v) * 1000000n }),
  timestampFromMicroseconds: (v) => ({ nanos: BigInt(v) * 1000n }),
  timestampFromNanoseconds: (v) => ({ nanos: BigInt(v) }),
  dateFromDays: (d) => ({ days: d }),
};

export function hypToJson(v, t) {
  if (v === null || v === undefined) return 'null';
  switch (t.root) {
    case 'BOOLEAN': return v ? 'true' : 'false';
    case 'TINYINT': case 'SMALLINT': case 'INT': case 'BIGINT': return BigInt(v).toString();
    case 'FLOAT': return floatText(v, true);
    case 'DOUBLE': return floatText(v, false);
    case 'DECIMAL': return quote(Number(v).toFixed(t.scale)); // a double: exact below 2^53
    case 'CHAR': case 'VARCHAR': return quote(typeof v === 'string' ? v : Buffer.from(v).toString('utf8'));
    case 'BINARY': case 'VARBINARY': return b64(typeof v === 'string' ? Buffer.from(v, 'utf8') : v);
    case 'DATE': return quote(dateText(v.days));
    case 'TIME': return quote(timeText(typeof v === 'bigint' ? (t.precision > 6 ? v : v * 1000n) : BigInt(v) * 1000000n, t.precision));
    case 'TIMESTAMP': case 'TIMESTAMP_LTZ': return quote(timestampText(v.nanos, t.precision));
    case 'ARRAY': return `[${v.map((e) => hypToJson(e, t.element)).join(',')}]`;
    case 'MAP': case 'MULTISET': {
      const kt = t.root === 'MAP' ? t.key : t.element, vt = t.root === 'MAP' ? t.value : { root: 'INT' };
      const keyOf = (k) => (['TINYINT', 'SMALLINT', 'INT', 'BIGINT'].includes(kt.root) ? BigInt(k) : kt.root === 'DOUBLE' || kt.root === 'FLOAT' ? Number(k) : k);
      const pairs = Object.entries(v).map(([k, x]) => `[${hypToJson(keyOf(k), kt)},${hypToJson(x, vt)}]`);
      return `[${pairs.sort().join(',')}]`;
    }
    case 'ROW': return `{${t.fields.map((f) => `${quote(f.name)}:${hypToJson(v[f.name], f.type)}`).join(',')}}`;
    default: throw new Error(`hypToJson: type ${t.root}`);
  }
}

// ---- reading ----------------------------------------------------------------------------------

let connection;
export async function duck() {
  if (!connection) connection = await (await DuckDBInstance.create(':memory:')).connect();
  return connection;
}

export const sqlString = (s) => `'${String(s).replaceAll("'", "''")}'`;

// Rows of a Parquet file read by DuckDB, as canonical lines for `fields` [{name, type}] (the
// file's columns as paimon-c maps them).  Columns named in `viaHyparquet` (INT96) are taken
// from hyparquet instead, which keeps their nanoseconds.
export async function duckLines(file, fields, viaHyparquet = []) {
  const con = await duck();
  const result = await con.stream(`SELECT * FROM read_parquet(${sqlString(file)})`);
  const names = result.columnNames();
  const pos = fields.map((f) => names.indexOf(f.name));
  const hyp = viaHyparquet.length ? await hypRows(file, viaHyparquet) : null;
  const lines = [];
  let row = 0;
  for await (const chunk of result) {
    for (const r of chunk.getRows()) {
      lines.push(`{${fields.map((f, k) => `${quote(f.name)}:${hyp && viaHyparquet.includes(f.name) ? hypToJson(hyp[row][f.name], f.type) : duckToJson(r[pos[k]], f.type)}`).join(',')}}`);
      row++;
    }
  }
  return lines;
}

async function hypRows(file, columns) {
  const buf = fs.readFileSync(file);
  return parquetReadObjects({
    file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength),
    columns, utf8: false, parsers: HYPARQUET_PARSERS, compressors: COMPRESSORS,
  });
}

// Rows read by hyparquet as canonical lines.
export async function hyparquetLines(file, fields) {
  const rows = await hypRows(file, fields.map((f) => f.name));
  return rows.map((r) => `{${fields.map((f) => `${quote(f.name)}:${hypToJson(r[f.name], f.type)}`).join(',')}}`);
}

export function hyparquetRowCount(file) {
  const buf = fs.readFileSync(file);
  return Number(parquetMetadata(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength)).num_rows);
}

// ---- codecs hyparquet lacks (snappy is built in) ------------------------------------------------

import zlib from 'node:zlib';
import { decompress as fzstdDecompress } from 'fzstd';

// LZ4 block format (LZ4_RAW), as used by Parquet.
function lz4Block(input, outputLength) {
  const out = new Uint8Array(outputLength);
  let i = 0, o = 0;
  while (i < input.length) {
    const token = input[i++];
    let lit = token >> 4;
    if (lit === 15) { let b; do { b = input[i++]; lit += b; } while (b === 255); }
    out.set(input.subarray(i, i + lit), o); i += lit; o += lit;
    if (i >= input.length) break;
    const off = input[i] | (input[i + 1] << 8); i += 2;
    let len = token & 15;
    if (len === 15) { let b; do { b = input[i++]; len += b; } while (b === 255); }
    len += 4;
    for (let k = 0; k < len; k++, o++) out[o] = out[o - off];
  }
  return out;
}

export const COMPRESSORS = {
  GZIP: (input) => new Uint8Array(zlib.gunzipSync(input)),
  ZSTD: (input, outputLength) => fzstdDecompress(input, new Uint8Array(outputLength)),
  LZ4_RAW: (input, outputLength) => lz4Block(input, outputLength),
};

// ---- comparison ---------------------------------------------------------------------------------

// A lossless JSON reader: numbers stay as their text so integers compare exactly.
function parseJsonLossless(text) {
  let i = 0;
  const ws = () => { while (' \t\r\n'.includes(text[i])) i++; };
  const value = () => {
    ws();
    const c = text[i];
    if (c === '{') { i++; const o = []; ws(); if (text[i] === '}') { i++; return { obj: o }; } for (;;) { ws(); const k = value(); ws(); i++; const v = value(); o.push([k, v]); ws(); if (text[i++] === '}') return { obj: o }; } }
    if (c === '[') { i++; const a = []; ws(); if (text[i] === ']') { i++; return { arr: a }; } for (;;) { a.push(value()); ws(); if (text[i++] === ']') return { arr: a }; } }
    if (c === '"') { let j = i + 1; while (text[j] !== '"') { if (text[j] === '\\') j++; j++; } const s = JSON.parse(text.slice(i, j + 1)); i = j + 1; return { str: s }; }
    const m = /^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(i));
    if (!m) throw new Error(`bad JSON at ${i}: ${text.slice(i, i + 20)}`);
    i += m[0].length;
    if (m[0] === 'true' || m[0] === 'false' || m[0] === 'null') return { lit: m[0] };
    return { num: m[0] };
  };
  return value();
}

// A normalized text of a JSON value: integers exact, other numbers by value.  With
// `sortMaps`, arrays of [k, v] pairs inside map columns are not touched here; the readers
// that lose map order sort on their own side, and the caller sorts the other side with
// sortMapsIn().
function normalize(v) {
  if (v.obj) return `{${v.obj.map(([k, x]) => `${JSON.stringify(k.str)}:${normalize(x)}`).join(',')}}`;
  if (v.arr) return `[${v.arr.map(normalize).join(',')}]`;
  if (v.str !== undefined) return JSON.stringify(v.str);
  if (v.lit) return v.lit;
  if (/^-?\d+$/.test(v.num)) return BigInt(v.num).toString();
  const x = Number(v.num);
  if (Number.isInteger(x) && Math.abs(x) < 2 ** 53) return BigInt(x).toString();
  return `#${x}`;
}

export const normalizeLine = (line) => normalize(parseJsonLossless(line));

// Compares two lists of JSON lines as multisets; returns null when equal, else a report.
export function compareLines(a, b, label = '') {
  const na = a.map(normalizeLine).sort(), nb = b.map(normalizeLine).sort();
  if (na.length === nb.length && na.every((x, i) => x === nb[i])) return null;
  const count = (arr) => { const m = new Map(); for (const x of arr) m.set(x, (m.get(x) ?? 0) + 1); return m; };
  const ca = count(na), cb = count(nb);
  const onlyA = [], onlyB = [];
  for (const [k, n] of ca) if ((cb.get(k) ?? 0) < n) onlyA.push(k);
  for (const [k, n] of cb) if ((ca.get(k) ?? 0) < n) onlyB.push(k);
  return `${label}: ${na.length} vs ${nb.length} rows\n  only in first:  ${onlyA.slice(0, 3).join('\n                  ')}\n  only in second: ${onlyB.slice(0, 3).join('\n                  ')}`;
}

// Rewrites top-level TIME/TIMESTAMP values written with `from` precisions as a reader that
// maps the file to `to` precisions prints them: the fraction padded with zeros (a Parquet
// file keeps TIMESTAMP(0) as milliseconds, so reading the bare file gives TIMESTAMP(3)).
export function widenTimes(line, from, to) {
  let out = line;
  from.forEach((f, k) => {
    const t = to[k];
    if (!t || !['TIME', 'TIMESTAMP', 'TIMESTAMP_LTZ'].includes(f.type.root) || t.type.precision <= f.type.precision) return;
    const re = new RegExp(`(${JSON.stringify(f.name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:"[^"]*?)(\\.\\d*)?"`);
    out = out.replace(re, (m0, head, frac) => {
      const digits = (frac ? frac.slice(1) : '').padEnd(t.type.precision, '0');
      return `${head}.${digits}"`;
    });
  });
  return out;
}

// Sorts the [key, value] pairs of MAP/MULTISET values (for comparisons with hyparquet).
export function sortMapsLine(line, fields) {
  const tree = JSON.parse(line.replace(/(?<=[:,\[])(-?\d{16,})(?=[,\]}])/g, '"#$1"'));
  const walk = (v, t) => {
    if (v === null) return v;
    if (t.root === 'MAP' || t.root === 'MULTISET') {
      const kt = t.root === 'MAP' ? t.key : t.element, vt = t.root === 'MAP' ? t.value : { root: 'INT' };
      return v.map(([k, x]) => [walk(k, kt), walk(x, vt)]).sort((p, q) => (JSON.stringify(p[0]) < JSON.stringify(q[0]) ? -1 : 1));
    }
    if (t.root === 'ARRAY') return v.map((e) => walk(e, t.element));
    if (t.root === 'ROW') { const o = {}; for (const f of t.fields) o[f.name] = walk(v[f.name], f.type); return o; }
    return v;
  };
  const o = {};
  for (const f of fields) o[f.name] = walk(tree[f.name], f.type);
  return JSON.stringify(o).replace(/"#(-?\d+)"/g, '$1');
}
