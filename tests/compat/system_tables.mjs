// Checks paimon-c's system tables against what independent readers say about the same
// metadata (run by system_tables.test.sh with TZ=UTC):
//
//   node system_tables.mjs snapshots TABLE OURS.jsonl
//       OURS = `paimon cat 'TABLE$snapshots'`; expected from the snapshot JSON files.
//   node system_tables.mjs manifests TABLE SNAPSHOT OURS.jsonl
//       OURS = `paimon cat 'TABLE$manifests' --snapshot N`; expected from the manifest lists,
//       decoded by the oracle's Avro reader (base, delta, changelog, in list order).
//   node system_tables.mjs files ORACLE.jsonl LATEST_ORACLE.jsonl OURS.jsonl
//       ORACLE = `oracle.mjs TABLE --snapshot N --files`, LATEST_ORACLE the same for the
//       latest snapshot; OURS = `paimon cat 'TABLE$files' --snapshot N`.  Expected: the
//       oracle's files without postpone buckets, in the partitions the latest snapshot has
//       (Java lists partitions without time travel), compared as multisets.
//
// Prints the differences and exits 1 when there are any.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const oracleDir = process.env.ORACLE_DIR;
const { readAvroFile } = await import(pathToFileURL(path.resolve(oracleDir, 'lib/avro.mjs')).href);

const readJsonl = (file) =>
  fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l));

// Java's TIMESTAMP(3) text of epoch millis in UTC ("2025-08-27 03:42:51.183").
const utcMillis = (ms) => new Date(Number(ms)).toISOString().replace('T', ' ').replace('Z', '');

const num = (v) => (v === null || v === undefined ? null : Number(v));
// avsc gives nullable fields as the value or as {long: v} depending on the schema.
const unwrap = (v) => (v !== null && typeof v === 'object' && !Buffer.isBuffer(v) ? Object.values(v)[0] : v);

let failures = 0;
function compare(what, expected, ours) {
  const key = (r) => JSON.stringify(r);
  const want = expected.map(key).sort();
  const got = ours.map(key).sort();
  const missing = want.filter((x) => !got.includes(x));
  const extra = got.filter((x) => !want.includes(x));
  if (want.length !== got.length || missing.length || extra.length) {
    failures++;
    console.log(`${what}: ${got.length} rows, expected ${want.length}`);
    for (const m of missing.slice(0, 5)) console.log(`  missing: ${m}`);
    for (const e of extra.slice(0, 5)) console.log(`  unexpected: ${e}`);
  }
}

function snapshots(table, oursFile) {
  const dir = path.join(table, 'snapshot');
  const expected = fs
    .readdirSync(dir)
    .filter((n) => /^snapshot-\d+$/.test(n))
    .map((n) => JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8')))
    .map((s) => ({
      snapshot_id: s.id,
      schema_id: s.schemaId,
      commit_user: s.commitUser,
      commit_identifier: num(s.commitIdentifier),
      commit_kind: s.commitKind,
      commit_time: utcMillis(s.timeMillis),
      base_manifest_list: s.baseManifestList,
      delta_manifest_list: s.deltaManifestList,
      changelog_manifest_list: s.changelogManifestList ?? null,
      total_record_count: num(s.totalRecordCount),
      delta_record_count: num(s.deltaRecordCount),
      changelog_record_count: num(s.changelogRecordCount),
      watermark: num(s.watermark),
      next_row_id: num(s.nextRowId),
    }));
  compare(`${path.basename(table)} $snapshots`, expected, readJsonl(oursFile));
}

function manifests(table, snapshotId, oursFile) {
  const snap = JSON.parse(fs.readFileSync(path.join(table, 'snapshot', `snapshot-${snapshotId}`), 'utf8'));
  const expected = [];
  for (const list of [snap.baseManifestList, snap.deltaManifestList, snap.changelogManifestList]) {
    if (!list) continue;
    for (const m of readAvroFile(path.join(table, 'manifest', list)).records) {
      expected.push({
        file_name: m._FILE_NAME,
        file_size: num(m._FILE_SIZE),
        num_added_files: num(m._NUM_ADDED_FILES),
        num_deleted_files: num(m._NUM_DELETED_FILES),
        schema_id: num(m._SCHEMA_ID),
        min_row_id: num(unwrap(m._MIN_ROW_ID)),
        max_row_id: num(unwrap(m._MAX_ROW_ID)),
      });
    }
  }
  const ours = readJsonl(oursFile).map((r) => {
    const { min_partition_stats: _a, max_partition_stats: _b, ...rest } = r;
    return rest;
  });
  // list order is part of the table: check it besides the multiset
  const order = (rows) => rows.map((r) => r.file_name).join(',');
  if (order(expected) !== order(ours)) {
    failures++;
    console.log(`${path.basename(table)} $manifests S${snapshotId}: order differs`);
  }
  compare(`${path.basename(table)} $manifests S${snapshotId}`, expected, ours);
}

// "{v1, v2}" of the oracle's canonical partition object (enough for the fixtures' integer,
// string and date partitions, whose canonical text is Java's cast text).
const partitionText = (p) =>
  `{${Object.values(p)
    .map((v) => (v === null ? 'null' : String(v)))
    .join(', ')}}`;

function files(oracleFile, latestFile, oursFile) {
  const latest = new Set(readJsonl(latestFile).map((f) => partitionText(f.partition)));
  const expected = readJsonl(oracleFile)
    .filter((f) => f.bucket !== -2 && latest.has(partitionText(f.partition)))
    .map((f) => ({
      partition: partitionText(f.partition),
      bucket: f.bucket,
      level: f.level,
      file_name: f.file_name,
      record_count: f.row_count,
      file_size_in_bytes: f.file_size,
      min_sequence_number: f.min_sequence_number,
      max_sequence_number: f.max_sequence_number,
      schema_id: f.schema_id,
      deleteRowCount: f.delete_row_count,
    }));
  const ours = readJsonl(oursFile).map((r) => ({
    partition: r.partition,
    bucket: r.bucket,
    level: r.level,
    file_name: path.basename(r.file_path),
    record_count: r.record_count,
    file_size_in_bytes: r.file_size_in_bytes,
    min_sequence_number: r.min_sequence_number,
    max_sequence_number: r.max_sequence_number,
    schema_id: r.schema_id,
    deleteRowCount: r.deleteRowCount,
  }));
  compare(`${oursFile} $files`, expected, ours);
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'snapshots') snapshots(args[0], args[1]);
else if (mode === 'manifests') manifests(args[0], args[1], args[2]);
else if (mode === 'files') files(args[0], args[1], args[2]);
else throw new Error(`unknown mode ${mode}`);
process.exitCode = failures ? 1 : 0;
