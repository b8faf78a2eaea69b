// The S3 server of the tests: s3rver (a real S3 protocol server storing objects on disk)
// behind a proxy of our own, because s3rver alone is too lenient to test a client against:
//  - it never verifies SigV4 signatures: the proxy re-signs every request with the AWS SDK's
//    signer (@smithy/signature-v4) and answers 403 SignatureDoesNotMatch on a mismatch, and
//    400 XAmzContentSHA256Mismatch when a hex payload hash does not match the body;
//  - it ignores `If-None-Match: *`: the proxy implements it (PUT and CompleteMultipartUpload,
//    412 PreconditionFailed) and OSS's `x-oss-forbid-overwrite: true` (409 FileAlreadyExists),
//    atomically per key;
//  - its writes are not atomic (a GET can see half an object, a response can precede the
//    flush): the proxy takes a per-key read/write lock around every object operation, and the
//    store's putObject/putPart are replaced by write-to-temp-then-rename versions;
//  - it takes any part list: the proxy refuses a CompleteMultipartUpload whose parts are not
//    in ascending order (400 InvalidPartOrder), as AWS does, and, when told a minimum part
//    size (admin /config?min_part=BYTES; AWS's is 5 MiB, the tests use smaller parts), one
//    with a part but the last below it (400 EntityTooSmall);
//  - it has no faults: the proxy injects them (500, 503 SlowDown, dropped connections before,
//    during and after the request lands, latency) on command of an admin endpoint, and counts
//    every request by method and kind, with a log of the last requests.
// Usage: node server.mjs [--dir BASE] [--bucket NAME] [--ignore-stdin]
// Prints one JSON line {"endpoint": ..., "admin": ...} on stdout when ready; stops (removing
// its data) on SIGTERM, SIGINT or when stdin closes. tests/s3/README.md documents the admin API.
import http from 'node:http';
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import S3rver from 's3rver';
import { SignatureV4 } from '@smithy/signature-v4';
import { Hash } from '@smithy/hash-node';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';
const REGION = 'us-east-1';
const BUCKET = opt('--bucket', process.env.S3_BUCKET || 'warehouse');
const base = opt('--dir', process.env.S3_SERVER_DIR || os.tmpdir());
fs.mkdirSync(base, { recursive: true });
const root = fs.mkdtempSync(path.join(base, 's3server-'));
const dataDir = path.join(root, 'data');
const tmpDir = path.join(root, 'tmp');
fs.mkdirSync(dataDir);
fs.mkdirSync(tmpDir);

// ---------------------------------------------------------------------------------------
// s3rver, with atomic writes.
const s3 = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: dataDir,
  configureBuckets: [{ name: BUCKET, configs: [] }],
});
const store = s3.store;
let tmpSeq = 0;
const tmpName = () => path.join(tmpDir, `${process.pid}-${++tmpSeq}`);

// Streams content (a Buffer or a readable) to a temp file, resolving once it is on disk;
// returns [tmpPath, size, md5]. A source that fails or ends early leaves nothing behind.
async function writeTemp(content) {
  const tmp = tmpName();
  const md5 = crypto.createHash('md5');
  let size = 0;
  const count = new Transform({
    transform(chunk, enc, cb) {
      md5.update(chunk);
      size += chunk.length;
      cb(null, chunk);
    },
  });
  try {
    if (Buffer.isBuffer(content)) {
      count.end(content);
      await pipeline(count, fs.createWriteStream(tmp));
    } else {
      await pipeline(content, count, fs.createWriteStream(tmp));
    }
  } catch (err) {
    await fsp.rm(tmp, { force: true });
    throw err;
  }
  return [tmp, size, md5.digest('hex')];
}

async function renameInto(tmp, dest) {
  for (let attempt = 0; ; attempt++) {
    try {
      await fsp.mkdir(path.dirname(dest), { recursive: true });
      await fsp.rename(tmp, dest);
      return;
    } catch (err) {
      // A concurrent delete may remove the (empty) parent between mkdir and rename.
      if (err.code !== 'ENOENT' || attempt > 20) {
        await fsp.rm(tmp, { force: true });
        throw err;
      }
    }
  }
}

store.putObject = async function putObject(object) {
  const dest = this.getResourcePath(object.bucket, object.key, 'object');
  const [tmp, size, md5] = await writeTemp(object.content);
  await renameInto(tmp, dest);
  await this.putMetadata(object.bucket, object.key, object.metadata, md5);
  return { size, md5 };
};

store.putPart = async function putPart(bucket, uploadId, partNumber, content) {
  const dest = path.join(this.getResourcePath(bucket, undefined, 'uploads'), uploadId, String(partNumber));
  const [tmp, size, md5] = await writeTemp(content);
  await renameInto(tmp, dest);
  await fsp.writeFile(`${dest}.md5`, md5);
  return { size, md5 };
};

store.deleteObject = async function deleteObject(bucket, key) {
  await Promise.all(
    ['object', 'object.md5', 'metadata.json'].map((r) => fsp.rm(this.getResourcePath(bucket, key, r), { force: true })),
  );
  // Remove the directories the delete emptied; a concurrent write may refill them.
  const parts = key.split('/');
  parts.pop();
  while (parts.length) {
    try {
      await fsp.rmdir(path.join(this.getBucketPath(bucket), ...parts));
    } catch {
      break;
    }
    parts.pop();
  }
};

// ---------------------------------------------------------------------------------------
// Per-key read/write locks: reads share, writes exclude, so that an object operation seen
// through the proxy is atomic (s3rver's are several file operations).
const locks = new Map();
function lockState(key) {
  let s = locks.get(key);
  if (!s) locks.set(key, (s = { readers: 0, writer: false, queue: [] }));
  return s;
}
function pump(key, s) {
  while (s.queue.length) {
    const w = s.queue[0];
    if (s.writer || (w.write && s.readers > 0)) break;
    s.queue.shift();
    if (w.write) s.writer = true;
    else s.readers++;
    w.resolve();
    if (w.write) break;
  }
  if (!s.writer && s.readers === 0 && s.queue.length === 0) locks.delete(key);
}
async function acquire(key, write) {
  const s = lockState(key);
  await new Promise((resolve) => {
    s.queue.push({ write, resolve });
    pump(key, s);
  });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (write) s.writer = false;
    else s.readers--;
    pump(key, s);
  };
}
async function acquireAll(keys, write) {
  const releases = [];
  for (const k of [...new Set(keys)].sort()) releases.push(await acquire(k, write));
  return () => releases.reverse().forEach((r) => r());
}

// ---------------------------------------------------------------------------------------
// Counters, request log and faults.
const LOG_SIZE = 1000;
let counts;
let log;
let seq = 0;
// Requests of each kind being handled now (not reset: a reset while some are in flight
// must not make their ends count below zero), and the most at once since the last reset.
const inFlight = {};
function resetCounts() {
  counts = { total: 0, byMethod: {}, byKind: {}, byStatus: {}, faults: 0, rejected: 0, maxInFlight: {} };
  for (const kind in inFlight) if (inFlight[kind] > 0) counts.maxInFlight[kind] = inFlight[kind];
  log = [];
}
resetCounts();
let faults = []; // {fault, nth, times, p, rng, method, kind, match, seen, fired}
let latencyMs = 0;
let minPart = 0; // /config?min_part: CompleteMultipartUpload's smallest part but the last

const FAULTS = ['500', 'land-500', '503', '429', '400-timeout', 'drop', 'drop-body', 'land-drop', 'list-loop', 'list-nested'];

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Which fault (if any) the request gets. Rules are tried in order; a rule counts only the
// requests it matches.
function pickFault(r) {
  for (const rule of faults) {
    if (rule.method && rule.method !== r.method) continue;
    if (rule.kind && rule.kind !== r.kind) continue;
    if (rule.match && !rule.match.test(r.key === undefined ? r.path : `${r.bucket}/${r.key}`)) continue;
    rule.seen++;
    const fire = rule.nth !== undefined ? rule.seen >= rule.nth && rule.seen < rule.nth + rule.times : rule.rng() < rule.p;
    if (fire) {
      rule.fired++;
      return rule.fault;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------
// The request's shape: bucket, key, query and what kind of S3 operation it is.
function parseRequest(req) {
  const [rawPath, rawQuery = ''] = req.url.split(/\?(.*)/s);
  const query = {};
  for (const part of rawQuery.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const k = decodeURIComponent(eq < 0 ? part : part.slice(0, eq));
    const v = eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1));
    if (k in query) query[k] = [].concat(query[k], v);
    else query[k] = v;
  }
  const m = rawPath.match(/^\/([^/]+)(?:\/(.*))?$/);
  const bucket = m ? decodeURIComponent(m[1]) : undefined;
  const key = m && m[2] ? decodeURIComponent(m[2]) : undefined;
  const method = req.method;
  let kind = 'OTHER';
  if (key === undefined) {
    if (method === 'GET' && bucket) kind = 'LIST';
    else if (method === 'POST' && 'delete' in query) kind = 'BATCH_DELETE';
    else if (method === 'HEAD') kind = 'HEAD_BUCKET';
  } else if (method === 'GET') kind = 'GET';
  else if (method === 'HEAD') kind = 'HEAD';
  else if (method === 'PUT') {
    if ('uploadId' in query) kind = 'UPLOAD_PART';
    else if (req.headers['x-amz-copy-source']) kind = 'COPY';
    else kind = 'PUT';
  } else if (method === 'POST') {
    if ('uploads' in query) kind = 'MPU_INIT';
    else if ('uploadId' in query) kind = 'MPU_COMPLETE';
  } else if (method === 'DELETE') kind = 'uploadId' in query ? 'MPU_ABORT' : 'DELETE';
  return { rawPath, rawQuery, query, bucket, key, method, kind, path: rawPath };
}

const xmlEscape = (s) =>
  String(s).replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]);

// A listing page no correct store sends, for the client's defences: `list-loop` is truncated
// and names the continuation token it was asked with (a client trusting it never ends);
// `list-nested` lists, besides the child `ok`, a key below a child although the request had
// delimiter=/ (a client must not take `nested/child` for an entry).
function brokenListing(r, res, fault) {
  const prefix = r.query.prefix || '';
  const esc = (t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const token = r.query['continuation-token'] || 'loop';
  const truncated = fault === 'list-loop';
  const body = '<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult>' +
    `<Name>${esc(r.bucket)}</Name><Prefix>${esc(prefix)}</Prefix><KeyCount>2</KeyCount>` +
    `<IsTruncated>${truncated}</IsTruncated>` +
    (truncated ? `<NextContinuationToken>${esc(token)}</NextContinuationToken>` : '') +
    `<Contents><Key>${esc(prefix)}ok</Key><Size>1</Size></Contents>` +
    `<Contents><Key>${esc(prefix)}nested/child</Key><Size>1</Size></Contents>` +
    '</ListBucketResult>';
  res.writeHead(200, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function sendError(res, status, code, message, resource, extra = {}, moreHeaders = {}) {
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n<Error>' +
    `<Code>${code}</Code><Message>${xmlEscape(message)}</Message>` +
    Object.entries(extra)
      .map(([k, v]) => `<${k}>${xmlEscape(v)}</${k}>`)
      .join('') +
    `<Resource>${xmlEscape(resource)}</Resource><RequestId>${crypto.randomBytes(8).toString('hex')}</RequestId></Error>`;
  const headers = { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) };
  if (status === 503) headers['retry-after'] = '1';
  Object.assign(headers, moreHeaders);
  res.writeHead(status, headers);
  res.end(body);
}

// ---------------------------------------------------------------------------------------
// SigV4 verification: re-sign the request with the SDK's signer and compare.
const signer = new SignatureV4({
  credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY },
  region: REGION,
  service: 's3',
  sha256: Hash.bind(null, 'sha256'),
  uriEscapePath: false,
  applyChecksum: false,
});

function parseAuthorization(value) {
  const m = /^AWS4-HMAC-SHA256\s+(.*)$/s.exec(value || '');
  if (!m) return null;
  const fields = {};
  for (const part of m[1].split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) fields[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  if (!fields.Credential || !fields.SignedHeaders || !fields.Signature) return null;
  return fields;
}

// Returns null when the request is correctly signed, else [status, code, message].
async function verifySignature(req, r) {
  const auth = parseAuthorization(req.headers.authorization);
  if (!req.headers.authorization) return [403, 'AccessDenied', 'Anonymous access is forbidden (no Authorization header)'];
  if (!auth) return [400, 'AuthorizationHeaderMalformed', 'The Authorization header is not AWS4-HMAC-SHA256'];
  const [accessKey, ...scope] = auth.Credential.split('/');
  if (accessKey !== ACCESS_KEY) return [403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.'];
  const amzDate = req.headers['x-amz-date'];
  const dm = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate || '');
  if (!dm) return [403, 'AccessDenied', 'x-amz-date is missing or malformed'];
  if (scope.length !== 4 || scope[0] !== amzDate.slice(0, 8) || scope[2] !== 's3' || scope[3] !== 'aws4_request')
    return [400, 'AuthorizationHeaderMalformed', `bad credential scope ${scope.join('/')}`];
  if (scope[1] !== REGION)
    return [400, 'AuthorizationHeaderMalformed', `the region '${scope[1]}' is wrong; expecting '${REGION}'`];
  if (!req.headers['x-amz-content-sha256'])
    return [400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256'];
  const signed = auth.SignedHeaders.split(';');
  if (!signed.includes('host') || !signed.includes('x-amz-date') || !signed.includes('x-amz-content-sha256'))
    return [403, 'SignatureDoesNotMatch', `SignedHeaders must include host, x-amz-date and x-amz-content-sha256 (got ${auth.SignedHeaders})`];
  const headers = {};
  for (const h of signed) {
    if (req.headers[h] === undefined) return [403, 'SignatureDoesNotMatch', `signed header ${h} is not in the request`];
    headers[h] = String(req.headers[h]);
  }
  const signingDate = new Date(Date.UTC(+dm[1], +dm[2] - 1, +dm[3], +dm[4], +dm[5], +dm[6]));
  const signedReq = await signer.sign(
    { method: req.method, protocol: 'http:', hostname: '127.0.0.1', path: r.rawPath, query: r.query, headers },
    { signingDate, signableHeaders: new Set(signed) },
  );
  const expected = parseAuthorization(signedReq.headers.authorization);
  if (expected.SignedHeaders !== auth.SignedHeaders || expected.Signature !== auth.Signature.toLowerCase())
    return [
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    ];
  return null;
}

// ---------------------------------------------------------------------------------------
// ListObjectsV2, answered by the proxy from s3rver's files: s3rver's continuation tokens
// are DES-encrypted, which OpenSSL 3 (Node >= 17) refuses, so its paging answers 500; with a
// delimiter it prunes folders before looking into them, so a common prefix holding only
// deeper keys (a/b/c with prefix a/ and delimiter /) is missed; and it counts only keys, not
// common prefixes, against max-keys. Here the keys under the prefix are walked, entries are
// keys and common prefixes merged in order as S3 does, and the token is the last entry of
// the page, base64-encoded.
const OBJECT_SUFFIX = '._S3rver_object';
async function keysUnder(bucket, prefix) {
  const bucketPath = store.getBucketPath(bucket);
  const keys = [];
  async function walkDir(rel) {
    let entries;
    try {
      entries = await fsp.readdir(rel ? path.join(bucketPath, rel) : bucketPath, { withFileTypes: true });
    } catch {
      return; // gone meanwhile, or never there
    }
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!e.name.startsWith('._S3rver_') && (`${r}/`.startsWith(prefix) || prefix.startsWith(`${r}/`))) await walkDir(r);
      } else if (e.name.endsWith(OBJECT_SUFFIX)) {
        const key = r.slice(0, -OBJECT_SUFFIX.length);
        if (key.startsWith(prefix)) keys.push(key);
      }
    }
  }
  const slash = prefix.lastIndexOf('/');
  await walkDir(slash > 0 ? prefix.slice(0, slash) : '');
  return keys;
}

async function listV2(r, res) {
  const q = r.query;
  const one = (v) => (Array.isArray(v) ? v[0] : v);
  if (!(await store.getBucket(r.bucket)))
    return sendError(res, 404, 'NoSuchBucket', 'The specified bucket does not exist', r.rawPath, { BucketName: r.bucket });
  const prefix = one(q.prefix) || '';
  const delimiter = one(q.delimiter) || '';
  let maxKeys = 1000;
  if (q['max-keys'] !== undefined) {
    maxKeys = Number(one(q['max-keys']));
    if (!Number.isInteger(maxKeys) || maxKeys < 0)
      return sendError(res, 400, 'InvalidArgument', 'Provided max-keys not an integer or within integer range', r.rawPath);
    maxKeys = Math.min(maxKeys, 1000);
  }
  const token = one(q['continuation-token']);
  let after = one(q['start-after']) || '';
  if (token !== undefined) {
    after = Buffer.from(token, 'base64').toString('utf8');
    if (!after.startsWith('v2:'))
      return sendError(res, 400, 'InvalidArgument', 'The continuation token provided is incorrect', r.rawPath);
    after = after.slice(3);
  }
  const urlEncode = one(q['encoding-type']) === 'url';
  const names = new Map(); // entry name -> is it a key (else a common prefix)
  for (const key of await keysUnder(r.bucket, prefix)) {
    const idx = delimiter ? key.indexOf(delimiter, prefix.length) : -1;
    const name = idx < 0 ? key : key.slice(0, idx + delimiter.length);
    if (name > after) names.set(name, idx < 0);
  }
  const sorted = [...names.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const page = [];
  let i = 0;
  for (; i < sorted.length && page.length < maxKeys; i++) {
    const name = sorted[i];
    if (!names.get(name)) {
      page.push({ name });
      continue;
    }
    const meta = await store.getMetadata(r.bucket, name).catch(() => null);
    if (!meta) continue; // deleted while we listed
    page.push({ name, object: { size: meta['content-length'], etag: meta.etag, lastModifiedDate: new Date(meta['last-modified']) } });
  }
  const truncated = i < sorted.length;
  const enc = (s) => xmlEscape(urlEncode ? encodeURIComponent(s).replace(/%2F/g, '/') : s);
  let xml =
    '<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
    `<Name>${xmlEscape(r.bucket)}</Name><Prefix>${enc(prefix)}</Prefix>` +
    (delimiter ? `<Delimiter>${enc(delimiter)}</Delimiter>` : '') +
    `<MaxKeys>${maxKeys}</MaxKeys><KeyCount>${page.length}</KeyCount><IsTruncated>${truncated}</IsTruncated>` +
    (urlEncode ? '<EncodingType>url</EncodingType>' : '') +
    (token !== undefined ? `<ContinuationToken>${xmlEscape(token)}</ContinuationToken>` : '') +
    (q['start-after'] !== undefined && token === undefined ? `<StartAfter>${enc(after)}</StartAfter>` : '');
  if (truncated)
    xml += `<NextContinuationToken>${Buffer.from('v2:' + page[page.length - 1].name).toString('base64')}</NextContinuationToken>`;
  for (const e of page) {
    if (e.object)
      xml +=
        `<Contents><Key>${enc(e.name)}</Key><LastModified>${e.object.lastModifiedDate.toISOString()}</LastModified>` +
        `<ETag>${xmlEscape(e.object.etag)}</ETag><Size>${e.object.size}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
  }
  for (const e of page) if (!e.object) xml += `<CommonPrefixes><Prefix>${enc(e.name)}</Prefix></CommonPrefixes>`;
  xml += '</ListBucketResult>';
  res.writeHead(200, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(xml) });
  res.end(xml);
}

// ---------------------------------------------------------------------------------------
// The proxy.
let upstreamPort;
// No keep-alive towards s3rver: a reused connection that s3rver closes as idle at the moment
// the proxy sends on it fails the request (ECONNRESET, "socket hang up"), and a streamed
// body cannot be sent again. A new local connection per request costs little.
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
    req.on('aborted', () => reject(new Error('client aborted')));
  });
}

// Forwards the request to s3rver; resolves with {status, headers, body} once the whole
// answer is in (answers are small except GETs, which are buffered too: the test objects are
// at most a few hundred MB and a buffered answer lets drop-body cut it where it wants).
function forward(req, r, body) {
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers, host: `127.0.0.1:${upstreamPort}` };
    delete headers.connection;
    const up = http.request(
      { host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers, agent },
      (ures) => {
        const chunks = [];
        ures.on('data', (c) => chunks.push(c));
        ures.on('end', () => resolve({ status: ures.statusCode, headers: ures.headers, body: Buffer.concat(chunks) }));
        ures.on('error', reject);
      },
    );
    up.on('error', reject);
    if (body) up.end(body);
    else {
      req.pipe(up);
      req.on('aborted', () => up.destroy(new Error('client aborted')));
      req.on('error', (e) => up.destroy(e));
    }
  });
}

// What AWS refuses in a CompleteMultipartUpload and s3rver takes: parts out of order, and
// (with /config?min_part) a part but the last smaller than the minimum.  null when fine.
async function checkPartList(r, body) {
  const numbers = [...body.toString('utf8').matchAll(/<PartNumber>\s*(\d+)\s*<\/PartNumber>/g)].map((m) => Number(m[1]));
  for (let i = 1; i < numbers.length; i++)
    if (numbers[i] <= numbers[i - 1]) return ['InvalidPartOrder', `The list of parts was not in ascending order: ${numbers[i - 1]} before ${numbers[i]}.`];
  if (numbers.some((n) => n < 1 || n > 10000)) return ['InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive.'];
  if (minPart > 0) {
    const dir = path.join(store.getResourcePath(r.bucket, undefined, 'uploads'), r.query.uploadId);
    for (const n of numbers.slice(0, -1)) {
      const st = await fsp.stat(path.join(dir, String(n))).catch(() => null);
      if (st && st.size < minPart) return ['EntityTooSmall', `Your proposed upload is smaller than the minimum allowed size: part ${n} has ${st.size} bytes, the minimum is ${minPart}.`];
    }
  }
  return null;
}

function keysOfBatchDelete(body) {
  const keys = [];
  for (const m of body.toString('utf8').matchAll(/<Key>([^<]*)<\/Key>/g))
    keys.push(m[1].replace(/&(lt|gt|amp|apos|quot);/g, (_, e) => ({ lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' })[e]));
  return keys;
}

async function handle(req, res) {
  const r = parseRequest(req);
  const entry = { seq: ++seq, method: r.method, path: r.rawPath, query: r.rawQuery, kind: r.kind, status: null };
  counts.total++;
  counts.byMethod[r.method] = (counts.byMethod[r.method] || 0) + 1;
  counts.byKind[r.kind] = (counts.byKind[r.kind] || 0) + 1;
  log.push(entry);
  if (log.length > LOG_SIZE) log.shift();
  // in flight from its arrival until its answer is sent or its connection is cut ('close'
  // fires once either way)
  inFlight[r.kind] = (inFlight[r.kind] || 0) + 1;
  counts.maxInFlight[r.kind] = Math.max(counts.maxInFlight[r.kind] || 0, inFlight[r.kind]);
  res.on('close', () => inFlight[r.kind]--);
  const done = (status) => {
    entry.status = status;
    counts.byStatus[status] = (counts.byStatus[status] || 0) + 1;
  };
  res.on('finish', () => entry.status === null && done(res.statusCode));

  if (latencyMs > 0) await sleep(latencyMs);
  const fault = pickFault(r);
  if (fault) {
    counts.faults++;
    entry.fault = fault;
  }
  if (fault === 'drop') {
    done('drop');
    req.socket.destroy();
    return;
  }
  if (fault === '500') return sendError(res, 500, 'InternalError', 'We encountered an internal error. Please try again.', r.rawPath);
  if (fault === '503') return sendError(res, 503, 'SlowDown', 'Please reduce your request rate.', r.rawPath);
  if (fault === '429') return sendError(res, 429, 'TooManyRequests', 'Please reduce your request rate.', r.rawPath);
  if (fault === '400-timeout') return sendError(res, 400, 'RequestTimeout', 'Your socket connection to the server was not read from or written to within the timeout period.', r.rawPath);

  const bad = await verifySignature(req, r);
  if (bad) {
    counts.rejected++;
    return sendError(res, bad[0], bad[1], bad[2], r.rawPath);
  }

  const sha = req.headers['x-amz-content-sha256'];
  let body = null;
  if (sha !== 'UNSIGNED-PAYLOAD' || r.kind === 'BATCH_DELETE' || r.kind === 'MPU_COMPLETE') {
    body = await readBody(req);
    if (/^[0-9a-f]{64}$/i.test(sha)) {
      const actual = crypto.createHash('sha256').update(body).digest('hex');
      if (actual !== sha.toLowerCase()) {
        counts.rejected++;
        return sendError(res, 400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.", r.rawPath, {
          ClientComputedContentSHA256: sha,
          S3ComputedContentSHA256: actual,
        });
      }
    } else if (sha !== 'UNSIGNED-PAYLOAD') {
      counts.rejected++;
      return sendError(res, 400, 'InvalidArgument', `x-amz-content-sha256 must be UNSIGNED-PAYLOAD or a SHA-256 in hex (got ${sha}); streaming signatures are not supported`, r.rawPath);
    }
  }

  if (r.kind === 'LIST' && r.query['list-type'] === '2') {
    if (fault === 'list-loop' || fault === 'list-nested') return brokenListing(r, res, fault);
    if (fault === 'land-drop' || fault === 'land-500' || fault === 'drop-body') {
      // A list has no side effect: answer the fault as the proxied path would.
      if (fault === 'land-500') return sendError(res, 500, 'InternalError', 'We encountered an internal error. Please try again.', r.rawPath);
      done(fault);
      if (fault === 'drop-body') {
        res.writeHead(200, { 'content-type': 'application/xml', 'content-length': 1000 });
        res.write('<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult');
        setTimeout(() => req.socket.destroy(), 20);
      } else req.socket.destroy();
      return;
    }
    return listV2(r, res);
  }

  // Locks: object writes exclude, object reads share.
  let release = () => {};
  const objectKey = r.bucket && r.key !== undefined ? `${r.bucket}/${r.key}` : null;
  if (['PUT', 'COPY', 'MPU_COMPLETE', 'DELETE'].includes(r.kind)) release = await acquire(objectKey, true);
  else if (['GET', 'HEAD'].includes(r.kind)) release = await acquire(objectKey, false);
  else if (r.kind === 'BATCH_DELETE') release = await acquireAll(keysOfBatchDelete(body).map((k) => `${r.bucket}/${k}`), true);

  let answer;
  try {
    // A range that starts at or past the end is 416 InvalidRange, as AWS answers (s3rver
    // cuts the connection when the object is empty).
    const range = r.kind === 'GET' && /^bytes=(\d+)-(\d*)$/.exec(req.headers.range || '');
    if (range) {
      const meta = await store.getMetadata(r.bucket, r.key).catch(() => null);
      const size = meta ? Number(meta['content-length']) : NaN;
      if (Number.isFinite(size) && Number(range[1]) >= size) {
        if (!body) req.resume();
        return sendError(res, 416, 'InvalidRange', 'The requested range is not satisfiable', r.rawPath,
          { RangeRequested: req.headers.range, ActualObjectSize: size }, { 'content-range': `bytes */${size}` });
      }
    }
    const conditional = ['PUT', 'COPY', 'MPU_COMPLETE'].includes(r.kind);
    if (conditional && req.headers['if-none-match'] === '*' && (await store.existsObject(r.bucket, r.key))) {
      if (!body) req.resume();
      return sendError(res, 412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', r.rawPath, {
        Condition: 'If-None-Match',
      });
    }
    if (conditional && String(req.headers['x-oss-forbid-overwrite']).toLowerCase() === 'true' && (await store.existsObject(r.bucket, r.key))) {
      if (!body) req.resume();
      return sendError(res, 409, 'FileAlreadyExists', 'The object you specified already exists and can not be overwritten.', r.rawPath);
    }
    if (r.kind === 'MPU_COMPLETE') {
      const bad = await checkPartList(r, body);
      if (bad) {
        counts.rejected++;
        return sendError(res, 400, bad[0], bad[1], r.rawPath);
      }
    }
    answer = await forward(req, r, body);
  } catch (err) {
    if (!res.headersSent && !req.socket.destroyed) sendError(res, 500, 'InternalError', `proxy: ${err.message}`, r.rawPath);
    return;
  } finally {
    release();
  }

  if (fault === 'land-drop') {
    done('land-drop');
    req.socket.destroy();
    return;
  }
  if (fault === 'land-500') return sendError(res, 500, 'InternalError', 'We encountered an internal error. Please try again.', r.rawPath);
  const headers = { ...answer.headers };
  delete headers.connection;
  delete headers['keep-alive'];
  delete headers['transfer-encoding'];
  if (req.method !== 'HEAD') headers['content-length'] = answer.body.length;
  res.writeHead(answer.status, headers);
  if (fault === 'drop-body') {
    done('drop-body');
    if (answer.body.length > 1) res.write(answer.body.subarray(0, answer.body.length >> 1));
    // Let the head (and half the body) leave before the connection goes.
    setTimeout(() => req.socket.destroy(), 20);
    return;
  }
  res.end(req.method === 'HEAD' ? undefined : answer.body);
}

const proxy = http.createServer((req, res) => {
  handle(req, res).catch((err) => {
    if (!res.headersSent && !req.socket.destroyed) sendError(res, 500, 'InternalError', `proxy: ${err.message}`, req.url);
    else req.socket.destroy();
  });
});
proxy.keepAliveTimeout = 30000;

// ---------------------------------------------------------------------------------------
// The admin endpoint.
function adminHandle(req, res) {
  const url = new URL(req.url, 'http://x');
  const q = Object.fromEntries(url.searchParams);
  const reply = (status, obj) => {
    const body = JSON.stringify(obj) + '\n';
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  switch (url.pathname) {
    case '/health':
      return reply(200, { ok: true });
    case '/counts':
      return reply(200, counts);
    case '/log': {
      const n = q.n === undefined ? LOG_SIZE : Math.max(0, Number(q.n));
      return reply(200, n === 0 ? [] : log.slice(-n));
    }
    case '/reset':
      resetCounts();
      return reply(200, { ok: true });
    case '/clear':
      faults = [];
      latencyMs = 0;
      minPart = 0;
      return reply(200, { ok: true });
    case '/config': {
      const n = Number(q.min_part);
      if (!Number.isInteger(n) || n < 0) return reply(400, { error: 'config: min_part must be an integer >= 0' });
      minPart = n;
      return reply(200, { ok: true, minPart });
    }
    case '/latency': {
      const ms = Number(q.ms);
      if (!Number.isFinite(ms) || ms < 0) return reply(400, { error: 'latency: ms must be a number >= 0' });
      latencyMs = ms;
      return reply(200, { ok: true, latencyMs });
    }
    case '/fault': {
      if (!FAULTS.includes(q.fault)) return reply(400, { error: `fault: fault must be one of ${FAULTS.join(', ')}` });
      const rule = { fault: q.fault, times: 1, seen: 0, fired: 0 };
      if (q.method) rule.method = q.method.toUpperCase();
      if (q.kind) rule.kind = q.kind.toUpperCase();
      if (q.match) {
        try {
          rule.match = new RegExp(q.match);
        } catch (e) {
          return reply(400, { error: `fault: bad match regex: ${e.message}` });
        }
      }
      if (q.nth !== undefined) {
        rule.nth = Number(q.nth);
        if (!Number.isInteger(rule.nth) || rule.nth < 1) return reply(400, { error: 'fault: nth must be an integer >= 1' });
        if (q.times !== undefined) rule.times = Number(q.times);
        if (!Number.isInteger(rule.times) || rule.times < 1) return reply(400, { error: 'fault: times must be an integer >= 1' });
      } else if (q.p !== undefined) {
        rule.p = Number(q.p);
        if (!(rule.p >= 0 && rule.p <= 1)) return reply(400, { error: 'fault: p must be in [0, 1]' });
        rule.rng = mulberry32(q.seed === undefined ? 1 : Number(q.seed));
      } else return reply(400, { error: 'fault: give nth=N or p=FRACTION' });
      faults.push(rule);
      return reply(200, { ok: true, rules: faults.length });
    }
    case '/faults':
      return reply(
        200,
        faults.map(({ rng, match, ...f }) => ({ ...f, match: match && match.source })),
      );
    default:
      return reply(404, { error: `unknown admin path ${url.pathname}` });
  }
}
const admin = http.createServer(adminHandle);

// ---------------------------------------------------------------------------------------
// Start and stop.
const listen = (server) =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server.address().port));
  });

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  try {
    fs.rmSync(root, { recursive: true, force: true });
  } catch {
    // nothing more to do: the process is going away
  }
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('SIGHUP', stop);

const s3addr = await s3.run();
upstreamPort = s3addr.port;
const port = await listen(proxy);
const adminPort = await listen(admin);
process.stdout.write(JSON.stringify({ endpoint: `http://127.0.0.1:${port}`, admin: `http://127.0.0.1:${adminPort}`, bucket: BUCKET, dir: root }) + '\n');
if (!args.includes('--ignore-stdin')) {
  process.stdin.on('data', () => {});
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
}
