// A minimal S3 client for the tests' own use (self-test, fixture upload, table download):
// requests signed with the AWS SDK's signer (@smithy/signature-v4), an implementation
// independent of paimon-c's, against the endpoint in AWS_ENDPOINT_URL (path-style).
// Exports s3request, putObject, getObject, listKeys, deleteKeys; as a command:
//   node client.mjs METHOD /bucket/key?query [BODY_FILE]   prints the status, then the body
import fs from 'node:fs';
import http from 'node:http';
import crypto from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { Hash } from '@smithy/hash-node';

const env = process.env;
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

export function makeSigner(secret = env.AWS_SECRET_ACCESS_KEY || 'S3RVER') {
  return new SignatureV4({
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID || 'S3RVER', secretAccessKey: secret },
    region: env.AWS_REGION || 'us-east-1',
    service: 's3',
    sha256: Hash.bind(null, 'sha256'),
    uriEscapePath: false,
    applyChecksum: false,
  });
}
const defaultSigner = makeSigner();

// RFC 3986 encoding of a key's characters, keeping '/'.
export const encodeKey = (key) =>
  key
    .split('/')
    .map((s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()))
    .join('/');

// One signed request. path: '/bucket/key' (unencoded); query: object; body: Buffer or
// string; opts.payloadHash: 'UNSIGNED-PAYLOAD' or a hex string to send instead of the
// body's true hash; opts.signer: another signer (a wrong secret, say).
// Resolves with {status, headers, body} (body a Buffer) or rejects on a network error.
export async function s3request(method, path, { query = {}, headers = {}, body, payloadHash, signer = defaultSigner, endpoint = env.AWS_ENDPOINT_URL } = {}) {
  const url = new URL(endpoint);
  const data = body === undefined ? Buffer.alloc(0) : Buffer.from(body);
  const hash = payloadHash || crypto.createHash('sha256').update(data).digest('hex');
  const encPath = encodeKey(path);
  const req = {
    method,
    protocol: 'http:',
    hostname: url.hostname,
    port: Number(url.port),
    path: encPath,
    query,
    headers: { ...headers, host: url.host, 'x-amz-content-sha256': hash },
  };
  if (method === 'PUT' || method === 'POST') req.headers['content-length'] = String(data.length);
  const signed = await signer.sign(req, { signingDate: new Date() });
  const qs = Object.entries(query)
    .map(([k, v]) => (v === '' ? encodeURIComponent(k) : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`))
    .join('&');
  return new Promise((resolve, reject) => {
    const r = http.request(
      { host: url.hostname, port: url.port, method, path: encPath + (qs ? `?${qs}` : ''), headers: signed.headers, agent },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    r.on('error', reject);
    r.end(method === 'PUT' || method === 'POST' ? data : undefined);
  });
}

function check(res, what) {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.body.toString().slice(0, 300)}`);
  return res;
}

export const putObject = async (bucket, key, body) => check(await s3request('PUT', `/${bucket}/${key}`, { body }), `PUT ${bucket}/${key}`);
export const getObject = async (bucket, key) => check(await s3request('GET', `/${bucket}/${key}`), `GET ${bucket}/${key}`).body;

// Every key under prefix (ListObjectsV2, following continuation tokens).
export async function listKeys(bucket, prefix = '', maxKeys) {
  const keys = [];
  let token;
  for (;;) {
    const query = { 'list-type': '2', prefix };
    if (maxKeys) query['max-keys'] = String(maxKeys);
    if (token) query['continuation-token'] = token;
    const res = check(await s3request('GET', `/${bucket}`, { query }), `LIST ${bucket}/${prefix}`);
    const xml = res.body.toString();
    for (const m of xml.matchAll(/<Key>([^<]*)<\/Key>/g)) keys.push(unxml(m[1]));
    const next = /<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml);
    if (!/<IsTruncated>true<\/IsTruncated>/.test(xml) || !next) return keys;
    token = unxml(next[1]);
  }
}

export async function deleteKeys(bucket, keys) {
  for (let i = 0; i < keys.length; i += 1000) {
    const body =
      '<?xml version="1.0" encoding="UTF-8"?><Delete><Quiet>true</Quiet>' +
      keys
        .slice(i, i + 1000)
        .map((k) => `<Object><Key>${k.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</Key></Object>`)
        .join('') +
      '</Delete>';
    const md5 = crypto.createHash('md5').update(body).digest('base64');
    check(await s3request('POST', `/${bucket}`, { query: { delete: '' }, body, headers: { 'content-md5': md5 } }), `DELETE batch ${bucket}`);
  }
}

// XML text to a string: the five named entities and numeric references (s3rver writes
// `'` as &#x27;).
export const unxml = (s) =>
  s.replace(/&(lt|gt|amp|apos|quot|#x[0-9a-fA-F]+|#[0-9]+);/g, (_, e) =>
    e[0] === '#'
      ? String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10))
      : { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' }[e],
  );

if (import.meta.url === `file://${process.argv[1]}`) {
  const [method, target, file] = process.argv.slice(2);
  if (!method || !target) {
    console.error('usage: node client.mjs METHOD /bucket/key?query [BODY_FILE]');
    process.exit(2);
  }
  const u = new URL(target, 'http://x');
  const query = {};
  for (const [k, v] of u.searchParams) query[k] = v;
  const res = await s3request(method.toUpperCase(), decodeURIComponent(u.pathname), { query, body: file ? fs.readFileSync(file) : undefined });
  process.stdout.write(`${res.status}\n`);
  process.stdout.write(res.body);
  agent.destroy();
}
