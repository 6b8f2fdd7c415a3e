import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../api/index.js';
import type { Schema } from '../api/index.js';
import { decodeObject, type DecodeOptions } from './decode.js';
import { configMapSchema, deploymentSchema, leaseSchema, secretSchema } from './spec-schemas.js';

function decodeError(value: unknown, schema: Schema, options: DecodeOptions): string {
  try {
    decodeObject(value, schema, options);
  } catch (e) {
    assert.ok(e instanceof ApiError, `expected ApiError, got ${String(e)}`);
    assert.equal(e.code, 400);
    assert.equal(e.reason, 'BadRequest');
    return e.message;
  }
  assert.fail(`expected ${JSON.stringify(value)} to be rejected`);
}

const deployment = (spec: unknown): unknown => ({ apiVersion: 'apps/v1', kind: 'Deployment', spec });
const podSpec = (spec: unknown): unknown => deployment({ template: { spec } });

describe('decodeObject: wrong JSON types', () => {
  const cm = { kind: 'ConfigMap' };
  const dep = { kind: 'Deployment' };
  const cases: [string, unknown, Schema, DecodeOptions, string][] = [
    [
      'number in a string map',
      { data: { a: 1 } },
      configMapSchema,
      cm,
      'json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    ],
    [
      'string for a map',
      { data: 'x' },
      configMapSchema,
      cm,
      'json: cannot unmarshal string into Go struct field ConfigMap.data of type map[string]string',
    ],
    [
      'string for a bool',
      { immutable: 'true' },
      configMapSchema,
      cm,
      'json: cannot unmarshal string into Go struct field ConfigMap.immutable of type bool',
    ],
    [
      'number for a string',
      { metadata: { name: 5 } },
      configMapSchema,
      cm,
      'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string',
    ],
    [
      'array for labels',
      { metadata: { labels: [] } },
      configMapSchema,
      cm,
      'json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string',
    ],
    [
      'object for a list',
      { metadata: { finalizers: {} } },
      configMapSchema,
      cm,
      'json: cannot unmarshal object into Go struct field ObjectMeta.metadata.finalizers of type []string',
    ],
    [
      'bool in a string list',
      { metadata: { finalizers: ['a', true] } },
      configMapSchema,
      cm,
      'json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.finalizers of type string',
    ],
    [
      'fraction for int32',
      deployment({ replicas: 1.5 }),
      deploymentSchema,
      dep,
      'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32',
    ],
    [
      'int32 overflow',
      deployment({ replicas: 3000000000 }),
      deploymentSchema,
      dep,
      'json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32',
    ],
    [
      'int32 underflow',
      deployment({ replicas: -2147483649 }),
      deploymentSchema,
      dep,
      'json: cannot unmarshal number -2147483649 into Go struct field DeploymentSpec.spec.replicas of type int32',
    ],
    [
      'string for int32',
      deployment({ replicas: '3' }),
      deploymentSchema,
      dep,
      'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    ],
    [
      'int64 overflow',
      { metadata: { generation: 2 ** 63 } },
      configMapSchema,
      cm,
      'json: cannot unmarshal number 9223372036854776000 into Go struct field ObjectMeta.metadata.generation of type int64',
    ],
    [
      'number for bool',
      deployment({ paused: 1 }),
      deploymentSchema,
      dep,
      'json: cannot unmarshal number into Go struct field DeploymentSpec.spec.paused of type bool',
    ],
    [
      'string for a struct',
      deployment('x'),
      deploymentSchema,
      dep,
      'json: cannot unmarshal string into Go struct field Deployment.spec of type v1.DeploymentSpec',
    ],
    [
      'object for a struct list',
      podSpec({ containers: {} }),
      deploymentSchema,
      dep,
      'json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container',
    ],
    [
      'string for a list element struct',
      podSpec({ containers: ['x'] }),
      deploymentSchema,
      dep,
      'json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.containers of type v1.Container',
    ],
    [
      'struct context is restored after a list element',
      podSpec({ containers: [{ name: 'a' }, 7] }),
      deploymentSchema,
      dep,
      'json: cannot unmarshal number into Go struct field PodSpec.spec.template.spec.containers of type v1.Container',
    ],
    [
      'field of a list element',
      podSpec({ containers: [{ image: 5 }] }),
      deploymentSchema,
      dep,
      'json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.image of type string',
    ],
    [
      'nested list element field',
      podSpec({ containers: [{ ports: [{ containerPort: '80' }] }] }),
      deploymentSchema,
      dep,
      'json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32',
    ],
    [
      'map value',
      podSpec({ nodeSelector: { a: true } }),
      deploymentSchema,
      dep,
      'json: cannot unmarshal bool into Go struct field PodSpec.spec.template.spec.nodeSelector of type string',
    ],
    [
      'map of structs',
      podSpec({ volumesByName: { v: 'x' } }),
      deploymentSchema,
      dep,
      'json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.volumesByName of type v1.Volume',
    ],
    [
      'field inside a map of structs',
      podSpec({ volumesByName: { v: { path: 1 } } }),
      deploymentSchema,
      dep,
      'json: cannot unmarshal number into Go struct field Volume.spec.template.spec.volumesByName.path of type string',
    ],
    [
      'root that is not an object',
      ['x'],
      configMapSchema,
      { kind: 'ConfigMap', version: 'v1' },
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal array into Go value of type v1.ConfigMap',
    ],
    [
      'with the handler prefix',
      { data: { a: 1 } },
      configMapSchema,
      { kind: 'ConfigMap', version: 'v1' },
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    ],
  ];
  for (const [name, value, schema, options, message] of cases) {
    it(name, () => assert.equal(decodeError(value, schema, options), message));
  }

  it('accepts the full int32 and int64 ranges', () => {
    decodeObject(deployment({ replicas: 2147483647 }), deploymentSchema, { kind: 'Deployment' });
    decodeObject(deployment({ replicas: -2147483648 }), deploymentSchema, { kind: 'Deployment' });
    decodeObject({ metadata: { generation: 2 ** 62 } }, configMapSchema, { kind: 'ConfigMap' });
  });
});

describe('decodeObject: int-or-string and quantities', () => {
  const strategy = (maxSurge: unknown): unknown => deployment({ strategy: { rollingUpdate: { maxSurge } } });
  const at = 'Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32';

  it('accepts integers and strings', () => {
    for (const v of [1, 0, -3, '25%', ''])
      decodeObject(strategy(v), deploymentSchema, { kind: 'Deployment' });
  });

  const bad: [unknown, string][] = [
    [1.5, `json: cannot unmarshal number 1.5 into ${at}`],
    [2 ** 31, `json: cannot unmarshal number 2147483648 into ${at}`],
    [true, `json: cannot unmarshal bool into ${at}`],
    [{}, `json: cannot unmarshal object into ${at}`],
    [[1], `json: cannot unmarshal array into ${at}`],
  ];
  for (const [v, message] of bad) {
    it(`rejects ${JSON.stringify(v)}`, () => {
      assert.equal(decodeError(strategy(v), deploymentSchema, { kind: 'Deployment' }), message);
    });
  }

  const limits = (value: unknown): unknown =>
    podSpec({ containers: [{ resources: { limits: { cpu: value } } }] });
  it('accepts quantity strings and numbers', () => {
    for (const v of ['500m', '1Gi', '1e3', '0.5', 2, 1.5, '+1', '.5'])
      decodeObject(limits(v), deploymentSchema, { kind: 'Deployment' });
  });
  const badQuantities: [unknown, string][] = [
    ['1Gii', "unable to parse quantity's suffix"],
    ['1Gx', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ['abc', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    [true, "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ['', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
  ];
  for (const [v, message] of badQuantities) {
    it(`rejects quantity ${JSON.stringify(v)}`, () => {
      assert.equal(
        decodeError(limits(v), deploymentSchema, { kind: 'Deployment', version: 'v1' }),
        `Deployment in version "v1" cannot be handled as a Deployment: ${message}`,
      );
    });
  }
});

describe('decodeObject: bytes and timestamps', () => {
  const secret = (v: unknown): { data: { a: unknown } } => ({ data: { a: v } });

  it('keeps canonical base64 and re-encodes what Go would re-encode', () => {
    const cases: [string, string][] = [
      ['YWJj', 'YWJj'],
      ['', ''],
      ['YQ==\n', 'YQ=='],
      ['YW\r\nJj', 'YWJj'],
      ['YR==', 'YQ=='],
    ];
    for (const [input, stored] of cases) {
      const { object } = decodeObject(secret(input), secretSchema, { kind: 'Secret' });
      assert.deepEqual(object, secret(stored), input);
    }
  });

  it('rejects malformed base64 with the byte offset', () => {
    const cases: [unknown, string][] = [
      ['YQ', 'illegal base64 data at input byte 0'],
      ['YQ=', 'illegal base64 data at input byte 3'],
      ['a@bc', 'illegal base64 data at input byte 1'],
      ['YQ==YQ==', 'illegal base64 data at input byte 4'],
      [5, 'json: cannot unmarshal number into Go struct field Secret.data of type []uint8'],
    ];
    for (const [input, message] of cases) {
      assert.equal(decodeError(secret(input), secretSchema, { kind: 'Secret' }), message);
    }
  });

  it('normalizes metav1.Time to UTC seconds and rejects what time.Parse rejects', () => {
    const meta = (t: unknown): { metadata: { creationTimestamp: unknown } } => ({
      metadata: { creationTimestamp: t },
    });
    const ok: [string, string][] = [
      ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05Z'],
      ['2024-01-02T03:04:05.999Z', '2024-01-02T03:04:05Z'],
      ['2024-01-02T05:04:05+02:00', '2024-01-02T03:04:05Z'],
      ['2024-01-01T00:30:00+01:00', '2023-12-31T23:30:00Z'],
    ];
    for (const [input, stored] of ok) {
      assert.deepEqual(
        decodeObject(meta(input), configMapSchema, { kind: 'ConfigMap' }).object,
        meta(stored),
      );
    }
    assert.equal(
      decodeError(meta('2024-01-02'), configMapSchema, { kind: 'ConfigMap' }),
      'parsing time "2024-01-02" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"',
    );
    assert.equal(
      decodeError(meta(5), configMapSchema, { kind: 'ConfigMap' }),
      'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string',
    );
  });

  it('requires MicroTime to carry exactly six fraction digits', () => {
    const lease = (t: string): unknown => ({ spec: { renewTime: t } });
    assert.deepEqual(
      decodeObject(lease('2024-01-02T03:04:05.123456+01:00'), leaseSchema, { kind: 'Lease' }).object,
      lease('2024-01-02T02:04:05.123456Z'),
    );
    assert.equal(
      decodeError(lease('2024-01-02T03:04:05Z'), leaseSchema, { kind: 'Lease' }),
      'parsing time "2024-01-02T03:04:05Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    );
  });
});
