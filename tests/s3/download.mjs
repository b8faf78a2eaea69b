// Downloads everything under an S3 prefix of the test S3 server into a local folder (a
// table written on S3, to be read by the oracle), through the AWS SDK's signer (client.mjs):
//   node download.mjs s3://BUCKET/PREFIX LOCAL_DIR
// BUCKET/PREFIX/<rel> becomes LOCAL_DIR/<rel>; the listing follows continuation tokens.
import fs from 'node:fs';
import path from 'node:path';
import { getObject, listKeys } from './client.mjs';
import { parseS3Uri } from './upload.mjs';

const [uri, dir] = process.argv.slice(2);
if (!uri || !dir) {
  console.error('usage: node download.mjs s3://BUCKET/PREFIX LOCAL_DIR');
  process.exit(2);
}
const { bucket, prefix } = parseS3Uri(uri);
const keys = await listKeys(bucket, prefix ? `${prefix}/` : '');
let next = 0;
await Promise.all(
  Array.from({ length: 8 }, async () => {
    while (next < keys.length) {
      const k = keys[next++];
      const rel = prefix ? k.slice(prefix.length + 1) : k;
      const dest = path.join(dir, rel);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.writeFileSync(dest, await getObject(bucket, k));
    }
  }),
);
console.log(`downloaded ${keys.length} objects from ${uri}`);
process.exit(0);
