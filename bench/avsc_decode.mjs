// The peer of bench_manifest: decodes every record of an Avro container file with avsc
// (zstandard through fzstd), the fastest independent Avro reader that runs here, and
// prints the median time of RUNS.  usage: node bench/avsc_decode.mjs FILE [RUNS]
// Modules come from tests/interop/node_modules (scripts/setup-node.sh installs them).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '..', 'tests', 'interop', 'package.json'));
const avro = require('avsc');
const { decompress } = require('fzstd');

const [file, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 3);
const data = fs.readFileSync(file);
const codecs = { zstandard: (buf, cb) => cb(null, Buffer.from(decompress(buf))), null: (b, cb) => cb(null, b) };

const decodeOnce = () => new Promise((resolve, reject) => {
  let n = 0;
  const dec = new avro.streams.BlockDecoder({ codecs });
  dec.on('data', () => { n++; }).on('end', () => resolve(n)).on('error', reject);
  dec.end(data);
});

const times = [];
let count = 0;
for (let r = 0; r < runs; r++) {
  const t0 = process.hrtime.bigint();
  count = await decodeOnce();
  times.push(Number(process.hrtime.bigint() - t0) / 1e9);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(`avsc decode           ${median.toFixed(3)} s  ${(count / median / 1e6).toFixed(2)} M entries/s (median of ${runs}, ${count} entries)`);
