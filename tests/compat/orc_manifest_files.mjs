// Checks `paimon inspect TABLE files --snapshot N --format jsonl` (stdin) against the table
// itself, for tables whose manifests the oracle cannot read (ORC manifests):
//   - every listed file exists under TABLE with exactly the recorded file_size;
//   - the row counts add up to the snapshot's totalRecordCount (Java keeps that sum).
// Usage: node orc_manifest_files.mjs TABLE SNAPSHOT_FILE < files.jsonl
import fs from 'node:fs';
import path from 'node:path';

const [table, snapshotFile] = process.argv.slice(2);
const sizes = new Map(); // file name -> [size, ...]
(function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.isFile()) sizes.set(e.name, [...(sizes.get(e.name) || []), fs.statSync(p).size]);
  }
})(table);
const snapshot = JSON.parse(fs.readFileSync(snapshotFile, 'utf8'));
const lines = fs.readFileSync(0, 'utf8').split('\n').filter(Boolean);
let rows = 0, bad = 0;
for (const line of lines) {
  const f = JSON.parse(line);
  rows += f.row_count;
  const found = sizes.get(f.file_name);
  if (!found) { console.log(`missing: ${f.file_name}`); bad++; }
  else if (!found.includes(f.file_size)) {
    console.log(`${f.file_name}: ${found.join('/')} bytes on disk, ${f.file_size} recorded`); bad++;
  }
}
if (snapshot.totalRecordCount !== undefined && rows !== snapshot.totalRecordCount) {
  console.log(`row counts add up to ${rows}, the snapshot says ${snapshot.totalRecordCount}`); bad++;
}
console.log(`${lines.length} files`);
process.exit(bad ? 1 : 0);
