/**
 * The corrupt-row verdict, table-driven: storage's structural decode (corrupt.ts) then the registry's
 * kind-level check, as every read path applies them (decodeRow with storedBodyCheck).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configMapDefinition, leaseDefinition } from '../kinds/index.js';
import { CorruptObjectError, decodeRow, type ObjectKey } from '../storage/index.js';
import { Registry } from './registry.js';
import { storedBodyCheck } from './stored-body-check.js';

const registry = new Registry();
registry.register(configMapDefinition);
registry.register(leaseDefinition);
const check = storedBodyCheck(registry);

const cm: ObjectKey = { resource: '/configmaps', namespace: 'ns', name: 'a' };
const lease: ObjectKey = { resource: 'coordination.k8s.io/leases', namespace: 'ns', name: 'l' };
const unknownKind: ObjectKey = { resource: 'example.com/widgets', namespace: '', name: 'w' };
const configMap = (extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'a', namespace: 'ns', uid: 'u' },
  ...extra,
});

const cases: { name: string; key: ObjectKey; body: unknown; corrupt?: RegExp }[] = [
  { name: 'a ConfigMap of its key', key: cm, body: configMap({ data: { k: 'v' } }) },
  { name: 'a JSON string', key: cm, body: 'not an object', corrupt: /the stored body is a JSON string/ },
  { name: 'a JSON number', key: cm, body: 42, corrupt: /a JSON number, not an object/ },
  { name: 'a JSON array', key: cm, body: [configMap()], corrupt: /a JSON array, not an object/ },
  { name: 'JSON null', key: cm, body: null, corrupt: /a JSON null, not an object/ },
  { name: 'an empty object', key: cm, body: {}, corrupt: /Object 'Kind' is missing/ },
  {
    name: 'no apiVersion',
    key: cm,
    body: { kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns' } },
    corrupt: /Object 'apiVersion' is missing/,
  },
  {
    name: 'metadata not an object',
    key: cm,
    body: configMap({ metadata: 'a' }),
    corrupt: /metadata is not an object/,
  },
  {
    name: 'another name than the key',
    key: cm,
    body: configMap({ metadata: { name: 'b', namespace: 'ns' } }),
    corrupt: /metadata.name "b" does not match the key's name "a"/,
  },
  {
    name: 'another namespace than the key',
    key: cm,
    body: configMap({ metadata: { name: 'a', namespace: 'other' } }),
    corrupt: /metadata.namespace "other" does not match the key's namespace "ns"/,
  },
  {
    name: "a Secret's body in a configmaps row",
    key: cm,
    body: { ...configMap(), kind: 'Secret', data: { k: 'dg==' } },
    corrupt: /the stored object is \/v1, Kind=Secret, expected \/v1, Kind=ConfigMap/,
  },
  {
    name: 'a version the kind does not have',
    key: cm,
    body: { ...configMap(), apiVersion: 'v2' },
    corrupt: /the stored object is \/v2, Kind=ConfigMap/,
  },
  {
    name: "another group's kind of the same name",
    key: lease,
    body: { apiVersion: 'v1', kind: 'Lease', metadata: { name: 'l', namespace: 'ns' } },
    corrupt: /expected coordination.k8s.io\/v1, Kind=Lease/,
  },
  {
    name: 'a Lease of its key',
    key: lease,
    body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l', namespace: 'ns' } },
  },
  {
    name: 'a field of the wrong type (a built-in kind decodes typed)',
    key: cm,
    body: configMap({ data: { k: 42 } }),
    corrupt: /cannot unmarshal number into Go struct field ConfigMap.data of type string/,
  },
  {
    name: 'a kind the registry does not know: structure alone decides',
    key: unknownKind,
    body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: 7 },
  },
];

describe('corrupt row verdict', () => {
  for (const c of cases) {
    it(c.name, () => {
      const { object, corrupt } = decodeRow(c.key, 9, structuredClone(c.body), check);
      if (!c.corrupt) {
        assert.equal(corrupt, undefined, corrupt?.message);
        assert.equal(object.metadata.resourceVersion, '9');
        return;
      }
      assert.ok(corrupt instanceof CorruptObjectError, 'expected a corrupt verdict');
      assert.match(corrupt.message, c.corrupt);
      // kube's StorageError text, naming the key; the caller gets a stub, never the body
      assert.match(corrupt.message, /^StorageError: corrupt object, Code: 7, Key: \S+, ResourceVersion: 0, /);
      assert.match(corrupt.message, /object not decodable revision=9: /);
      assert.equal(corrupt.rv, 9);
      assert.deepEqual(object.metadata, {
        name: c.key.name,
        ...(c.key.namespace ? { namespace: c.key.namespace } : {}),
        resourceVersion: '9',
      });
    });
  }

  it('names the key as kube names its storage keys', () => {
    const { corrupt } = decodeRow(cm, 3, 'x', check);
    assert.match(corrupt!.message, /Key: \/configmaps\/ns\/a,/);
    const cluster = decodeRow({ resource: '/namespaces', namespace: '', name: 'n' }, 3, 'x', check);
    assert.match(cluster.corrupt!.message, /Key: \/namespaces\/n,/);
  });
});
