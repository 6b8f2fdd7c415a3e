/**
 * Shared by this folder's specs: hex helpers, a CBOR speller of its own (independent of encode.ts: it writes
 * what it is told, in the order it is told) to write expected bytes item by item, a diagnostic-notation printer
 * of its own (independent of decode.ts) to read encodings back by eye, and small fully populated objects of
 * every built-in kind.
 */
import type { KubeObject } from '../../modules/api/index.js';
import {
  configMapDefinition,
  eventDefinition,
  leaseDefinition,
  namespaceDefinition,
  secretDefinition,
  serviceAccountDefinition,
} from '../../modules/kinds/index.js';

export { hex, toHex } from './protobuf.js';

/** each built-in kind's schema, by the names `kinds` uses */
export const schemas = {
  namespace: namespaceDefinition.schema,
  configMap: configMapDefinition.schema,
  secret: secretDefinition.schema,
  serviceAccount: serviceAccountDefinition.schema,
  event: eventDefinition.schema,
  lease: leaseDefinition.schema,
};

function head(major: number, n: number): string {
  const m = major << 5;
  const h = (v: number, bytes: number) => v.toString(16).padStart(bytes * 2, '0');
  if (n < 24) return h(m | n, 1);
  if (n < 0x100) return h(m | 24, 1) + h(n, 1);
  if (n < 0x10000) return h(m | 25, 1) + h(n, 2);
  if (n < 0x100000000) return h(m | 26, 1) + h(n, 4);
  return h(m | 27, 1) + h(n, 8);
}

const utf8Hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');

/** Spells CBOR items as hex; maps are written in the order their entries are given. */
export const c = {
  /** a byte string holding the UTF-8 of `s` (how kube writes every string) */
  bs: (s: string) => head(2, Buffer.byteLength(s)) + utf8Hex(s),
  /** a text string */
  ts: (s: string) => head(3, Buffer.byteLength(s)) + utf8Hex(s),
  /** a byte string of raw bytes given in hex */
  bytes: (h: string) => head(2, h.length / 2) + h,
  int: (n: number) => (n >= 0 ? head(0, n) : head(1, -1 - n)),
  map: (...entries: [string, string][]) =>
    head(5, entries.length) + entries.map(([k, v]) => c.bs(k) + v).join(''),
  arr: (...items: string[]) => head(4, items.length) + items.join(''),
  tag: (n: number, content: string) => head(6, n) + content,
  /** tag 22 around raw bytes: a Go []byte */
  b64: (h: string) => c.tag(22, c.bytes(h)),
  /** an object as kube writes it: in the self-described tag */
  obj: (content: string) => 'd9d9f7' + content,
  null: 'f6',
  true: 'f5',
  false: 'f4',
};

/**
 * RFC 8949 diagnostic notation of one encoded item. Byte strings print as 'text' when they hold printable
 * UTF-8, text strings as "text", floats with their width (_1 half, _2 single, _3 double). Only the
 * deterministic form is accepted (shortest heads, definite lengths), so equal notation means equal bytes.
 */
export function diagnose(bytes: Uint8Array): string {
  let off = 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const arg = (ai: number): number => {
    if (ai < 24) return ai;
    const width = { 24: 1, 25: 2, 26: 4, 27: 8 }[ai];
    if (!width) throw new Error(`not deterministic: additional information ${ai} at ${off - 1}`);
    const v =
      width === 1
        ? bytes[off]
        : width === 2
          ? view.getUint16(off)
          : width === 4
            ? view.getUint32(off)
            : Number(view.getBigUint64(off));
    const min = { 1: 24, 2: 0x100, 4: 0x10000, 8: 0x100000000 }[width]!;
    if (v < min) throw new Error(`not the shortest head at ${off - 1}`);
    off += width;
    return v;
  };
  const item = (): string => {
    const initial = bytes[off++];
    const major = initial >> 5;
    const ai = initial & 31;
    if (major === 7) {
      if (ai === 20) return 'false';
      if (ai === 21) return 'true';
      if (ai === 22) return 'null';
      if (ai === 23) return 'undefined';
      const width = { 25: 2, 26: 4, 27: 8 }[ai];
      if (!width) return `simple(${ai === 24 ? bytes[off++] : ai})`;
      const v =
        width === 2 ? half(view.getUint16(off)) : width === 4 ? view.getFloat32(off) : view.getFloat64(off);
      off += width;
      return `${Object.is(v, -0) ? '-0.0' : Number.isInteger(v) ? v.toFixed(1) : v}_${{ 2: 1, 4: 2, 8: 3 }[width]}`;
    }
    const n = arg(ai);
    switch (major) {
      case 0:
        return String(n);
      case 1:
        return String(-1 - n);
      case 2: {
        const b = Buffer.from(bytes.subarray(off, (off += n)));
        const text = b.toString('utf8');
        return Buffer.from(text, 'utf8').equals(b) && /^[\x20-\x26\x28-\x7e\u00a0-\uffff]*$/.test(text)
          ? `'${text}'`
          : `h'${b.toString('hex')}'`;
      }
      case 3:
        return JSON.stringify(Buffer.from(bytes.subarray(off, (off += n))).toString('utf8'));
      case 4:
        return `[${Array.from({ length: n }, item).join(', ')}]`;
      case 5:
        return `{${Array.from({ length: n }, () => `${item()}: ${item()}`).join(', ')}}`;
      default:
        return `${n}(${item()})`;
    }
  };
  const out = item();
  if (off !== bytes.length) throw new Error(`${bytes.length - off} bytes after the item`);
  return out;
}

function half(bits: number): number {
  const exp = (bits >> 10) & 31;
  const mant = bits & 1023;
  const sign = bits & 0x8000 ? -1 : 1;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 31) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/** ObjectMeta with every field kube serves set. */
export function fullMeta(namespace?: string): KubeObject['metadata'] {
  return {
    name: 'n',
    generateName: 'g-',
    ...(namespace ? { namespace } : {}),
    selfLink: '/s',
    uid: 'u1',
    resourceVersion: '7',
    generation: 3,
    creationTimestamp: '2024-01-02T03:04:05Z',
    deletionTimestamp: '2024-01-02T03:04:06Z',
    deletionGracePeriodSeconds: 30,
    labels: { app: 'x', a: 'y' },
    annotations: { 'k8s.io/a': 'v' },
    ownerReferences: [
      { apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u2', controller: true, blockOwnerDeletion: false },
    ],
    finalizers: ['f'],
    managedFields: [
      {
        manager: 'm',
        operation: 'Apply',
        apiVersion: 'v1',
        time: '2024-01-02T03:04:05Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:a': {} } },
        subresource: 's',
      },
    ],
  };
}

/** fullMeta in kube's CBOR: keys shorter first, equal lengths bytewise. */
export function fullMetaCbor(namespace?: string): string {
  const ownerReference = c.map(
    ['uid', c.bs('u2')],
    ['kind', c.bs('Pod')],
    ['name', c.bs('p')],
    ['apiVersion', c.bs('v1')],
    ['controller', c.true],
    ['blockOwnerDeletion', c.false],
  );
  const managedFields = c.map(
    ['time', c.bs('2024-01-02T03:04:05Z')],
    ['manager', c.bs('m')],
    ['fieldsV1', c.map(['f:data', c.map(['f:a', c.map()])])],
    ['operation', c.bs('Apply')],
    ['apiVersion', c.bs('v1')],
    ['fieldsType', c.bs('FieldsV1')],
    ['subresource', c.bs('s')],
  );
  return c.map(
    ['uid', c.bs('u1')],
    ['name', c.bs('n')],
    ['labels', c.map(['a', c.bs('y')], ['app', c.bs('x')])],
    ['selfLink', c.bs('/s')],
    ...(namespace ? [['namespace', c.bs(namespace)] as [string, string]] : []),
    ['finalizers', c.arr(c.bs('f'))],
    ['generation', c.int(3)],
    ['annotations', c.map(['k8s.io/a', c.bs('v')])],
    ['generateName', c.bs('g-')],
    ['managedFields', c.arr(managedFields)],
    ['ownerReferences', c.arr(ownerReference)],
    ['resourceVersion', c.bs('7')],
    ['creationTimestamp', c.bs('2024-01-02T03:04:05Z')],
    ['deletionTimestamp', c.bs('2024-01-02T03:04:06Z')],
    ['deletionGracePeriodSeconds', c.int(30)],
  );
}

const objectReference = {
  kind: 'Pod',
  namespace: 'ns',
  name: 'p',
  uid: 'u3',
  apiVersion: 'v1',
  resourceVersion: '9',
  fieldPath: 'spec',
};

const objectReferenceCbor = c.map(
  ['uid', c.bs('u3')],
  ['kind', c.bs('Pod')],
  ['name', c.bs('p')],
  ['fieldPath', c.bs('spec')],
  ['namespace', c.bs('ns')],
  ['apiVersion', c.bs('v1')],
  ['resourceVersion', c.bs('9')],
);

/** A fully populated object of each built-in kind, with its expected CBOR spelled out in kube's key order. */
export const kinds = {
  namespace: {
    object: {
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: fullMeta(),
      spec: { finalizers: ['kubernetes'] },
      status: {
        phase: 'Active',
        conditions: [
          {
            type: 'T',
            status: 'True',
            lastTransitionTime: '2024-01-02T03:04:05Z',
            reason: 'R',
            message: 'm',
          },
        ],
      },
    },
    cbor: c.obj(
      c.map(
        ['kind', c.bs('Namespace')],
        ['spec', c.map(['finalizers', c.arr(c.bs('kubernetes'))])],
        [
          'status',
          c.map(
            ['phase', c.bs('Active')],
            [
              'conditions',
              c.arr(
                c.map(
                  ['type', c.bs('T')],
                  ['reason', c.bs('R')],
                  ['status', c.bs('True')],
                  ['message', c.bs('m')],
                  ['lastTransitionTime', c.bs('2024-01-02T03:04:05Z')],
                ),
              ),
            ],
          ),
        ],
        ['metadata', fullMetaCbor()],
        ['apiVersion', c.bs('v1')],
      ),
    ),
  },
  configMap: {
    object: {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: fullMeta('ns'),
      immutable: true,
      data: { b: 'text', a: '' },
      binaryData: { bin: 'AAH/', empty: '' },
    },
    cbor: c.obj(
      c.map(
        ['data', c.map(['a', c.bs('')], ['b', c.bs('text')])],
        ['kind', c.bs('ConfigMap')],
        ['metadata', fullMetaCbor('ns')],
        ['immutable', c.true],
        ['apiVersion', c.bs('v1')],
        ['binaryData', c.map(['bin', c.b64('0001ff')], ['empty', c.b64('')])],
      ),
    ),
  },
  secret: {
    object: {
      kind: 'Secret',
      apiVersion: 'v1',
      metadata: fullMeta('ns'),
      immutable: false,
      data: { 'tls.key': 'AgM=', token: 'dG9r' },
      stringData: { plain: 'p' },
      type: 'kubernetes.io/tls',
    },
    cbor: c.obj(
      c.map(
        ['data', c.map(['token', c.b64('746f6b')], ['tls.key', c.b64('0203')])],
        ['kind', c.bs('Secret')],
        ['type', c.bs('kubernetes.io/tls')],
        ['metadata', fullMetaCbor('ns')],
        ['immutable', c.false],
        ['apiVersion', c.bs('v1')],
        ['stringData', c.map(['plain', c.bs('p')])],
      ),
    ),
  },
  serviceAccount: {
    object: {
      kind: 'ServiceAccount',
      apiVersion: 'v1',
      metadata: fullMeta('ns'),
      secrets: [objectReference],
      imagePullSecrets: [{ name: 'pull' }],
      automountServiceAccountToken: false,
    },
    cbor: c.obj(
      c.map(
        ['kind', c.bs('ServiceAccount')],
        ['secrets', c.arr(objectReferenceCbor)],
        ['metadata', fullMetaCbor('ns')],
        ['apiVersion', c.bs('v1')],
        ['imagePullSecrets', c.arr(c.map(['name', c.bs('pull')]))],
        ['automountServiceAccountToken', c.false],
      ),
    ),
  },
  event: {
    object: {
      kind: 'Event',
      apiVersion: 'v1',
      metadata: fullMeta('ns'),
      involvedObject: objectReference,
      reason: 'Started',
      message: 'ok',
      source: { component: 'kubelet', host: 'h' },
      firstTimestamp: '2024-01-02T03:04:05Z',
      lastTimestamp: '2024-01-02T03:04:07Z',
      count: 300,
      type: 'Normal',
      eventTime: '2024-01-02T03:04:05.000001Z',
      series: { count: 2, lastObservedTime: '2024-01-02T03:04:07.000002Z' },
      action: 'Start',
      related: objectReference,
      reportingComponent: 'kubelet',
      reportingInstance: 'h',
    },
    cbor: c.obj(
      c.map(
        ['kind', c.bs('Event')],
        ['type', c.bs('Normal')],
        ['count', c.int(300)],
        ['action', c.bs('Start')],
        ['reason', c.bs('Started')],
        ['series', c.map(['count', c.int(2)], ['lastObservedTime', c.bs('2024-01-02T03:04:07.000002Z')])],
        ['source', c.map(['host', c.bs('h')], ['component', c.bs('kubelet')])],
        ['message', c.bs('ok')],
        ['related', objectReferenceCbor],
        ['metadata', fullMetaCbor('ns')],
        ['eventTime', c.bs('2024-01-02T03:04:05.000001Z')],
        ['apiVersion', c.bs('v1')],
        ['lastTimestamp', c.bs('2024-01-02T03:04:07Z')],
        ['firstTimestamp', c.bs('2024-01-02T03:04:05Z')],
        ['involvedObject', objectReferenceCbor],
        ['reportingInstance', c.bs('h')],
        ['reportingComponent', c.bs('kubelet')],
      ),
    ),
  },
  lease: {
    object: {
      kind: 'Lease',
      apiVersion: 'coordination.k8s.io/v1',
      metadata: fullMeta('kube-system'),
      spec: {
        holderIdentity: 'h',
        leaseDurationSeconds: 15,
        acquireTime: '2024-01-02T03:04:05.000003Z',
        renewTime: '2024-01-02T03:04:06.000004Z',
        leaseTransitions: 0,
        strategy: 'OldestEmulationVersion',
        preferredHolder: 'p',
      },
    },
    cbor: c.obj(
      c.map(
        ['kind', c.bs('Lease')],
        [
          'spec',
          c.map(
            ['strategy', c.bs('OldestEmulationVersion')],
            ['renewTime', c.bs('2024-01-02T03:04:06.000004Z')],
            ['acquireTime', c.bs('2024-01-02T03:04:05.000003Z')],
            ['holderIdentity', c.bs('h')],
            ['preferredHolder', c.bs('p')],
            ['leaseTransitions', c.int(0)],
            ['leaseDurationSeconds', c.int(15)],
          ),
        ],
        ['metadata', fullMetaCbor('kube-system')],
        ['apiVersion', c.bs('coordination.k8s.io/v1')],
      ),
    ),
  },
} satisfies Record<string, { object: KubeObject; cbor: string }>;
