// The node half of the S3 test server's self-test (selftest.sh runs it with the server's
// AWS_* environment): requests signed by the AWS SDK's signer through client.mjs, for what
// curl cannot easily send: multipart uploads with a conditional complete, batch delete,
// keys that need encoding, ListObjectsV2 pages, and atomic overwrites under concurrent GETs.
import { s3request, makeSigner, listKeys, deleteKeys, putObject, getObject } from './client.mjs';

const B = 'warehouse';
let failed = 0;
function check(name, expected, actual) {
  const e = JSON.stringify(expected);
  const a = JSON.stringify(actual);
  if (e === a) console.log(`ok   ${name}`);
  else {
    console.log(`FAIL ${name}: expected ${e}, got ${a}`);
    failed = 1;
  }
}

// Signatures, from the SDK's signer.
check('sdk: signed PUT', 200, (await s3request('PUT', `/${B}/node/x`, { body: 'x' })).status);
check('sdk: UNSIGNED-PAYLOAD PUT', 200, (await s3request('PUT', `/${B}/node/y`, { body: 'y', payloadHash: 'UNSIGNED-PAYLOAD' })).status);
check('sdk: wrong secret', 403, (await s3request('GET', `/${B}/node/x`, { signer: makeSigner('wrong') })).status);
check('sdk: tampered payload', 400, (await s3request('PUT', `/${B}/node/z`, { body: 'z', payloadHash: 'a'.repeat(64) })).status);
check('sdk: streaming payload refused', 400, (await s3request('PUT', `/${B}/node/z`, { body: 'z', payloadHash: 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD' })).status);

// Keys that need encoding, through PUT, LIST, GET, HEAD and batch delete.
const odd = ['node/odd/a b', 'node/odd/a+b', 'node/odd/k=v&w', 'node/odd/é~*', "node/odd/(1)!'"];
for (const k of odd) check(`odd key PUT ${k}`, 200, (await s3request('PUT', `/${B}/${k}`, { body: k })).status);
check('odd keys listed', [...odd].sort(), (await listKeys(B, 'node/odd/')).sort());
for (const k of odd) check(`odd key GET ${k}`, k, (await getObject(B, k)).toString());
check('HEAD of an odd key', 200, (await s3request('HEAD', `/${B}/${odd[0]}`)).status);
await deleteKeys(B, odd);
check('batch delete removed them', [], await listKeys(B, 'node/odd/'));

// ListObjectsV2 pages.
await Promise.all(Array.from({ length: 25 }, (_, i) => putObject(B, `node/page/k${String(i).padStart(2, '0')}`, `${i}`)));
const pageRes = await s3request('GET', `/${B}`, { query: { 'list-type': '2', prefix: 'node/page/', 'max-keys': '10' } });
check('first page truncated', true, /<IsTruncated>true<\/IsTruncated>/.test(pageRes.body.toString()));
check('all pages', Array.from({ length: 25 }, (_, i) => `node/page/k${String(i).padStart(2, '0')}`), await listKeys(B, 'node/page/', 10));
const delim = await s3request('GET', `/${B}`, { query: { 'list-type': '2', prefix: 'node/', delimiter: '/' } });
check('delimiter gives common prefixes', ['node/page/'], [...delim.body.toString().matchAll(/<Prefix>(node\/[^<]+)<\/Prefix>/g)].map((m) => m[1]));
// Common prefixes that hold only deeper keys (partition folders), mixed with keys, paged
// with keys and prefixes both counted against max-keys.
for (const k of ['node/t/dt=1/bucket-0/data-a', 'node/t/dt=2/bucket-0/data-b', 'node/t/dt=2/bucket-1/data-c', 'node/t/a-key', 'node/t/z-key'])
  await putObject(B, k, 'x');
async function entries(prefix, maxKeys) {
  const out = [];
  let token;
  for (let pages = 0; pages < 20; pages++) {
    const query = { 'list-type': '2', prefix, delimiter: '/', 'max-keys': String(maxKeys) };
    if (token) query['continuation-token'] = token;
    const xml = (await s3request('GET', `/${B}`, { query })).body.toString();
    const page = [...xml.matchAll(/<(Key|Prefix)>([^<]*)<\/(?:Key|Prefix)>/g)].map((m) => m[2]).filter((n) => n !== prefix);
    if (page.length > maxKeys) throw new Error(`page of ${page.length} > ${maxKeys}`);
    out.push(...page);
    const next = /<NextContinuationToken>([^<]*)</.exec(xml);
    if (!next) return out;
    token = next[1];
  }
  throw new Error('too many pages');
}
const expectT = ['node/t/a-key', 'node/t/dt=1/', 'node/t/dt=2/', 'node/t/z-key'];
check('nested common prefixes', expectT, (await entries('node/t/', 1000)).sort());
check('nested common prefixes, pages of 1', expectT, await entries('node/t/', 1));
check('nested common prefixes, pages of 3', expectT, (await entries('node/t/', 3)).sort());
check('a partial prefix', ['node/t/dt=1/', 'node/t/dt=2/'], await entries('node/t/dt', 2));

// Multipart upload, completed conditionally.
async function multipart(key, parts, headers = {}) {
  const init = await s3request('POST', `/${B}/${key}`, { query: { uploads: '' } });
  const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(init.body.toString())[1];
  const etags = [];
  for (let i = 0; i < parts.length; i++) {
    const r = await s3request('PUT', `/${B}/${key}`, { query: { partNumber: String(i + 1), uploadId }, body: parts[i] });
    if (r.status !== 200) throw new Error(`part ${i + 1}: ${r.status}`);
    etags.push(r.headers.etag);
  }
  const body =
    '<CompleteMultipartUpload>' +
    etags.map((e, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${e}</ETag></Part>`).join('') +
    '</CompleteMultipartUpload>';
  return s3request('POST', `/${B}/${key}`, { query: { uploadId }, body, headers });
}
const p1 = Buffer.alloc(5 * 1024 * 1024, 'p');
const p2 = Buffer.from('tail');
const mpu = await multipart('node/mpu', [p1, p2], { 'if-none-match': '*' });
check('multipart complete', 200, mpu.status);
check('multipart object', Buffer.concat([p1, p2]).toString('base64').length, (await getObject(B, 'node/mpu')).toString('base64').length);
check('multipart bytes', true, Buffer.concat([p1, p2]).equals(await getObject(B, 'node/mpu')));
check('conditional complete on an existing key', 412, (await multipart('node/mpu', [Buffer.from('other')], { 'if-none-match': '*' })).status);
check('object unchanged after 412', p1.length + p2.length, (await getObject(B, 'node/mpu')).length);
check('range GET across parts', 'ptai', (await s3request('GET', `/${B}/node/mpu`, { headers: { range: `bytes=${p1.length - 1}-${p1.length + 2}` } })).body.toString());

// Overwrites are atomic: concurrent GETs see one whole version or the other.
const A = Buffer.alloc(1 << 20, 'a');
const Bv = Buffer.alloc(1 << 19, 'b');
await putObject(B, 'node/atomic', A);
let torn = 0;
let reads = 0;
const writers = (async () => {
  for (let i = 0; i < 30; i++) await putObject(B, 'node/atomic', i % 2 ? A : Bv);
})();
const readers = Array.from({ length: 4 }, async () => {
  for (let i = 0; i < 30; i++) {
    const r = await s3request('GET', `/${B}/node/atomic`);
    reads++;
    if (!(r.status === 200 && (r.body.equals(A) || r.body.equals(Bv)))) torn++;
  }
});
await Promise.all([writers, ...readers]);
check(`no torn reads during overwrites (${reads} reads)`, 0, torn);

if (failed) process.exitCode = 1;
process.exit();
