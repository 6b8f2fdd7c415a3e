import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../api/index.js';
import { configMapDefinition } from '../../kinds/index.js';
import {
  decodeDeleteOptions,
  decodeProtobuf,
  encodeProtobuf,
  encodeStatus,
  listSchema,
  partialObjectMetadataSchema,
  responseSchema,
  statusSchema,
} from './meta-messages.js';
import { hex, pb, toHex, withPointers, objectMetaPointers } from '../../../test/support/protobuf.js';

const text = (s: string) => Buffer.from(s, 'utf8').toString('hex');

describe('Status', () => {
  it('encodes a NotFound as kube does', () => {
    const status = ApiError.notFound({ group: '', resource: 'configmaps' }, 'x').toStatus();
    // written out by hand from meta/v1 generated.proto: Status {1 ListMeta, 2 status, 3 message, 4 reason,
    // 5 details {1 name, 2 group, 3 kind, 4 causes, 5 retryAfterSeconds, 6 uid}, 6 code}
    const want =
      '6b387300' +
      ('0a0c' + '0a027631' + '1206' + text('Status')) +
      '124f' +
      ('0a06' + '0a00' + '1200' + '1a00') +
      ('1207' + text('Failure')) +
      ('1a18' + text('configmaps "x" not found')) +
      ('2208' + text('NotFound')) +
      ('2a15' + '0a0178' + '1200' + '1a0a' + text('configmaps') + '2800' + '3200') +
      '309403' +
      '1a00' +
      '2200';
    assert.equal(toHex(encodeStatus(status)), want);
  });

  it('writes causes in order, and leaves out absent details', () => {
    const withCauses = ApiError.badRequest('bad', [
      { reason: 'FieldValueInvalid', message: 'm', field: 'f' },
    ]).toStatus();
    const raw = hex(toHex(encodeStatus(withCauses)).slice(8));
    assert.ok(toHex(raw).includes(pb.msg(4, pb.str(1, 'FieldValueInvalid'), pb.str(2, 'm'), pb.str(3, 'f'))));
    const plain = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 } as const;
    assert.ok(!toHex(encodeStatus(plain as never)).includes('2a'));
  });
});

describe('DeleteOptions', () => {
  it('decodes every field, keeping zero values (all are Go pointers)', () => {
    const raw =
      pb.int(1, 0) +
      pb.msg(2, pb.str(1, 'u1')) +
      pb.int(3, 0) +
      pb.str(4, 'Foreground') +
      pb.str(5, 'All') +
      pb.int(6, 1);
    assert.deepEqual(decodeDeleteOptions(hex(pb.envelope('meta.k8s.io/v1', 'DeleteOptions', raw))), {
      kind: 'DeleteOptions',
      apiVersion: 'meta.k8s.io/v1',
      gracePeriodSeconds: 0,
      preconditions: { uid: 'u1' },
      orphanDependents: false,
      propagationPolicy: 'Foreground',
      dryRun: ['All'],
      ignoreStoreReadErrorWithClusterBreakingPotential: true,
    });
  });
  it('an empty body gives just the type', () => {
    assert.deepEqual(decodeDeleteOptions(hex(pb.envelope('v1', 'DeleteOptions', ''))), {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
    });
  });
});

describe('lists', () => {
  it('encode as {1: ListMeta, 2: repeated items}', () => {
    const item = withPointers(configMapDefinition.schema, [...objectMetaPointers, 'immutable']);
    const list = {
      kind: 'ConfigMapList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '7', remainingItemCount: 0 },
      items: [{ metadata: { name: 'a' }, data: { k: 'v' } }],
    };
    const want = pb.envelope(
      'v1',
      'ConfigMapList',
      pb.msg(1, pb.str(1, ''), pb.str(2, '7'), pb.str(3, ''), pb.int(4, 0)) +
        pb.msg(
          2,
          pb.msg(1, '0a0161', '1200', '1a00', '2200', '2a00', '3200', '3800', '4200'),
          pb.msg(2, pb.str(1, 'k'), pb.str(2, 'v')),
        ),
    );
    assert.equal(toHex(encodeProtobuf(list, listSchema(item))), want);
  });
});

describe('PartialObjectMetadata', () => {
  // ObjectMeta of {name: a, namespace: n, resourceVersion: 5}: every Go value field written
  const objectMeta = pb.msg(
    1,
    '0a0161',
    '1200',
    '1a016e',
    '2200',
    '2a00',
    '3201' + text('5'),
    '3800',
    '4200',
  );
  const metadata = { name: 'a', namespace: 'n', resourceVersion: '5' };

  it('is {1: ObjectMeta}, typed meta.k8s.io', () => {
    const obj = { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata };
    const want = pb.envelope('meta.k8s.io/v1', 'PartialObjectMetadata', objectMeta);
    assert.equal(toHex(encodeProtobuf(obj, responseSchema(obj, partialObjectMetadataSchema))), want);
    // Go's zero Time reads back as kube's JSON writes it: null
    assert.deepEqual(decodeProtobuf(hex(want), partialObjectMetadataSchema), {
      ...obj,
      metadata: { ...metadata, creationTimestamp: null },
    });
  });

  it('its list is {1: ListMeta, 2: items} in v1 and {1: items, 2: ListMeta} in v1beta1', () => {
    const listMeta = pb.msg(1, pb.str(1, ''), pb.str(2, '9'), pb.str(3, ''));
    const item = objectMeta; // the item message: {1: ObjectMeta}
    for (const [version, raw] of [
      ['v1', listMeta + pb.bytes(2, item)],
      ['v1beta1', pb.bytes(1, item) + pb.msg(2, pb.str(1, ''), pb.str(2, '9'), pb.str(3, ''))],
    ]) {
      const list = {
        kind: 'PartialObjectMetadataList',
        apiVersion: `meta.k8s.io/${version}`,
        metadata: { resourceVersion: '9' },
        items: [{ metadata }],
      };
      const schema = responseSchema(list, partialObjectMetadataSchema);
      const want = pb.envelope(`meta.k8s.io/${version}`, 'PartialObjectMetadataList', raw);
      assert.equal(toHex(encodeProtobuf(list, schema)), want, version);
    }
  });

  it('responses pick Status, the list, or the object itself', () => {
    const cm = configMapDefinition.schema;
    assert.equal(responseSchema({ kind: 'Status' }, cm), statusSchema);
    assert.equal(responseSchema({ kind: 'ConfigMap' }, cm), cm);
    const list = responseSchema({ kind: 'ConfigMapList', items: [] }, cm);
    assert.equal(list.properties?.items?.items, cm);
    assert.equal(responseSchema({ kind: 'ConfigMapList', items: [] }, cm), list, 'one list schema per kind');
  });
});
