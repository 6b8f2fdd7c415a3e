import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../api/index.js';
import type { ObjectMeta } from '../api/index.js';
import {
  carryOverMetaForUpdate,
  validateFinalizerName,
  validateObjectMeta,
  validateObjectMetaUpdate,
  validateStandardFinalizers,
  type ObjectMetaRules,
} from './metadata.js';

const show = (errs: Parameters<typeof formatFieldError>[0][]): string[] => errs.map(formatFieldError);
const namespaced: ObjectMetaRules = { namespaced: true, nameRule: 'dns1123Subdomain' };
const clusterLabel: ObjectMetaRules = { namespaced: false, nameRule: 'dns1123Label' };

const subdomainTail =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start " +
  "and end with an alphanumeric character (e.g. 'example.com', regex used for validation is " +
  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('validateObjectMeta', () => {
  const cases: { name: string; meta: ObjectMeta; rules?: ObjectMetaRules; want: string[] }[] = [
    { name: 'valid namespaced object', meta: { name: 'a', namespace: 'ns' }, want: [] },
    {
      name: 'name or generateName required',
      meta: { namespace: 'ns' },
      want: ['metadata.name: Required value: name or generateName is required'],
    },
    {
      name: 'bad name',
      meta: { name: 'Bad', namespace: 'ns' },
      want: [`metadata.name: Invalid value: "Bad": ${subdomainTail}`],
    },
    {
      name: 'generateName is checked in prefix mode and reported on its own field',
      meta: { generateName: 'Web-', name: 'Webx7k2p', namespace: 'ns' },
      want: [
        `metadata.generateName: Invalid value: "Web-": ${subdomainTail}`,
        `metadata.name: Invalid value: "Webx7k2p": ${subdomainTail}`,
      ],
    },
    {
      name: 'generateName with trailing dash is fine',
      meta: { generateName: 'web-', name: 'web-abcde', namespace: 'n' },
      want: [],
    },
    { name: 'namespace required', meta: { name: 'a' }, want: ['metadata.namespace: Required value'] },
    {
      name: 'namespace must be a DNS label',
      meta: { name: 'a', namespace: 'a.b' },
      want: ['metadata.namespace: Invalid value: "a.b": must not contain dots'],
    },
    {
      name: 'namespace forbidden on cluster-scoped kinds',
      meta: { name: 'a', namespace: 'x' },
      rules: clusterLabel,
      want: ['metadata.namespace: Forbidden: not allowed on this type'],
    },
    {
      name: 'dns1123Label names',
      meta: { name: 'a.b' },
      rules: clusterLabel,
      want: ['metadata.name: Invalid value: "a.b": must not contain dots'],
    },
    {
      name: 'pathSegment names',
      meta: { name: 'a/b', namespace: 'ns' },
      rules: { namespaced: true, nameRule: 'pathSegment' },
      want: [`metadata.name: Invalid value: "a/b": may not contain '/'`],
    },
    {
      name: 'negative generation',
      meta: { name: 'a', namespace: 'n', generation: -1 },
      want: ['metadata.generation: Invalid value: -1: must be greater than or equal to 0'],
    },
    {
      name: 'label key and value',
      meta: { name: 'a', namespace: 'n', labels: { 'a/b/c': 'ok', good: '-bad' } },
      want: [
        "metadata.labels: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
        "metadata.labels: Invalid value: \"-bad\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      ],
    },
    {
      name: 'annotation keys are case-insensitive qualified names',
      meta: { name: 'a', namespace: 'n', annotations: { 'Example.COM/Key': 'v' } },
      want: [],
    },
    {
      name: 'annotations over 256 KiB',
      meta: { name: 'a', namespace: 'n', annotations: { k: 'x'.repeat(256 * 1024) } },
      want: ['metadata.annotations: Too long: may not be more than 262144 bytes'],
    },
    {
      name: 'annotations exactly at the limit',
      meta: { name: 'a', namespace: 'n', annotations: { k: 'x'.repeat(256 * 1024 - 1) } },
      want: [],
    },
    {
      name: 'finalizers must be qualified names; orphan and foregroundDeletion exclude each other',
      meta: { name: 'a', namespace: 'n', finalizers: ['orphan', 'foregroundDeletion', 'x/'] },
      want: [
        'metadata.finalizers: Invalid value: "x/": name part must be non-empty',
        "metadata.finalizers: Invalid value: \"x/\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        'metadata.finalizers: Invalid value: ["orphan","foregroundDeletion","x/"]: finalizer orphan and foregroundDeletion cannot be both set',
      ],
    },
    {
      name: 'standard finalizer rule only when asked',
      meta: { name: 'a', namespace: 'n', finalizers: ['custom', 'example.com/f', 'kubernetes'] },
      rules: { ...namespaced, standardFinalizers: true },
      want: [
        'metadata.finalizers[0]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
      ],
    },
    {
      name: 'owner references',
      meta: {
        name: 'a',
        namespace: 'n',
        ownerReferences: [
          { apiVersion: '', kind: '', name: '', uid: '' },
          { apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u' },
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'r1', uid: 'u1', controller: true },
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'r2', uid: 'u2', controller: true },
        ],
      },
      want: [
        'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
        'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
        'metadata.ownerReferences.name: Invalid value: "": must not be empty',
        'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
        'metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u"}: /v1, Kind=Event is disallowed from being an owner',
        `metadata.ownerReferences: Invalid value: ${JSON.stringify([
          { apiVersion: '', kind: '', name: '', uid: '' },
          { apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u' },
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'r1', uid: 'u1', controller: true },
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'r2', uid: 'u2', controller: true },
        ])}: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/r1 and ReplicaSet/r2`,
      ],
    },
    {
      name: 'an apiVersion with two slashes has no version',
      meta: {
        name: 'a',
        namespace: 'n',
        ownerReferences: [{ apiVersion: 'a/b/c', kind: 'K', name: 'x', uid: 'u' }],
      },
      want: ['metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty'],
    },
    {
      name: 'managed fields',
      meta: {
        name: 'a',
        namespace: 'n',
        managedFields: [
          { manager: 'kubectl', operation: 'Apply', fieldsType: 'FieldsV1' },
          { manager: 'a\u0007b', operation: 'Patch', fieldsType: 'FieldsV2', subresource: 's'.repeat(257) },
        ],
      },
      want: [
        'metadata.managedFields[1].operation: Invalid value: "Patch": must be `Apply` or `Update`',
        'metadata.managedFields[1].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`',
        'metadata.managedFields[1].manager: Invalid value: "a\\u0007b": invalid character U+0007 (at position 1)',
        'metadata.managedFields[1].subresource: Too long: may not be more than 256 bytes',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(show(validateObjectMeta(c.meta, c.rules ?? namespaced)), c.want));
  }

  it('ignores wrongly typed fields instead of throwing', () => {
    const meta = {
      name: 7,
      labels: 'x',
      finalizers: 'y',
      ownerReferences: {},
      managedFields: [null],
    } as unknown as ObjectMeta;
    assert.deepEqual(show(validateObjectMeta(meta, clusterLabel)), [
      'metadata.name: Required value: name or generateName is required',
      'metadata.managedFields[0].operation: Invalid value: "": must be `Apply` or `Update`',
    ]);
  });
});

describe('finalizer helpers', () => {
  it('validateStandardFinalizers reports per index', () => {
    assert.deepEqual(
      show(validateStandardFinalizers(['kubernetes', 'x', 'a.io/b', 'orphan'], 'metadata.finalizers')),
      [
        'metadata.finalizers[1]: Invalid value: "x": name is neither a standard finalizer name nor is it fully qualified',
      ],
    );
  });
  it('validateFinalizerName combines both rules on one path', () => {
    assert.deepEqual(show(validateFinalizerName('foo', 'spec.finalizers')), [
      'spec.finalizers: Invalid value: "foo": name is neither a standard finalizer name nor is it fully qualified',
    ]);
    assert.deepEqual(validateFinalizerName('kubernetes', 'spec.finalizers'), []);
  });
});

describe('validateObjectMetaUpdate', () => {
  const old: ObjectMeta = {
    name: 'a',
    namespace: 'n',
    uid: 'u1',
    resourceVersion: '5',
    generation: 3,
    creationTimestamp: '2024-01-01T00:00:00Z',
  };
  const cases: { name: string; next: ObjectMeta; old?: ObjectMeta; want: string[] }[] = [
    { name: 'unchanged', next: { ...old }, want: [] },
    {
      name: 'same instant written differently',
      next: { ...old, creationTimestamp: '2024-01-01T00:00:00.000Z' },
      want: [],
    },
    {
      name: 'identity fields are immutable',
      next: { ...old, name: 'b', namespace: 'm', uid: 'u2', creationTimestamp: '2024-02-01T00:00:00Z' },
      want: [
        'metadata.name: Invalid value: "b": field is immutable',
        'metadata.namespace: Invalid value: "m": field is immutable',
        'metadata.uid: Invalid value: "u2": field is immutable',
        'metadata.creationTimestamp: Invalid value: "2024-02-01T00:00:00Z": field is immutable',
      ],
    },
    {
      name: 'clients cannot set or clear deletion fields',
      next: { ...old, deletionTimestamp: '2024-03-01T00:00:00Z', deletionGracePeriodSeconds: 30 },
      want: [
        'metadata.deletionTimestamp: Invalid value: "2024-03-01T00:00:00Z": field is immutable',
        'metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable',
      ],
    },
    {
      name: 'resourceVersion required, generation not decremented',
      next: { ...old, resourceVersion: undefined, generation: 2 },
      want: [
        'metadata.resourceVersion: Invalid value: "": must be specified for an update',
        'metadata.generation: Invalid value: 2: must not be decremented',
      ],
    },
    {
      name: 'no new finalizers while terminating',
      old: { ...old, deletionTimestamp: '2024-03-01T00:00:00Z', finalizers: ['a.io/x'] },
      next: { ...old, deletionTimestamp: '2024-03-01T00:00:00Z', finalizers: ['a.io/x', 'b.io/z', 'a.io/y'] },
      want: [
        'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"a.io/y", "b.io/z"}',
      ],
    },
    {
      name: 'removing finalizers while terminating is fine',
      old: { ...old, deletionTimestamp: '2024-03-01T00:00:00Z', finalizers: ['a.io/x'] },
      next: { ...old, deletionTimestamp: '2024-03-01T00:00:00Z', finalizers: [] },
      want: [],
    },
    {
      name: 'labels are validated on update too',
      next: { ...old, labels: { ok: 'not ok' } },
      want: [
        "metadata.labels: Invalid value: \"not ok\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(show(validateObjectMetaUpdate(c.next, c.old ?? old)), c.want));
  }
});

describe('carryOverMetaForUpdate', () => {
  it('keeps the server-owned fields of the stored object', () => {
    const next: ObjectMeta = { name: 'a', generation: 9, deletionTimestamp: null };
    carryOverMetaForUpdate(next, {
      name: 'a',
      uid: 'u',
      generation: 2,
      creationTimestamp: '2024-01-01T00:00:00Z',
      deletionTimestamp: '2024-02-01T00:00:00Z',
      deletionGracePeriodSeconds: 0,
    });
    assert.deepEqual(next, {
      name: 'a',
      uid: 'u',
      generation: 2,
      creationTimestamp: '2024-01-01T00:00:00Z',
      deletionTimestamp: '2024-02-01T00:00:00Z',
      deletionGracePeriodSeconds: 0,
    });
  });
});
