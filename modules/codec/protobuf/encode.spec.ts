import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../api/index.js';
import type { Schema } from '../../api/index.js';
import {
  configMapDefinition,
  leaseDefinition,
  namespaceDefinition,
  secretDefinition,
  serviceAccountDefinition,
} from '../../kinds/index.js';
import { decodeProtobufObject } from './decode.js';
import { encodeProtobufObject } from './encode.js';
import { decodeProtobuf, encodeProtobuf } from './meta-messages.js';
import {
  fullConfigMap,
  hex,
  jan2024,
  kubectlBodies,
  objectMetaPointers,
  pb,
  toHex,
  withPointers,
  withoutPointers,
} from '../../../test/support/protobuf.js';

const at = (n: number, schema: Schema): Schema => ({ ...schema, 'x-pgkube-protobuf': n });

/** The kinds' schemas with their Go pointer fields marked, as kube's types have them. */
const marked = {
  namespace: withPointers(namespaceDefinition.schema, objectMetaPointers),
  configMap: withPointers(configMapDefinition.schema, [...objectMetaPointers, 'immutable']),
  secret: withPointers(secretDefinition.schema, [...objectMetaPointers, 'immutable']),
  serviceAccount: withPointers(serviceAccountDefinition.schema, [
    ...objectMetaPointers,
    'automountServiceAccountToken',
  ]),
  lease: withPointers(leaseDefinition.schema, [
    ...objectMetaPointers,
    ...['holderIdentity', 'leaseDurationSeconds', 'acquireTime', 'renewTime', 'leaseTransitions'].map(
      (f) => `spec.${f}`,
    ),
    'spec.strategy',
    'spec.preferredHolder',
  ]),
};

describe('encoding is byte-identical to kube', () => {
  for (const kind of ['namespace', 'configMap', 'secret', 'serviceAccount'] as const) {
    it(`kubectl's ${kind} body, decoded and encoded again`, () => {
      const obj = decodeProtobuf(hex(kubectlBodies[kind]), marked[kind]);
      assert.equal(toHex(encodeProtobuf(obj, marked[kind])), kubectlBodies[kind]);
    });
  }

  it('Go value fields the JSON leaves out are written at their zero value', () => {
    const obj = { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'foo' } };
    assert.equal(toHex(encodeProtobuf(obj, marked.namespace)), kubectlBodies.namespace);
  });

  it('a ConfigMap with labels (sorted), owners, managed fields and binary data', () => {
    const want = pb.envelope('v1', 'ConfigMap', fullConfigMap.raw);
    const json = structuredClone(fullConfigMap.json);
    json.metadata.labels = { tier: '', app: 'web' };
    assert.equal(toHex(encodeProtobuf(json, marked.configMap)), want);
  });

  it('a Lease: MicroTime as seconds and nanos, pointer zero values written', () => {
    const raw =
      pb.msg(
        1,
        pb.str(1, 'l'),
        pb.str(2, ''),
        pb.str(3, 'n'),
        pb.str(4, ''),
        pb.str(5, ''),
        pb.str(6, ''),
        pb.int(7, 0),
        '4200', // creationTimestamp: Go's zero Time, an empty message
      ) + pb.msg(2, pb.str(1, ''), pb.msg(4, pb.int(1, jan2024), pb.int(2, 123456000)), pb.int(5, 0));
    const obj = {
      metadata: { name: 'l', namespace: 'n' },
      spec: { holderIdentity: '', renewTime: '2024-01-01T00:00:00.123456Z', leaseTransitions: 0 },
    };
    assert.equal(toHex(encodeProtobufObject(obj, marked.lease)), raw);
  });

  it('absent pointer fields are left out; unmarked fields count as Go values and are written', () => {
    const obj = { metadata: { name: 'c' } };
    const withMarks = toHex(encodeProtobufObject(obj, marked.configMap));
    const withoutMarks = toHex(encodeProtobufObject(obj, withoutPointers(configMapDefinition.schema)));
    assert.equal(withMarks, pb.msg(1, '0a0163', '1200', '1a00', '2200', '2a00', '3200', '3800', '4200'));
    // deletionTimestamp, deletionGracePeriodSeconds and immutable, each at its zero value
    assert.equal(
      withoutMarks,
      pb.msg(1, '0a0163', '1200', '1a00', '2200', '2a00', '3200', '3800', '4200', '4a00', '5000') + '2000',
    );
  });
});

describe('encoding shared wire forms', () => {
  const schema: Schema = {
    type: 'object',
    properties: {
      port: at(1, { 'x-kubernetes-int-or-string': true }),
      limits: at(2, {
        type: 'object',
        additionalProperties: { 'x-pgkube-ref': 'io.k8s.apimachinery.pkg.api.resource.Quantity' },
      }),
      ids: at(3, { type: 'array', items: { type: 'integer', format: 'int32' } }),
      offset: at(4, { type: 'integer', format: 'int32' }),
      ratio: at(5, { type: 'number', format: 'double' }),
      when: at(6, { 'x-pgkube-ref': 'io.k8s.apimachinery.pkg.apis.meta.v1.Time' }),
      blobs: at(7, { type: 'object', additionalProperties: { type: 'string', format: 'byte' } }),
      extra: at(8, { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }),
      raw: at(9, { 'x-pgkube-ref': 'io.k8s.apimachinery.pkg.runtime.RawExtension' }),
    },
  };
  const cases: { name: string; obj: Record<string, unknown>; want: string }[] = [
    {
      name: 'IntOrString int',
      obj: { port: 8080 },
      want: pb.msg(1, pb.int(1, 0), pb.int(2, 8080), pb.str(3, '')),
    },
    {
      name: 'IntOrString string',
      obj: { port: 'http' },
      want: pb.msg(1, pb.int(1, 1), pb.int(2, 0), pb.str(3, 'http')),
    },
    {
      name: 'Quantity',
      obj: { limits: { cpu: '500m' } },
      want: pb.msg(2, pb.str(1, 'cpu'), pb.msg(2, pb.str(1, '500m'))),
    },
    { name: 'repeated int32, unpacked', obj: { ids: [1, 300] }, want: pb.int(3, 1) + pb.int(3, 300) },
    { name: 'negative int32: ten bytes', obj: { offset: -5 }, want: '20fbffffffffffffffff01' },
    { name: 'double', obj: { ratio: 0.5 }, want: '29000000000000e03f' },
    {
      name: 'Time with an offset and a fraction: seconds and nanos as written',
      obj: { when: '2024-01-01T02:00:00.5+02:00' },
      want: pb.msg(6, pb.int(1, jan2024), pb.int(2, 500000000)),
    },
    { name: 'Go’s zero time: an empty message', obj: { when: '0001-01-01T00:00:00Z' }, want: '3200' },
    {
      name: 'map keys in UTF-8 byte order; a null []byte value is left out',
      obj: { blobs: { '😀': 'AA==', '～': null, b: '', a: 'AQ==' } },
      want:
        pb.msg(7, pb.str(1, 'a'), pb.bytes(2, '01')) +
        pb.msg(7, pb.str(1, 'b'), pb.bytes(2, '')) +
        pb.msg(7, pb.str(1, '～')) +
        pb.msg(7, pb.str(1, '😀'), pb.bytes(2, '00')),
    },
    {
      name: 'a list inside a map is wrapped in a message',
      obj: { extra: { g: ['x', 'y'] } },
      want: pb.msg(8, pb.str(1, 'g'), pb.msg(2, pb.str(1, 'x'), pb.str(1, 'y'))),
    },
    { name: 'RawExtension as JSON', obj: { raw: { a: 1 } }, want: pb.msg(9, pb.str(1, '{"a":1}')) },
  ];
  // every field a pointer, so each case shows only its own field
  const pointers = withPointers(schema, Object.keys(schema.properties ?? {}));
  for (const c of cases) {
    it(c.name, () => assert.equal(toHex(encodeProtobufObject(c.obj, pointers)), c.want));
  }
  it('decoding what was encoded gives the object back', () => {
    const obj = {
      port: 'http',
      limits: { cpu: '1' },
      ids: [1, 2],
      offset: -5,
      ratio: 0.25,
      when: '2024-01-01T00:00:00Z',
    };
    assert.deepEqual(decodeProtobufObject(encodeProtobufObject(obj, pointers), pointers), obj);
  });
});

describe('objects that do not fit their schema are server faults', () => {
  const cases: { name: string; obj: Record<string, unknown>; message: string }[] = [
    {
      name: 'a number for a string',
      obj: { metadata: { name: 5 } },
      message: 'metadata.name as protobuf: expected a string',
    },
    {
      name: 'a string for an integer',
      obj: { metadata: { generation: '1' } },
      message: 'metadata.generation as protobuf: expected an integer',
    },
    {
      name: 'a bad time',
      obj: { metadata: { creationTimestamp: 'yesterday' } },
      message: 'metadata.creationTimestamp as protobuf: expected an RFC 3339 time',
    },
    {
      name: 'an object for a list',
      obj: { metadata: { finalizers: {} } },
      message: 'metadata.finalizers as protobuf: expected an array',
    },
    { name: 'a list for a map', obj: { data: [] }, message: 'data as protobuf: expected an object' },
  ];
  for (const c of cases) {
    it(c.name, () =>
      assert.throws(
        () => encodeProtobufObject(c.obj, configMapDefinition.schema),
        (e: unknown) =>
          e instanceof ApiError &&
          e.code === 500 &&
          e.message === `Internal error occurred: unable to encode ${c.message}`,
      ),
    );
  }
});
