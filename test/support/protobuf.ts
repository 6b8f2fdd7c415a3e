/**
 * Shared by this folder's specs: hex helpers, a tiny protobuf writer of its own (independent of wire.ts) to
 * spell test vectors field by field, and schema copies with Go pointer fields marked.
 */
import assert from 'node:assert/strict';
import { ApiError } from '../../modules/api/index.js';
import type { Schema } from '../../modules/registry/index.js';
import { pointerMarker } from '../../modules/codec/index.js';

export const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s.replace(/\s+/g, ''), 'hex'));
export const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function varint(n: number | bigint): string {
  let v = BigInt.asUintN(64, BigInt(n));
  let out = '';
  do {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    out += (v > 0n ? b | 0x80 : b).toString(16).padStart(2, '0');
  } while (v > 0n);
  return out;
}

const tag = (field: number, wireType: number) => varint(field * 8 + wireType);
const len = (h: string) => h.replace(/\s+/g, '');

/** Test-vector spelling: each returns the hex of one field. */
export const pb = {
  int: (field: number, n: number | bigint) => tag(field, 0) + varint(n),
  str: (field: number, s: string) => {
    const body = Buffer.from(s, 'utf8').toString('hex');
    return tag(field, 2) + varint(body.length / 2) + body;
  },
  bytes: (field: number, h: string) => tag(field, 2) + varint(len(h).length / 2) + len(h),
  msg: (field: number, ...parts: string[]) => pb.bytes(field, parts.join('')),
  /** the `k8s\0` envelope around an object message */
  envelope: (apiVersion: string, kind: string, raw: string) =>
    '6b387300' + pb.msg(1, pb.str(1, apiVersion), pb.str(2, kind)) + pb.bytes(2, raw) + '1a00' + '2200',
};

/** A copy of `schema` with the fields at the given paths (`a.b`, `list[].c`) marked as Go pointers. */
export function withPointers(schema: Schema, paths: string[]): Schema {
  const copy = structuredClone(schema);
  for (const p of paths) {
    let node: Schema | undefined = copy;
    for (const seg of p.split('.')) {
      const [name, ...arrays] = seg.split('[]');
      node = node?.properties?.[name];
      for (let i = 0; i < arrays.length; i++) node = node?.items;
    }
    if (!node) throw new Error(`no schema at ${p}`);
    (node as Record<string, unknown>)[pointerMarker] = true;
  }
  return copy;
}

/** A copy of a schema with every pointer marker removed: every field reads as a Go value field. */
export function withoutPointers(schema: Schema): Schema {
  return JSON.parse(JSON.stringify(schema, (key, value) => (key === pointerMarker ? undefined : value)));
}

/** The Go pointer fields of ObjectMeta (and what it holds) in kube v1.32. */
export const objectMetaPointers = [
  'metadata.deletionTimestamp',
  'metadata.deletionGracePeriodSeconds',
  'metadata.ownerReferences[].controller',
  'metadata.ownerReferences[].blockOwnerDeletion',
  'metadata.managedFields[].time',
  'metadata.managedFields[].fieldsV1',
];

export function rejects400(message?: string | RegExp) {
  return (e: unknown): boolean => {
    assert.ok(e instanceof ApiError, `not an ApiError: ${String(e)}`);
    assert.equal(e.code, 400);
    if (typeof message === 'string') assert.equal(e.message, message);
    else if (message) assert.match(e.message, message);
    return true;
  };
}

/** Bodies real kubectl v1.32 sent to a capturing server (`kubectl create ns foo`, ...). */
export const kubectlBodies = {
  namespace:
    '6b3873000a0f0a02763112094e616d657370616365121b0a130a03666f6f12001a0022002a0032003800420012001a020a001a002200',
  configMap:
    '6b3873000a0f0a0276311209436f6e6669674d617012280a160a03636d3112001a03666f6f22002a0032003800420012060a0161' +
    '12016212060a027a7a12001a002200',
  secret:
    '6b3873000a0c0a027631120653656372657412260a150a02733112001a03666f6f22002a00320038004200120b0a017012067365' +
    '637265741a001a002200',
  serviceAccount:
    '6b3873000a140a027631120e536572766963654163636f756e7412180a160a0373613112001a03666f6f22002a00320038004200' +
    '1a002200',
};

/** 2024-01-01T00:00:00Z */
export const jan2024 = 1704067200;

/** A ConfigMap using most of ObjectMeta, spelled the way kube writes it. */
export const fullConfigMap = {
  raw:
    pb.msg(
      1,
      pb.str(1, 'app-config'),
      pb.str(2, ''),
      pb.str(3, 'prod'),
      pb.str(4, ''),
      pb.str(5, 'u-0001'),
      pb.str(6, '42'),
      pb.int(7, 0),
      pb.msg(8, pb.int(1, jan2024), pb.int(2, 0)),
      pb.msg(11, pb.str(1, 'app'), pb.str(2, 'web')),
      pb.msg(11, pb.str(1, 'tier'), pb.str(2, '')),
      pb.msg(12, pb.str(1, 'note'), pb.str(2, 'hi')),
      pb.msg(
        13,
        pb.str(1, 'Deployment'),
        pb.str(3, 'web'),
        pb.str(4, 'u-1'),
        pb.str(5, 'apps/v1'),
        pb.int(6, 1),
      ),
      pb.str(14, 'example.com/keep'),
      pb.msg(
        17,
        pb.str(1, 'kubectl'),
        pb.str(2, 'Update'),
        pb.str(3, 'v1'),
        pb.msg(4, pb.int(1, jan2024), pb.int(2, 0)),
        pb.str(6, 'FieldsV1'),
        pb.msg(7, pb.str(1, '{"f:data":{"f:a":{}}}')),
        pb.str(8, ''),
      ),
    ) +
    pb.msg(2, pb.str(1, 'a'), pb.str(2, '1')) +
    pb.msg(3, pb.str(1, 'logo'), pb.bytes(2, '89504e47')) +
    pb.int(4, 1),
  json: {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: {
      name: 'app-config',
      namespace: 'prod',
      uid: 'u-0001',
      resourceVersion: '42',
      creationTimestamp: '2024-01-01T00:00:00Z',
      labels: { app: 'web', tier: '' },
      annotations: { note: 'hi' },
      ownerReferences: [
        { kind: 'Deployment', name: 'web', uid: 'u-1', apiVersion: 'apps/v1', controller: true },
      ],
      finalizers: ['example.com/keep'],
      managedFields: [
        {
          manager: 'kubectl',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2024-01-01T00:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:data': { 'f:a': {} } },
        },
      ],
    },
    data: { a: '1' },
    binaryData: { logo: 'iVBORw==' },
    immutable: true,
  },
};
