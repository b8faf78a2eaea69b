// Checks `paimon tail` on one table against its batch reads (`paimon cat`): the changes of
// snapshot N, applied to the rows of snapshot N-1, give the rows of snapshot N.
//
//   node tail_apply.mjs PAIMON_CLI TABLE   -> prints "checked E exact, W weak, S skipped pairs"
//
// What "give" means depends on the table (behaviour.md §4, §7.3):
//   exact   primary-key tables whose change stream carries every change: a changelog
//           producer (input, lookup, full-compaction), or producer none with the deduplicate
//           engine, no sequence.field and no deletion vectors.  +I/+U upsert the key, -U/-D
//           remove it; the result must equal snapshot N's rows exactly.
//           Append tables: snapshot N's rows are snapshot N-1's plus the +I rows (multisets).
//   weak    other primary-key tables (partial-update, aggregation, first-row, sequence.field,
//           deletion vectors whose batch reads skip level 0): every key whose row differs
//           between N-1 and N must appear in the changes of some snapshot up to N (a change
//           can surface in the batch read one COMPACT later); the rows themselves need not
//           match, since a none-producer stream reports each flush's records, not the merge.
//   full-compaction (primary keys): only compactions into the max level write changes, the
//           change between each key's max-level record before and its merged result after.
//           So the changes are applied to the state of the last snapshot whose files all sit
//           at the max level ("settled"; empty before snapshot 1), and at the next settled
//           snapshot the result must equal its rows exactly.  Other snapshots are skipped.
//   Every snapshot Java's streaming read skips (producer none: COMPACT and OVERWRITE; the
//   producers: snapshots without a changelog list) must give no rows, and for producer none
//   a COMPACT snapshot must not change the rows of an exact table.  OVERWRITE pairs and pairs
//   across a schema change (the batch read uses the snapshot's schema, tail the latest) are
//   only checked for the empty output.
// Then the whole range at once (below): for exact and append tables starting at snapshot 1,
// and deduplicate tables with deletion vectors whose latest snapshot has no level-0 file.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const [cli, table] = process.argv.slice(2);
const KINDS = new Set(['+I', '-U', '+U', '-D']);

function run(args) {
  return execFileSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 })
    .split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l));
}
function fail(msg) {
  console.log(`FAIL: ${table}: ${msg}`);
  process.exitCode = 1;
}

const ids = readdirSync(join(table, 'snapshot'))
  .map((f) => /^snapshot-(\d+)$/.exec(f)).filter(Boolean).map((m) => Number(m[1]))
  .sort((a, b) => a - b);
const schemaIds = readdirSync(join(table, 'schema'))
  .map((f) => /^schema-(\d+)$/.exec(f)).filter(Boolean).map((m) => Number(m[1]));
const latestSchemaId = Math.max(...schemaIds);
const schema = JSON.parse(readFileSync(join(table, 'schema', `schema-${latestSchemaId}`), 'utf8'));
const opts = schema.options || {};
const pk = schema.primaryKeys || [];
const producer = (opts['changelog-producer'] || 'none').toLowerCase();
const engine = (opts['merge-engine'] || 'deduplicate').toLowerCase();
const dv = String(opts['deletion-vectors.enabled']).toLowerCase() === 'true';
const exactPk = pk.length > 0 &&
  (producer !== 'none' || (engine === 'deduplicate' && !opts['sequence.field'] && !dv));

const snap = (id) => JSON.parse(readFileSync(join(table, 'snapshot', `snapshot-${id}`), 'utf8'));
const keyOf = (row) => JSON.stringify(pk.map((k) => row[k]));
const strip = (row) => {
  const { _ROW_KIND, ...rest } = row;
  return JSON.stringify(rest);
};
const asMap = (rows) => new Map(rows.map((r) => [keyOf(r), strip(r)]));
const asBag = (rows) => rows.map(strip).sort();
const sameMap = (a, b) => a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
const sameBag = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

const fullCl = pk.length > 0 && producer === 'full-compaction';
const maxLevel = Number(opts['num-levels'] ??
  (Number(opts['num-sorted-run.compaction-trigger'] ?? 5) + 1)) - 1;
const settled = (id) => run(['inspect', table, 'files', '--snapshot', String(id), '--format', 'jsonl'])
  .every((f) => f.level === maxLevel);
const applyTo = (state, changes) => {
  for (const c of changes) {
    if (c._ROW_KIND === '+I' || c._ROW_KIND === '+U') state.set(keyOf(c), strip(c));
    else state.delete(keyOf(c));
  }
};
let fullState = ids[0] === 1 ? new Map() : null;

let exact = 0, weak = 0, skipped = 0;
let prevRows = null, prevSchema = null;
const seenKeys = new Set();
for (const id of ids) {
  const s = snap(id);
  const rows = run(['cat', table, '--snapshot', String(id)]);
  const changes = run(['tail', table, '--from', `snapshot:${id}`, '--to', `snapshot:${id}`]);
  const names = schema.fields.map((f) => f.name);
  for (const c of changes) {
    const keys = Object.keys(c);
    if (keys[0] !== '_ROW_KIND' || !KINDS.has(c._ROW_KIND))
      fail(`S${id}: change without a leading _ROW_KIND: ${JSON.stringify(c)}`);
    if (JSON.stringify(keys.slice(1)) !== JSON.stringify(names))
      fail(`S${id}: change columns ${keys.slice(1)} are not the latest schema's ${names}`);
    if (pk.length === 0 && c._ROW_KIND !== '+I')
      fail(`S${id}: append table change of kind ${c._ROW_KIND}`);
    seenKeys.add(keyOf(c));
  }
  const streamed = producer === 'none' || pk.length === 0
    ? s.commitKind === 'APPEND' : s.changelogManifestList != null;
  if (!streamed && changes.length > 0)
    fail(`S${id} (${s.commitKind}): Java's streaming read skips it, tail gave ${changes.length} rows`);
  // The state before the first snapshot is empty only when the table starts at snapshot 1.
  const before = prevRows ?? (id === 1 ? [] : null);
  const sameSchema = prevRows == null ? s.schemaId === latestSchemaId
    : s.schemaId === latestSchemaId && prevSchema === latestSchemaId;
  if (fullCl) {
    if (fullState != null) applyTo(fullState, changes);
    if (!settled(id) || s.schemaId !== latestSchemaId || s.commitKind === 'OVERWRITE') {
      skipped++;
    } else if (fullState == null) {
      fullState = asMap(rows);
      skipped++;
    } else {
      const want = asMap(rows);
      if (!sameMap(fullState, want)) {
        const diff = [...new Set([...fullState.keys(), ...want.keys()])]
          .filter((k) => fullState.get(k) !== want.get(k)).slice(0, 3)
          .map((k) => `${k}: applied ${fullState.get(k)} vs read ${want.get(k)}`);
        fail(`S${id}: the changes since the last settled snapshot do not give S${id}: ${diff.join('; ')}`);
      }
      fullState = want;
      exact++;
    }
  } else if (before == null || !sameSchema || s.commitKind === 'OVERWRITE') {
    skipped++;
  } else if (pk.length === 0) {
    const want = asBag(rows), got = asBag([...before, ...changes]);
    if (!sameBag(want, got))
      fail(`S${id}: rows of S${id - 1} plus its changes (${got.length}) are not the rows of S${id} (${want.length})`);
    exact++;
  } else if (exactPk) {
    const state = asMap(before);
    for (const c of changes) {
      if (c._ROW_KIND === '+I' || c._ROW_KIND === '+U') state.set(keyOf(c), strip(c));
      else state.delete(keyOf(c));
    }
    if (!sameMap(state, asMap(rows))) {
      const want = asMap(rows);
      const diff = [...new Set([...state.keys(), ...want.keys()])]
        .filter((k) => state.get(k) !== want.get(k)).slice(0, 3)
        .map((k) => `${k}: applied ${state.get(k)} vs read ${want.get(k)}`);
      fail(`S${id}: applying its changes to S${id - 1} does not give S${id}: ${diff.join('; ')}`);
    }
    exact++;
  } else {
    const a = asMap(before), b = asMap(rows);
    for (const k of new Set([...a.keys(), ...b.keys()]))
      if (a.get(k) !== b.get(k) && !seenKeys.has(k))
        fail(`S${id}: key ${k} changed (${a.get(k)} -> ${b.get(k)}) but no change named it`);
    weak++;
  }
  prevRows = rows;
  prevSchema = s.schemaId;
}
// The whole range in one read: from an empty table (snapshot 1 still there) and without
// overwrites, every change of `tail --from earliest` applied in order gives the latest rows,
// also across schema changes (both reads use the latest schema then).
// Deduplicate tables with deletion vectors qualify once their latest snapshot has no
// level-0 file left (the batch read skips level 0 and sees everything only then).
const dvSettled = pk.length > 0 && !exactPk && producer === 'none' && engine === 'deduplicate' &&
  !opts['sequence.field'] && dv && ids.length > 0 &&
  run(['cat', `${table}$files`, '--where', 'level = 0']).length === 0;
let whole = 'not checked';
if (ids.length > 0 && ids[0] === 1 && (pk.length === 0 || exactPk || dvSettled) &&
    (!fullCl || settled(ids[ids.length - 1])) &&
    ids.every((id) => snap(id).commitKind !== 'OVERWRITE')) {
  const all = run(['tail', table, '--from', 'earliest']);
  const latest = run(['cat', table]);
  if (pk.length === 0) {
    if (!sameBag(asBag(all), asBag(latest)))
      fail(`tail --from earliest (${all.length} rows) is not the latest snapshot's rows (${latest.length})`);
  } else {
    const state = new Map();
    for (const c of all) {
      if (c._ROW_KIND === '+I' || c._ROW_KIND === '+U') state.set(keyOf(c), strip(c));
      else state.delete(keyOf(c));
    }
    if (!sameMap(state, asMap(latest)))
      fail('applying tail --from earliest to an empty table does not give the latest rows');
  }
  whole = 'checked';
}
console.log(`${table}: checked ${exact} exact, ${weak} weak, ${skipped} skipped pairs; whole range ${whole}`);
