// The DuckDB side of bench/cat_jsonl.sh, with threads=1:
//   node cat_jsonl.mjs make   DIR ROWS KIND -> DIR/rows.csv (header), the rows paimon writes
//   node cat_jsonl.mjs export GLOB          -> "WALL CPU": seconds of one JSON export of the
//                                              Parquet files matching GLOB (the table's data
//                                              files), wall clock and the process's CPU time
// KIND: "double" = k BIGINT, x DOUBLE (every x a full-precision double: an integer / 7 or a
// fraction of 2^64, 16 or 17 significant digits); "wide" = the 6 columns of bench/parquet.sh.
// The export is COPY (SELECT * FROM read_parquet(GLOB)) TO '/dev/null' (FORMAT json): DuckDB
// reads the same Parquet files paimon-c reads, decodes them and writes one JSON object a row
// ({"k":1,"x":0.5}), discarded like `paimon cat --format jsonl > /dev/null`.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// DuckDB comes from the interop tests' node_modules (scripts/setup-node.sh installs it).
const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../tests/interop/package.json'));
const { DuckDBInstance } = require('@duckdb/node-api');

const [mode, arg, rows, kind] = process.argv.slice(2);
const con = await (await DuckDBInstance.create(':memory:', { threads: '1' })).connect();
await con.run('SET threads = 1');
const q = (s) => `'${s.replaceAll("'", "''")}'`;

const SELECTS = {
  double: `SELECT i::BIGINT AS k,
    CASE WHEN i % 2 = 0 THEN (hash(i * 3) % 100000000) / 7.0
         ELSE hash(i * 5) / 18446744073709551616.0 END::DOUBLE AS x
    FROM range(${Number(rows)}) t(i)`,
  wide: `SELECT i::BIGINT AS id,
    (hash(i) % 1000000)::INTEGER AS n,
    CASE WHEN hash(i * 7) % 5 = 0 THEN NULL ELSE (hash(i * 3) % 100000000) / 7.0 END::DOUBLE AS x,
    'name-' || lpad((hash(i * 11) % 100000000000)::VARCHAR, 11, '0') AS s,
    ((hash(i * 13) % 100000000000000)::BIGINT / 100.0)::DECIMAL(18, 2) AS dec,
    strftime(TIMESTAMP '2020-01-01' + to_microseconds((hash(i * 17) % 100000000000000)::BIGINT),
             '%Y-%m-%d %H:%M:%S.%f') AS ts
    FROM range(${Number(rows)}) t(i)`,
};

if (mode === 'make') {
  await con.run(`COPY (${SELECTS[kind]}) TO ${q(arg + '/rows.csv')} (HEADER true)`);
} else if (mode === 'export') {
  const t0 = process.hrtime.bigint(), c0 = process.cpuUsage();
  await con.run(`COPY (SELECT * FROM read_parquet(${q(arg)})) TO '/dev/null'
                 (FORMAT json, USE_TMP_FILE false)`);
  const c = process.cpuUsage(c0);
  console.log(`${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(3)} ${((c.user + c.system) / 1e6).toFixed(3)}`);
}
