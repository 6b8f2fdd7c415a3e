#!/usr/bin/env node
/**
 * Writes the structure of Kubernetes' OpenAPI v2 definitions for some kinds, and every definition they reach,
 * to a JSON file the tests validate manifests against (test/support/kube-schema.ts).
 *
 *   node scripts/kube-definitions.mjs SWAGGER_JSON OUT_JSON apps/v1/Deployment v1/Service ...
 *
 * Only what validation needs is kept (types, formats, properties, required, items, map values, references,
 * group-version-kinds); descriptions and merge hints are dropped. The source names its Kubernetes release in the
 * output's `source` so a reader knows which API the file holds.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const [swaggerPath, outPath, ...roots] = process.argv.slice(2);
if (!swaggerPath || !outPath || roots.length === 0) {
  console.error('usage: kube-definitions.mjs SWAGGER_JSON OUT_JSON GROUP/VERSION/KIND...');
  process.exit(2);
}
const source = process.env.KUBE_DEFINITIONS_SOURCE ?? swaggerPath;
const all = JSON.parse(readFileSync(swaggerPath, 'utf8')).definitions;
const KEPT = ['type', 'format', 'required', 'x-kubernetes-group-version-kind'];
const REF = '#/definitions/';

const gvkName = (name) =>
  (all[name]['x-kubernetes-group-version-kind'] ?? []).map(
    (g) => `${g.group ? `${g.group}/` : ''}${g.version}/${g.kind}`,
  );
const byKind = new Map(Object.keys(all).flatMap((name) => gvkName(name).map((k) => [k, name])));

function strip(schema, reached) {
  const out = {};
  for (const key of KEPT) if (schema[key] !== undefined) out[key] = schema[key];
  if (schema.$ref) {
    const name = schema.$ref.slice(REF.length);
    reached.push(name);
    out.$ref = schema.$ref;
  }
  if (schema.items) out.items = strip(schema.items, reached);
  if (schema.additionalProperties !== undefined)
    out.additionalProperties =
      typeof schema.additionalProperties === 'object'
        ? strip(schema.additionalProperties, reached)
        : schema.additionalProperties;
  if (schema.properties)
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([field, s]) => [field, strip(s, reached)]),
    );
  return out;
}

const definitions = {};
const pending = roots.map((kind) => {
  const name = byKind.get(kind);
  if (!name) throw new Error(`no definition for ${kind}`);
  return name;
});
while (pending.length > 0) {
  const name = pending.pop();
  if (definitions[name]) continue;
  definitions[name] = strip(all[name], pending);
}
const sorted = Object.fromEntries(
  Object.keys(definitions)
    .sort()
    .map((n) => [n, definitions[n]]),
);
// one definition per line: small diffs when the release changes
const lines = Object.entries(sorted).map(([n, d]) => `    ${JSON.stringify(n)}: ${JSON.stringify(d)}`);
writeFileSync(
  outPath,
  `{\n  "source": ${JSON.stringify(source)},\n  "kinds": ${JSON.stringify(roots)},\n  "definitions": {\n${lines.join(',\n')}\n  }\n}\n`,
);
console.log(`${Object.keys(sorted).length} definitions for ${roots.length} kinds → ${outPath}`);
