/**
 * Every built-in kind through the real server in every wire format: a populated object is created in JSON,
 * YAML, Protobuf and CBOR (its feature gate on), and each is read back in all four. All readings agree, every field sent comes back,
 * and the format an object was written in leaves no trace in what is stored.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import type { KubeObject } from '../modules/api/index.js';
import { cborListSchema, decodeCbor, encodeCbor } from '../modules/codec/index.js';
import { decodeProtobuf, encodeProtobuf, listSchema } from '../modules/codec/index.js';
import type { ResourceDefinition } from '../modules/registry/index.js';
import {
  configMapDefinition,
  eventDefinition,
  leaseDefinition,
  namespaceDefinition,
  secretDefinition,
  serviceAccountDefinition,
} from '../modules/kinds/index.js';
import { rawRequest } from './support/raw-request.js';
import { useServer } from './support/use-server.js';

type Format = 'json' | 'yaml' | 'protobuf' | 'cbor';
const formats: Format[] = ['json', 'yaml', 'protobuf', 'cbor'];
const mediaType: Record<Format, string> = {
  json: 'application/json',
  yaml: 'application/yaml',
  protobuf: 'application/vnd.kubernetes.protobuf',
  cbor: 'application/cbor',
};

function encode(obj: KubeObject, format: Format, def: ResourceDefinition): Uint8Array | string {
  if (format === 'json') return JSON.stringify(obj);
  // as a kube client writes YAML (1.1: strings that look like booleans or times are quoted)
  if (format === 'yaml') return stringifyYaml(obj, { version: '1.1' });
  if (format === 'cbor') return encodeCbor(obj, def.schema);
  return encodeProtobuf(obj, def.schema);
}

function decode(body: Buffer, format: Format, def: ResourceDefinition): KubeObject {
  if (format === 'json') return JSON.parse(body.toString('utf8'));
  if (format === 'yaml') return parseYaml(body.toString('utf8'), { version: '1.1' });
  if (format === 'cbor') return decodeCbor(body, def.schema) as KubeObject;
  return decodeProtobuf(body, def.schema) as KubeObject;
}

/** `want` (what was sent) is contained in `got`: every field sent came back with its value */
function assertContains(got: unknown, want: unknown, path = ''): void {
  if (want !== null && typeof want === 'object' && !Array.isArray(want)) {
    assert.ok(got !== null && typeof got === 'object', `${path}: ${JSON.stringify(got)}`);
    for (const [k, v] of Object.entries(want))
      assertContains((got as Record<string, unknown>)[k], v, `${path}.${k}`);
    return;
  }
  assert.deepEqual(got, want, path);
}

/** what differs between objects created from the same content: identity, revision and write times */
function content(obj: KubeObject): unknown {
  const metadata = { ...obj.metadata };
  for (const k of ['name', 'uid', 'resourceVersion', 'creationTimestamp'] as const) delete metadata[k];
  metadata.managedFields = (metadata.managedFields ?? []).map((f) => ({ ...(f as object), time: undefined }));
  const labels = { ...metadata.labels };
  // kube keeps a namespace's name in this label
  delete labels['kubernetes.io/metadata.name'];
  return { ...obj, metadata: { ...metadata, labels } };
}

const ns = 'round-trip';
const owner = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  name: 'owner',
  uid: '6e5a0e5c-3a3c-4bd0-9f77-7b9f0a1d2c3e',
  controller: true,
  blockOwnerDeletion: true,
};
const metadata = (name: string, finalizers = true) => ({
  name,
  namespace: ns,
  labels: { app: 'round-trip', 'example.com/tier': 'yes' },
  annotations: { note: 'on', 'example.com/when': '2026-01-01T00:00:00Z', multi: 'line 1\nline 2' },
  ownerReferences: [owner],
  ...(finalizers ? { finalizers: ['example.com/keep'] } : {}),
});

/** a populated object of each kind (the fields a client may set), named per format */
const kinds: { def: ResourceDefinition; path: string; object: (name: string) => KubeObject }[] = [
  {
    def: namespaceDefinition,
    path: '/api/v1/namespaces',
    object: (name) => ({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: (({ namespace: _, ...rest }) => rest)(metadata(name)),
      spec: { finalizers: ['kubernetes'] },
    }),
  },
  {
    def: configMapDefinition,
    path: `/api/v1/namespaces/${ns}/configmaps`,
    object: (name) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: metadata(name),
      data: { 'app.properties': 'color=blue\nsize=2\n', empty: '', flag: 'no', unicode: 'grüße ✓' },
      binaryData: { logo: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0xff]).toString('base64') },
      immutable: true,
    }),
  },
  {
    def: secretDefinition,
    path: `/api/v1/namespaces/${ns}/secrets`,
    object: (name) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: metadata(name),
      type: 'kubernetes.io/basic-auth',
      data: {
        username: Buffer.from('admin').toString('base64'),
        password: Buffer.from([0, 1, 2, 253, 254, 255]).toString('base64'),
      },
      immutable: false,
    }),
  },
  {
    def: serviceAccountDefinition,
    path: `/api/v1/namespaces/${ns}/serviceaccounts`,
    object: (name) => ({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: metadata(name),
      secrets: [{ name: 'token-a' }, { name: 'token-b' }],
      imagePullSecrets: [{ name: 'registry' }],
      automountServiceAccountToken: false,
    }),
  },
  {
    def: eventDefinition,
    path: `/api/v1/namespaces/${ns}/events`,
    object: (name) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: metadata(name, false),
      involvedObject: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace: ns,
        name: 'owner',
        uid: owner.uid,
        resourceVersion: '12',
        fieldPath: 'data[a]',
      },
      reason: 'Tested',
      message: 'round trip ✓',
      source: { component: 'tester', host: 'node-1' },
      firstTimestamp: '2026-01-01T00:00:00Z',
      lastTimestamp: '2026-01-01T00:05:00Z',
      count: 3,
      type: 'Warning',
      eventTime: '2026-01-01T00:00:00.123456Z',
      series: { count: 2, lastObservedTime: '2026-01-01T00:04:59.999999Z' },
      action: 'Testing',
      related: { apiVersion: 'v1', kind: 'Secret', namespace: ns, name: 'other' },
      reportingComponent: 'example.com/tester',
      reportingInstance: 'tester-1',
    }),
  },
  {
    def: leaseDefinition,
    path: `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`,
    object: (name) => ({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: metadata(name),
      spec: {
        holderIdentity: 'node-1_7f3c',
        leaseDurationSeconds: 40,
        acquireTime: '2026-01-01T00:00:00.000001Z',
        renewTime: '2026-01-01T00:00:30.500000Z',
        leaseTransitions: 0,
      },
    }),
  },
];

describe('round trips of every built-in kind in JSON, YAML, Protobuf and CBOR', () => {
  // the objects name an owner that never existed: the garbage collector would (rightly) delete them mid-test
  const s = useServer({
    args: ['--feature-gates=CBORServingAndStorage=true', '--controllers=*,-garbagecollector'],
  });

  before(async () => {
    await s.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
    });
  });

  for (const { def, path, object } of kinds) {
    it(`${def.kind}: written in each format, read back in each`, async () => {
      const stored: KubeObject[] = [];
      for (const written of formats) {
        const name = `rt-${def.resource}-${written}`;
        const sent = object(name);
        const created = await rawRequest(
          s,
          'POST',
          path,
          { 'content-type': mediaType[written], accept: mediaType[written] },
          encode(sent, written, def),
        );
        assert.equal(created.status, 201, `${written}: ${created.body.toString()}`);
        assert.equal(created.type, mediaType[written]);
        const answer = decode(created.body, written, def);
        assertContains(answer, JSON.parse(JSON.stringify(sent)));
        for (const read of formats) {
          const got = await rawRequest(s, 'GET', `${path}/${name}`, {
            accept: mediaType[read],
          });
          assert.equal(got.status, 200);
          assert.equal(got.type, mediaType[read]);
          assert.deepEqual(decode(got.body, read, def), answer, `written in ${written}, read in ${read}`);
        }
        stored.push(answer);
      }
      // the format a write came in makes no difference to what is kept
      assert.deepEqual(content(stored[1]), content(stored[0]), 'YAML vs JSON');
      assert.deepEqual(content(stored[2]), content(stored[0]), 'Protobuf vs JSON');
      assert.deepEqual(content(stored[3]), content(stored[0]), 'CBOR vs JSON');
    });
  }

  it('lists read back alike in JSON, YAML, Protobuf and CBOR', async () => {
    for (const { def, path } of kinds) {
      const [json, yaml, pb, cbor] = await Promise.all(
        formats.map((f) => rawRequest(s, 'GET', path, { accept: mediaType[f] })),
      );
      const list = JSON.parse(json.body.toString());
      assert.deepEqual(parseYaml(yaml.body.toString(), { version: '1.1' }), list, def.kind);
      // the wire form of a list item has no place for kind and apiVersion (kube's JSON items lack them too)
      const items = list.items.map(({ kind: _k, apiVersion: _a, ...item }: KubeObject) => item);
      assert.deepEqual(decodeProtobuf(pb.body, listSchema(def.schema)), { ...list, items }, def.kind);
      assert.equal(cbor.type, 'application/cbor');
      assert.deepEqual(decodeCbor(cbor.body, cborListSchema(def.schema)), list, def.kind);
    }
  });
});
