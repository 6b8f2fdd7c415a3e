/**
 * Dev-only check against Kubernetes' own serialized objects (not part of the repo, not run by the tests):
 *   npx tsc -p tsconfig.test.json && node dist-test/test/support/compare-protobuf-fixtures.js [fixtures dir]
 * For each built-in kind with a fixture, decodes the .pb and compares with the .json, and encodes the .json
 * and compares the bytes with the .pb.
 */
import { isDeepStrictEqual } from 'node:util';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { builtinDefinitions } from '../../modules/kinds/index.js';
import { decodeProtobuf, encodeProtobuf } from '../../modules/codec/index.js';

const dir = process.argv[2] ?? '/work/shared/fixtures/k8s-api-v1.33';
let failed = 0;
for (const def of builtinDefinitions) {
  const base = path.join(dir, `${def.group || 'core'}.${def.storageVersion}.${def.kind}`);
  if (!existsSync(`${base}.pb`)) {
    console.log(`${def.kind}: no fixture`);
    continue;
  }
  const pb = new Uint8Array(readFileSync(`${base}.pb`));
  const json = JSON.parse(readFileSync(`${base}.json`, 'utf8')) as Record<string, unknown>;
  let decodeOk = false;
  let encodeOk = false;
  try {
    const decoded = decodeProtobuf(pb, def.schema);
    decodeOk = isDeepStrictEqual(decoded, json);
    if (!decodeOk) console.log(JSON.stringify(decoded, null, 2));
  } catch (e) {
    console.log(`${def.kind}: decode threw`, e);
  }
  try {
    const encoded = encodeProtobuf(json, def.schema);
    encodeOk = Buffer.compare(Buffer.from(encoded), Buffer.from(pb)) === 0;
    if (!encodeOk) {
      console.log(`want ${Buffer.from(pb).toString('hex')}`);
      console.log(`got  ${Buffer.from(encoded).toString('hex')}`);
    }
  } catch (e) {
    console.log(`${def.kind}: encode threw`, e);
  }
  if (!decodeOk || !encodeOk) failed++;
  console.log(
    `${def.kind}: decode ${decodeOk ? 'equal' : 'DIFFERS'}, encode ${encodeOk ? 'byte-identical' : 'DIFFERS'}`,
  );
}
process.exit(failed ? 1 : 0);
