import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../api/index.js';
import type { Schema } from '../../api/index.js';
import {
  configMapDefinition,
  eventDefinition,
  leaseDefinition,
  namespaceDefinition,
  secretDefinition,
  serviceAccountDefinition,
} from '../../kinds/index.js';
import { decodeProtobufObject } from './decode.js';
import { decodeProtobuf } from './meta-messages.js';
import {
  fullConfigMap,
  hex,
  jan2024,
  kubectlBodies,
  objectMetaPointers,
  pb,
  rejects400,
  withPointers,
  withoutPointers,
} from '../../../test/support/protobuf.js';

const at = (n: number, schema: Schema): Schema => ({ ...schema, 'x-pgkube-protobuf': n });
const str = (n: number): Schema => at(n, { type: 'string' });

describe('decoding what kubectl sends', () => {
  const cases: { name: string; body: string; schema: Schema; want: Record<string, unknown> }[] = [
    {
      name: 'kubectl create ns foo',
      body: kubectlBodies.namespace,
      schema: namespaceDefinition.schema,
      want: {
        kind: 'Namespace',
        apiVersion: 'v1',
        metadata: { name: 'foo', creationTimestamp: null },
        spec: {},
        status: {},
      },
    },
    {
      name: 'kubectl create configmap cm1 --from-literal=a=b --from-literal=zz=',
      body: kubectlBodies.configMap,
      schema: configMapDefinition.schema,
      want: {
        kind: 'ConfigMap',
        apiVersion: 'v1',
        metadata: { name: 'cm1', namespace: 'foo', creationTimestamp: null },
        data: { a: 'b', zz: '' },
      },
    },
    {
      name: 'kubectl create secret generic s1 --from-literal=p=secret',
      body: kubectlBodies.secret,
      schema: secretDefinition.schema,
      want: {
        kind: 'Secret',
        apiVersion: 'v1',
        metadata: { name: 's1', namespace: 'foo', creationTimestamp: null },
        data: { p: Buffer.from('secret').toString('base64') },
      },
    },
    {
      name: 'kubectl create sa sa1',
      body: kubectlBodies.serviceAccount,
      schema: serviceAccountDefinition.schema,
      want: {
        kind: 'ServiceAccount',
        apiVersion: 'v1',
        metadata: { name: 'sa1', namespace: 'foo', creationTimestamp: null },
      },
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(decodeProtobuf(hex(c.body), c.schema), c.want));
  }
});

describe('decoding kinds', () => {
  it('a ConfigMap with labels, owners, managed fields and binary data', () => {
    const body = hex(pb.envelope('v1', 'ConfigMap', fullConfigMap.raw));
    assert.deepEqual(decodeProtobuf(body, configMapDefinition.schema), fullConfigMap.json);
  });

  const leaseSpecPointers = ['holderIdentity', 'leaseDurationSeconds', 'renewTime', 'leaseTransitions'];
  const leaseRaw =
    pb.msg(1, pb.str(1, 'node-1'), pb.str(3, 'kube-node-lease'), pb.msg(8)) +
    pb.msg(
      2,
      pb.str(1, ''),
      pb.int(2, 40),
      pb.msg(4, pb.int(1, jan2024), pb.int(2, 123456789)),
      pb.int(5, 0),
    );
  const typeMeta = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' };

  it('Go pointer fields keep the zero values that were sent; MicroTime keeps microseconds', () => {
    const schema = withPointers(
      leaseDefinition.schema,
      leaseSpecPointers.map((f) => `spec.${f}`),
    );
    assert.deepEqual(decodeProtobufObject(hex(leaseRaw), schema, typeMeta), {
      ...typeMeta,
      metadata: { name: 'node-1', namespace: 'kube-node-lease', creationTimestamp: null },
      spec: {
        holderIdentity: '',
        leaseDurationSeconds: 40,
        renewTime: '2024-01-01T00:00:00.123456Z',
        leaseTransitions: 0,
      },
    });
  });

  it('Go value fields leave their zero values out, as kube’s JSON (omitempty) does', () => {
    const spec = decodeProtobufObject(hex(leaseRaw), withoutPointers(leaseDefinition.schema)).spec;
    assert.deepEqual(spec, { leaseDurationSeconds: 40, renewTime: '2024-01-01T00:00:00.123456Z' });
  });

  it('an Event with Time (whole seconds), MicroTime and nested messages', () => {
    const raw =
      pb.msg(1, pb.str(1, 'e1'), pb.str(3, 'default')) +
      pb.msg(2, pb.str(1, 'Pod'), pb.str(2, 'default'), pb.str(3, 'p')) +
      pb.str(3, 'Started') +
      pb.msg(5, pb.str(1, 'kubelet'), pb.str(2, '')) +
      pb.msg(6, pb.int(1, jan2024), pb.int(2, 999999999)) +
      pb.msg(7) +
      pb.int(8, 3) +
      pb.msg(10, pb.int(1, jan2024 + 61), pb.int(2, 10000)) +
      pb.msg(11, pb.int(1, 2), pb.msg(2, pb.int(1, -1), pb.int(2, 0)));
    const schema = withPointers(eventDefinition.schema, [...objectMetaPointers, 'series', 'related']);
    assert.deepEqual(decodeProtobufObject(hex(raw), schema), {
      metadata: { name: 'e1', namespace: 'default' },
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' },
      reason: 'Started',
      source: { component: 'kubelet' },
      firstTimestamp: '2024-01-01T00:00:00Z',
      lastTimestamp: null,
      count: 3,
      eventTime: '2024-01-01T00:01:01.000010Z',
      series: { count: 2, lastObservedTime: '1969-12-31T23:59:59.000000Z' },
    });
  });
});

describe('decoding shared wire forms', () => {
  const schema: Schema = {
    type: 'object',
    required: ['must'],
    properties: {
      port: at(1, { 'x-kubernetes-int-or-string': true }),
      name: at(2, { 'x-pgkube-ref': 'io.k8s.apimachinery.pkg.util.intstr.IntOrString' }),
      limits: at(3, {
        type: 'object',
        additionalProperties: {
          'x-pgkube-ref': 'io.k8s.apimachinery.pkg.api.resource.Quantity',
          'x-kubernetes-int-or-string': true,
        },
      }),
      extra: at(4, { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }),
      ids: at(5, { type: 'array', items: { type: 'integer', format: 'int32' } }),
      raw: at(6, { type: 'object', 'x-pgkube-ref': 'io.k8s.apimachinery.pkg.runtime.RawExtension' }),
      ratio: at(7, { type: 'number', format: 'double' }),
      offset: at(8, { type: 'integer', format: 'int32' }),
      blob: at(9, { type: 'string', format: 'byte' }),
      must: str(10),
      nested: at(11, { type: 'object', properties: { a: str(1), b: str(2) } }),
      when: at(12, { type: 'string', 'x-pgkube-ref': 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime' }),
    },
  };
  const raw =
    pb.msg(1, pb.int(1, 0), pb.int(2, 8080), pb.str(3, '')) +
    pb.msg(2, pb.int(1, 1), pb.int(2, 0), pb.str(3, 'http')) +
    pb.msg(3, pb.str(1, 'cpu'), pb.msg(2, pb.str(1, '500m'))) +
    pb.msg(4, pb.str(1, 'groups'), pb.msg(2, pb.str(1, 'a'), pb.str(1, 'b'))) +
    pb.int(5, 1) +
    pb.bytes(5, '0203') + // packed
    pb.msg(6, pb.str(1, '{"kind":"X"}')) +
    '39' +
    '000000000000e03f' + // field 7, fixed64 0.5
    pb.int(8, -5) +
    pb.bytes(9, '0001') +
    pb.str(10, '') +
    pb.msg(11, pb.str(1, 'x')) +
    pb.msg(11, pb.str(2, 'y')) + // a message sent twice merges
    pb.msg(12) +
    pb.int(99, 1) +
    pb.str(98, 'unknown fields are skipped');
  const want = {
    port: 8080,
    name: 'http',
    limits: { cpu: '500m' },
    extra: { groups: ['a', 'b'] },
    ids: [1, 2, 3],
    raw: { kind: 'X' },
    ratio: 0.5,
    offset: -5,
    blob: 'AAE=',
    must: '',
    nested: { a: 'x', b: 'y' },
    when: null,
  };
  it('IntOrString, Quantity, map of lists, packed and unpacked repeats, RawExtension, doubles, bytes', () => {
    assert.deepEqual(decodeProtobufObject(hex(raw), schema), want);
  });
  it('a map key `__proto__` stays an ordinary key', () => {
    const out = decodeProtobufObject(
      hex(pb.msg(3, pb.str(1, '__proto__'), pb.msg(2, pb.str(1, '1')))),
      schema,
    );
    const limits = out.limits as Record<string, unknown>;
    assert.deepEqual(Object.keys(limits), ['__proto__']);
    assert.equal(Object.getPrototypeOf(limits), Object.prototype);
  });
  it('invalid UTF-8 becomes U+FFFD, as Go’s JSON writes it', () => {
    assert.deepEqual(decodeProtobufObject(hex(pb.bytes(10, '61ff62')), schema), { must: 'a\ufffdb' });
  });
});

describe('malformed bodies are 400s', () => {
  const schema = configMapDefinition.schema;
  const cases: { name: string; body: string; message: string | RegExp }[] = [
    {
      name: 'empty body',
      body: '',
      message: 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
    },
    { name: 'JSON', body: Buffer.from('{"kind":"ConfigMap"}').toString('hex'), message: /expected prefix/ },
    { name: 'cut inside the envelope', body: '6b3873000a0f0a027631', message: 'unexpected EOF' },
    {
      name: 'a string field sent as a varint',
      body: pb.envelope('v1', 'ConfigMap', pb.msg(1, pb.int(1, 7))),
      message: 'proto: wrong wireType = 0 for field Name',
    },
    {
      name: 'a map sent as a varint',
      body: pb.envelope('v1', 'ConfigMap', pb.int(2, 1)),
      message: 'proto: wrong wireType = 0 for field Data',
    },
    {
      name: 'a length past the end',
      body: pb.envelope('v1', 'ConfigMap', '0a7f00'),
      message: 'unexpected EOF',
    },
    {
      name: 'fieldsV1 that is not JSON',
      body: pb.envelope('v1', 'ConfigMap', pb.msg(1, pb.msg(17, pb.msg(7, pb.str(1, '{nope'))))),
      message: /^fieldsV1: invalid JSON/,
    },
    {
      name: 'a time past year 9999',
      body: pb.envelope('v1', 'ConfigMap', pb.msg(1, pb.msg(8, pb.int(1, 253402300800)))),
      message: /year outside of range/,
    },
    {
      name: 'field number 0',
      body: pb.envelope('v1', 'ConfigMap', '0001'),
      message: 'proto: illegal tag 0 (wire type 0)',
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.throws(() => decodeProtobuf(hex(c.body), schema), rejects400(c.message)));
  }

  it('every truncation of a valid body decodes or is a 400, never anything else', () => {
    const body = hex(pb.envelope('v1', 'ConfigMap', fullConfigMap.raw));
    for (let n = 0; n < body.length; n++) {
      try {
        decodeProtobuf(body.subarray(0, n), schema);
      } catch (e) {
        assert.ok(e instanceof ApiError && e.code === 400, `cut at ${n}: ${String(e)}`);
      }
    }
  });

  it('random byte changes decode or are 400s, never anything else', () => {
    const body = hex(pb.envelope('v1', 'ConfigMap', fullConfigMap.raw));
    let seed = 12345;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let i = 0; i < 3000; i++) {
      const copy = Uint8Array.from(body);
      for (let k = 0; k <= rand(3); k++) copy[4 + rand(copy.length - 4)] = rand(256);
      try {
        decodeProtobuf(copy, schema);
      } catch (e) {
        assert.ok(e instanceof ApiError && e.code === 400, `round ${i}: ${String(e)}`);
      }
    }
  });
});
