// The DuckDB side of bench/parquet.sh: makes the 10,000,000-row table, writes it with COPY
// (timed: the write figure), and scans Parquet files computing min and max of every
// column (timed: the scan figure), all with threads=1.
//   node parquet_bench.mjs make  DIR ROWS      -> DIR/duck.parquet (+ write timings)
//   node parquet_bench.mjs write DIR ROWS RUNS -> median COPY time from an in-memory table
//   node parquet_bench.mjs scan  FILE RUNS     -> median min/max scan time
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// DuckDB comes from the interop tests' node_modules (scripts/setup-node.sh installs it).
const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../tests/interop/package.json'));
const { DuckDBInstance } = require('@duckdb/node-api');

const [mode, arg, rowsOrRuns, runsArg] = process.argv.slice(2);
const con = await (await DuckDBInstance.create(':memory:', { threads: '1' })).connect();
await con.run('SET threads = 1');
const q = (s) => `'${s.replaceAll("'", "''")}'`;

const TABLE = (rows) => `CREATE OR REPLACE TABLE t AS SELECT
  i::BIGINT AS id,
  (hash(i) % 1000000)::INTEGER AS n,
  CASE WHEN hash(i * 7) % 5 = 0 THEN NULL ELSE (hash(i * 3) % 100000000) / 7.0 END::DOUBLE AS x,
  'name-' || lpad((hash(i * 11) % 100000000000)::VARCHAR, 11, '0') AS s,
  ((hash(i * 13) % 100000000000000)::BIGINT / 100.0)::DECIMAL(18, 2) AS dec,
  TIMESTAMP '2020-01-01' + to_microseconds((hash(i * 17) % 100000000000000)::BIGINT) AS ts
  FROM range(${rows}) t(i)`;

function median(a) {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function timed(sql) {
  const t0 = process.hrtime.bigint();
  await con.run(sql);
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

if (mode === 'make' || mode === 'write') {
  await con.run(TABLE(Number(rowsOrRuns)));
  const runs = mode === 'make' ? 1 : Number(runsArg ?? 5);
  const times = [];
  for (let r = 0; r < runs; r++) {
    times.push(await timed(`COPY t TO ${q(arg + '/duck.parquet')} (FORMAT parquet, COMPRESSION zstd)`));
    console.log(`duckdb write run ${r + 1}: ${times[r].toFixed(3)} s`);
  }
  console.log(`median ${median(times).toFixed(3)}`);
} else if (mode === 'scan') {
  const runs = Number(rowsOrRuns ?? 5);
  const cols = ['id', 'n', 'x', 's', 'dec', 'ts'];
  const sql = `SELECT ${cols.map((c) => `min(${c}), max(${c})`).join(', ')} FROM read_parquet(${q(arg)})`;
  const times = [];
  for (let r = 0; r < runs; r++) {
    times.push(await timed(sql));
    console.log(`duckdb scan run ${r + 1}: ${times[r].toFixed(3)} s`);
  }
  console.log(`median ${median(times).toFixed(3)}`);
}
