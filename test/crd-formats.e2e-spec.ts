/**
 * The wire forms of custom resources, as kube-apiserver gives them: JSON and YAML in and out, CBOR while its
 * gate is on; no Protobuf (406 out, 415 in) and no strategic merge patch (415, kube's list of patch types).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { decodeCbor, encodeCbor } from '../modules/codec/index.js';
import { eventually } from './support/eventually.js';
import { rawRequest } from './support/raw-request.js';
import { useServer } from './support/use-server.js';

const group = 'formats.pgkube.io';
const bells = `/apis/${group}/v1/namespaces/default/bells`;
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `bells.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural: 'bells', singular: 'bell', kind: 'Bell' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: { spec: { type: 'object', properties: { tone: { type: 'string' } } } },
          },
        },
      },
    ],
  },
};
const bell = (name: string) => ({
  apiVersion: `${group}/v1`,
  kind: 'Bell',
  metadata: { name },
  spec: { tone: 'A' },
});

describe('custom resource wire forms', () => {
  const s = useServer({ args: ['--feature-gates=CBORServingAndStorage=true'] });

  it('JSON and YAML in and out', async () => {
    const made = await s.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      body: crd,
    });
    assert.equal(made.status, 201, made.text);
    await eventually(async () => (await s.request('GET', bells)).status === 200, 'served');
    const yaml = await s.request('POST', bells, {
      raw: `apiVersion: ${group}/v1\nkind: Bell\nmetadata:\n  name: b1\nspec:\n  tone: C\n`,
      headers: { 'content-type': 'application/yaml', accept: 'application/yaml' },
    });
    assert.equal(yaml.status, 201, yaml.text);
    assert.equal(parseYaml(yaml.text).spec.tone, 'C');
    assert.equal((await s.request('GET', `${bells}/b1`)).json.spec.tone, 'C');
  });

  it('CBOR in and out with its gate on', async () => {
    const made = await rawRequest(
      s,
      'POST',
      bells,
      { 'content-type': 'application/cbor', accept: 'application/cbor' },
      encodeCbor(bell('b2')),
    );
    assert.equal(made.status, 201);
    const back = decodeCbor(made.body) as any;
    assert.equal(back.metadata.name, 'b2');
    assert.equal(back.spec.tone, 'A');
  });

  it('Protobuf is refused both ways', async () => {
    const out = await s.request('GET', `${bells}/b1`, {
      headers: { accept: 'application/vnd.kubernetes.protobuf' },
    });
    assert.equal(out.status, 406);
    assert.equal(out.json.reason, 'NotAcceptable');
    assert.doesNotMatch(out.json.message, /protobuf/, 'custom resources have no Protobuf form to offer');
    const inn = await s.request('POST', bells, {
      raw: Buffer.from([0x6b, 0x38, 0x73, 0x00]),
      headers: { 'content-type': 'application/vnd.kubernetes.protobuf' },
    });
    assert.equal(inn.status, 415);
    assert.equal(inn.json.reason, 'UnsupportedMediaType');
    assert.doesNotMatch(inn.json.message, /protobuf/);
  });

  it('a strategic merge patch is refused with the patch types a custom resource takes', async () => {
    const r = await s.request('PATCH', `${bells}/b1`, {
      raw: JSON.stringify({ spec: { tone: 'D' } }),
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
    });
    assert.equal(r.status, 415);
    assert.match(
      r.json.message,
      /application\/json-patch\+json, application\/merge-patch\+json, application\/apply-patch\+yaml/,
    );
    assert.doesNotMatch(r.json.message, /strategic/);
  });
});
