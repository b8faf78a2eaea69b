// Parquet interop both ways, compared as multisets of canonical JSON rows:
//  1. paimon-c writes (parquet_gen) a matrix of column sets x codecs x null rates x page
//     layouts; DuckDB, hyparquet and paimon-c itself read every file back;
//  2. DuckDB writes (COPY ... FORMAT parquet) a matrix of codecs x PARQUET_VERSION V1/V2
//     (V2: data page v2, DELTA_* and BYTE_STREAM_SPLIT) x null rates x row group sizes, over
//     scalar and nested columns; paimon-c reads each file as DuckDB does.
// Usage: node parquet_interop.mjs WORKDIR   (PAIMON_CLI, PAIMON_BUILD_DIR in the environment)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { duck, duckLines, hyparquetLines, hyparquetRowCount, compareLines, fieldsFromMeta, parseType, sortMapsLine, sqlString, widenTimes } from './parquet_lib.mjs';

const cli = process.env.PAIMON_CLI;
const gen = path.join(process.env.PAIMON_BUILD_DIR, 'tests/interop/interop_parquet_gen');
const work = process.argv[2];
fs.mkdirSync(work, { recursive: true });
const lines = (text) => text.split('\n').filter((l) => l.length > 0);
const catLines = (file) => lines(execFileSync(cli, ['file', 'cat', file, '--format', 'jsonl'], { encoding: 'utf8', maxBuffer: 1 << 30 }));

let passed = 0, failed = 0;
const fail = (what, msg) => { failed++; console.log(`FAIL ${what}: ${msg}`); };

// ---- 1. paimon-c writes ------------------------------------------------------------------------
const COLUMN_SETS = {
  ints: 'b BOOLEAN, t TINYINT, s SMALLINT, i INT NOT NULL, l BIGINT, f FLOAT, d DOUBLE',
  text: 's STRING, c CHAR(5), v VARCHAR(20), bin BYTES, vb VARBINARY(10), k STRING NOT NULL',
  decimals: 'd1 DECIMAL(5, 2), d2 DECIMAL(9, 0), d3 DECIMAL(18, 4), d4 DECIMAL(38, 10), d5 DECIMAL(20, 2) NOT NULL',
  times: 'dt DATE, tm TIME, tm3 TIME(3), ts0 TIMESTAMP(0), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), ts9 TIMESTAMP(9), ltz3 TIMESTAMP(3) WITH LOCAL TIME ZONE, ltz6 TIMESTAMP(6) WITH LOCAL TIME ZONE',
  nested: 'a ARRAY<INT>, an ARRAY<STRING NOT NULL>, m MAP<STRING, BIGINT>, r ROW<x INT, y STRING, z ARRAY<DOUBLE>>, ar ARRAY<ROW<p INT, q STRING>>, mm MAP<INT, ARRAY<STRING>>, ms MULTISET<STRING>, aa ARRAY<ARRAY<INT>>, rn ROW<u ROW<w BIGINT> NOT NULL> NOT NULL',
};
const CODECS = ['zstd', 'snappy', 'gzip', 'lz4_raw', 'none'];
const NULLS = ['0', '0.3', '1'];
const LAYOUTS = [
  [],                                                             // Java's defaults
  ['--page-size', '2048', '--page-rows', '100'],                  // many pages per chunk
  ['--dictionary', 'false', '--block-size', '40000'],             // PLAIN, several row groups
  ['--dict-size', '300', '--page-rows', '150'],                   // dictionary falls back mid-chunk
];
// TIMESTAMP(9) is INT96: DuckDB truncates it to microseconds, so those columns come from
// hyparquet in the DuckDB comparison (as the oracle does).
const int96Cols = (fields) => fields.filter((f) => (f.type.root === 'TIMESTAMP' || f.type.root === 'TIMESTAMP_LTZ') && f.type.precision > 6).map((f) => f.name);

let n = 0;
for (const [set, columns] of Object.entries(COLUMN_SETS)) {
  for (const codec of CODECS) {
    for (const nulls of NULLS) {
      const layout = LAYOUTS[n % LAYOUTS.length];
      const file = path.join(work, `w-${set}-${codec}-${nulls}-${n % LAYOUTS.length}.parquet`);
      const what = path.basename(file);
      n++;
      try {
        const type = execFileSync(gen, [file, '--columns', columns, '--rows', set === 'nested' ? '700' : '1500', '--seed', String(n), '--nulls', nulls, '--codec', codec, ...layout], { encoding: 'utf8' }).trim();
        const fields = parseType(type).fields;
        const expected = lines(fs.readFileSync(`${file}.jsonl`, 'utf8'));
        const mapped = fieldsFromMeta(execFileSync(cli, ['file', 'meta', file], { encoding: 'utf8' }));
        const self = compareLines(expected.map((l) => widenTimes(l, fields, mapped)), catLines(file), 'paimon-c');
        if (self) throw new Error(self);
        const viaDuck = compareLines(expected, await duckLines(file, fields, int96Cols(fields)), 'DuckDB');
        if (viaDuck) throw new Error(viaDuck);
        if (hyparquetRowCount(file) !== expected.length) throw new Error('hyparquet row count differs');
        const viaHyp = compareLines(expected.map((l) => sortMapsLine(l, fields)), await hyparquetLines(file, fields), 'hyparquet');
        if (viaHyp) throw new Error(viaHyp);
        passed++;
      } catch (e) {
        fail(what, e.message);
      }
    }
  }
}
const written = n;

// ---- 2. DuckDB writes ---------------------------------------------------------------------------
const con = await duck();
const nullIf = (pct, expr, k) => `CASE WHEN hash(i * ${k + 7}) % 100 < ${pct} THEN NULL ELSE ${expr} END`;
function duckTable(pct) {
  const H = (k, mod) => `(hash(i * ${k}) % ${mod})::BIGINT`;
  const cols = [
    ['id', 'i::BIGINT'],
    ['b', `(${H(1, 2)} = 0)`],
    ['t', `(${H(2, 256)} - 128)::TINYINT`],
    ['sm', `(${H(3, 65536)} - 32768)::SMALLINT`],
    ['i32', `(${H(4, 2000)} - 1000)::INTEGER`],
    ['i64', `(hash(i * 5)::HUGEINT - 9223372036854775807)::BIGINT`],
    ['u8', `${H(6, 256)}::UTINYINT`],
    ['u32', `${H(7, 4294967296)}::UINTEGER`],
    ['u64', `hash(i * 8)::UBIGINT`],
    ['f', `(${H(9, 100000)} / 7.0 - 5000)::FLOAT`],
    ['d', `(${H(10, 10000000)} / 13.0 - 300000)::DOUBLE`],
    ['dec9', `((${H(11, 2000000)} - 1000000) / 100.0)::DECIMAL(9, 2)`],
    ['dec18', `((${H(12, 2000000000000)} - 1000000000000) / 1000.0)::DECIMAL(18, 3)`],
    ['dec38', `((${H(13, 200000000000)} - 100000000000)::DECIMAL(38, 0) * 1000000000000::DECIMAL(38, 0) / 100000)::DECIMAL(38, 5)`],
    ['s', `'s' || ${H(14, 500)}::VARCHAR || repeat('é', (i % 4)::INTEGER)`],
    ['bl', `('\\xAA\\x00' || (i % 100)::VARCHAR)::BLOB`],
    ['dt', `(DATE '1970-01-01' + (${H(15, 40000)} - 10000)::INTEGER)`],
    ['tm', `(TIME '00:00:00' + to_microseconds(${H(16, 86400000000)}))`],
    ['ts', `(TIMESTAMP '1900-01-01' + to_microseconds(${H(17, 5000000000000000)}))`],
    ['ts_ms', `(TIMESTAMP '1990-01-01' + to_microseconds(${H(18, 500000000000)} * 1000))::TIMESTAMP_MS`],
    ['ts_ns', `make_timestamp_ns(${H(19, 2000000000000)} * 1000000 + i % 1000)`],
    ['tstz', `(TIMESTAMPTZ '2000-01-01 00:00:00+00' + to_microseconds(${H(20, 500000000000)}))`],
    ['uuid', `('00000000-0000-4000-8000-' || lpad(${H(21, 1000000000000)}::VARCHAR, 12, '0'))::UUID`],
    ['li', `[${H(22, 10)}::INTEGER, ${H(23, 7)}::INTEGER, NULL][:(i % 4)::INTEGER]`],
    ['ls', `list_transform(range((i % 3)::BIGINT), x -> 'e' || x::VARCHAR)`],
    ['st', `{'x': (i % 100)::INTEGER, 'y': 'v' || (i % 7)::VARCHAR, 'z': [1.5, i::DOUBLE]}`],
    ['mp', `MAP {'k' || (i % 5)::VARCHAR: i::BIGINT, 'z': 1}`],
    ['nest', `[{'a': [i::INTEGER, NULL], 'b': {'c': 'x'}}]`],
  ];
  return `SELECT ${cols.map(([name, expr], k) => `${name === 'id' ? expr : nullIf(pct, expr, k)} AS ${name}`).join(', ')} FROM range(3000) t(i)`;
}
const DUCK_CODECS = ['uncompressed', 'snappy', 'gzip', 'zstd', 'lz4_raw'];
let m = 0;
for (const version of ['V1', 'V2']) {
  for (const codec of DUCK_CODECS) {
    for (const pct of [0, 30]) {
      const rg = m % 2 === 0 ? 2048 : 100000;
      const file = path.join(work, `d-${version}-${codec}-${pct}.parquet`);
      const what = path.basename(file);
      m++;
      try {
        await con.run(`COPY (${duckTable(pct)}) TO ${sqlString(file)} (FORMAT parquet, COMPRESSION ${codec}, PARQUET_VERSION ${version}, ROW_GROUP_SIZE ${rg})`);
        const meta = execFileSync(cli, ['file', 'meta', file], { encoding: 'utf8' });
        const fields = fieldsFromMeta(meta);
        const mine = catLines(file);
        const theirs = await duckLines(file, fields);
        const diff = compareLines(mine, theirs, 'DuckDB');
        if (diff) throw new Error(diff);
        passed++;
      } catch (e) {
        fail(what, e.message);
      }
    }
  }
}
console.log(`paimon-c wrote ${written} files (read back by paimon-c, DuckDB and hyparquet); DuckDB wrote ${m} files (read by paimon-c)`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
