// Uploads a local folder (a table) to the test S3 server, signed with the AWS SDK's signer
// (client.mjs), so that paimon-c reads objects it did not write itself:
//   node upload.mjs LOCAL_DIR s3://BUCKET/PREFIX
// Every regular file under LOCAL_DIR becomes BUCKET/PREFIX/<relative path>.
import fs from 'node:fs';
import path from 'node:path';
import { putObject } from './client.mjs';

export function parseS3Uri(uri) {
  const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(uri || '');
  if (!m) throw new Error(`not an s3:// URI: ${uri}`);
  return { bucket: m[1], prefix: m[2].replace(/\/+$/, '') };
}

function* walk(dir, rel = '') {
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) yield* walk(dir, r);
    else if (e.isFile()) yield r;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, uri] = process.argv.slice(2);
  if (!dir || !uri) {
    console.error('usage: node upload.mjs LOCAL_DIR s3://BUCKET/PREFIX');
    process.exit(2);
  }
  const { bucket, prefix } = parseS3Uri(uri);
  const files = [...walk(dir)];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < files.length) {
        const f = files[next++];
        await putObject(bucket, prefix ? `${prefix}/${f}` : f, fs.readFileSync(path.join(dir, f)));
      }
    }),
  );
  console.log(`uploaded ${files.length} files to ${uri}`);
  process.exit(0);
}
