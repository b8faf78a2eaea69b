// Every Parquet data file of the fixtures: paimon-c decodes it, with the row count of its
// footer, of DuckDB's count(*) and of its manifest entry (_ROW_COUNT, and _FILE_SIZE equal
// to the file's size, for every table whose manifests paimon-c reads: `paimon inspect
// files` over all snapshots), and the same rows as DuckDB's read_parquet (INT96 columns from
// hyparquet, which keeps their nanoseconds).  Usage: node parquet_fixtures.mjs FIXTURES
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { duck, duckLines, compareLines, fieldsFromMeta, sqlString } from './parquet_lib.mjs';

const cli = process.env.PAIMON_CLI;
const root = process.argv[2];

function walk(dir, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.name.endsWith('.parquet')) out.push(p);
  }
  return out;
}

const files = walk(root, []).sort();
let failed = 0, rows = 0, againstManifest = 0, orcTables = 0;

// file name -> {row_count, file_size} from the manifests of every snapshot of every table
const manifestEntries = new Map();
for (const t of fs.readdirSync(root, { withFileTypes: true })) {
  const table = path.join(root, t.name);
  if (!t.isDirectory() || !fs.existsSync(path.join(table, 'schema'))) continue;
  try {
    const snaps = execFileSync(cli, ['inspect', table, 'snapshots', '--format', 'jsonl'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    for (const line of snaps.split('\n').filter(Boolean)) {
      const id = JSON.parse(line).id;
      const out = execFileSync(cli, ['inspect', table, 'files', '--snapshot', String(id), '--format', 'jsonl'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      for (const f of out.split('\n').filter(Boolean).map((l) => JSON.parse(l))) manifestEntries.set(f.file_name, f);
    }
  } catch (e) {
    if (/ORC manifests/.test(String(e.stderr))) orcTables++;
    else { failed++; console.log(`FAIL inspect ${t.name}: ${String(e.stderr).trim()}`); }
  }
}
const con = await duck();
for (const f of files) {
  try {
    const meta = execFileSync(cli, ['file', 'meta', f], { encoding: 'utf8' });
    const fields = fieldsFromMeta(meta);
    const footer = Number(/^rows: (\d+)$/m.exec(meta)[1]);
    const out = execFileSync(cli, ['file', 'cat', f, '--format', 'jsonl'], { encoding: 'utf8', maxBuffer: 1 << 30 });
    const mine = out.split('\n').filter((l) => l.length > 0);
    const count = Number((await con.runAndReadAll(`SELECT count(*) AS n FROM read_parquet(${sqlString(f)})`)).getRows()[0][0]);
    if (mine.length !== footer || mine.length !== count) throw new Error(`paimon-c read ${mine.length} rows, footer ${footer}, DuckDB ${count}`);
    const entry = manifestEntries.get(path.basename(f));
    if (entry) {
      if (entry.row_count !== mine.length) throw new Error(`manifest _ROW_COUNT ${entry.row_count}, read ${mine.length}`);
      if (entry.file_size !== fs.statSync(f).size) throw new Error(`manifest _FILE_SIZE ${entry.file_size}, file ${fs.statSync(f).size}`);
      againstManifest++;
    }
    const int96 = [...meta.matchAll(/^\s+\w+ int96 (\S+)/gm)].map((m) => m[1]).filter((n) => fields.some((x) => x.name === n));
    const theirs = await duckLines(f, fields, int96);
    const diff = compareLines(mine, theirs, path.relative(root, f));
    if (diff) throw new Error(diff);
    rows += mine.length;
  } catch (e) {
    failed++;
    console.log(`FAIL ${path.relative(root, f)}: ${e.message}`);
  }
}
console.log(`${files.length} Parquet fixture files, ${rows} rows; ${againstManifest} checked against their manifest entry (${orcTables} tables keep ORC manifests, not read yet)`);
console.log(`${files.length - failed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
