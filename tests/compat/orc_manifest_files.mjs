// Checks a listing of files (stdin, JSON lines) against the table itself, for tables whose
// manifests the oracle cannot read (ORC manifests).  The listing is one of
//   `paimon inspect TABLE files --snapshot N --format jsonl`  (file_name, file_size, row_count)
//   `paimon cat 'TABLE$files'`                                (file_path, file_size_in_bytes,
//                                                               record_count)
//   `paimon cat 'TABLE$manifests'`                            (file_name, file_size)
// and is checked so:
//   - every listed file exists under TABLE with exactly the recorded size;
//   - where rows are listed, they add up to the snapshot's totalRecordCount (Java keeps
//     that sum over the live files).
// Usage: node orc_manifest_files.mjs TABLE SNAPSHOT_FILE < listing.jsonl
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
let rows = 0, bad = 0, counted = false;
for (const line of lines) {
  const f = JSON.parse(line);
  const name = f.file_name ?? path.basename(f.file_path);
  const size = f.file_size ?? f.file_size_in_bytes;
  const count = f.row_count ?? f.record_count;
  if (count !== undefined) { rows += count; counted = true; }
  const found = sizes.get(name);
  if (!found) { console.log(`missing: ${name}`); bad++; }
  else if (!found.includes(size)) {
    console.log(`${name}: ${found.join('/')} bytes on disk, ${size} recorded`); bad++;
  }
}
if (counted && snapshot.totalRecordCount !== undefined && rows !== snapshot.totalRecordCount) {
  console.log(`row counts add up to ${rows}, the snapshot says ${snapshot.totalRecordCount}`); bad++;
}
console.log(`${lines.length} files`);
process.exit(bad ? 1 : 0);
