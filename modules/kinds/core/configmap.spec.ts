import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, type FieldError } from '../../api/index.js';
import type { KubeObject } from '../../api/index.js';
import { configMapDefinition, configMapStrategy } from './configmap.js';
import { systemContext } from '../../api/index.js';

const ctx = systemContext();

const show = (errs: FieldError[] = []): string[] => errs.map(formatFieldError);
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const cm = (extra: Partial<KubeObject> = {}): KubeObject => ({
  metadata: { name: 'c', namespace: 'n' },
  ...extra,
});

describe('ConfigMap validation', () => {
  const cases: { name: string; obj: KubeObject; want: string[] }[] = [
    {
      name: 'valid',
      obj: cm({ data: { 'app.properties': 'a=b' }, binaryData: { logo: b64('png') } }),
      want: [],
    },
    {
      name: 'duplicate key across data and binaryData',
      obj: cm({ data: { k: 'a' }, binaryData: { k: b64('b') } }),
      want: ['data[k]: Invalid value: "k": duplicate of key present in binaryData'],
    },
    {
      name: 'too large',
      obj: cm({ data: { k: 'x'.repeat(1024 * 1024 + 1) } }),
      want: ['[]: Too long: may not be more than 1048576 bytes'],
    },
    {
      name: 'key must not start with ..',
      obj: cm({ data: { '..data': 'x' } }),
      want: ['data[..data]: Invalid value: "..data": must not start with \'..\''],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(show(configMapStrategy.validate?.(c.obj, ctx)), c.want));
  }
});

describe('ConfigMap updates', () => {
  const old = cm({ immutable: true, data: { a: 'x' }, binaryData: { b: b64('y') } });
  const cases: { name: string; next: KubeObject; want: string[] }[] = [
    {
      name: 'same payload',
      next: cm({ immutable: true, data: { a: 'x' }, binaryData: { b: b64('y') } }),
      want: [],
    },
    {
      name: 'unset immutable and change everything',
      next: cm({ immutable: false, data: { a: 'z' } }),
      want: [
        'immutable: Forbidden: field is immutable when `immutable` is set',
        'data: Forbidden: field is immutable when `immutable` is set',
        'binaryData: Forbidden: field is immutable when `immutable` is set',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(show(configMapStrategy.validateUpdate?.(c.next, old, ctx)), c.want));
  }
});

describe('ConfigMap table', () => {
  it('Data counts data and binaryData entries', () => {
    const data = configMapDefinition.printerColumns?.find((c) => c.name === 'Data');
    assert.equal(data?.cell?.(cm({ data: { a: '', b: '' }, binaryData: { c: '' } }), 0), 3);
    assert.equal(data?.cell?.(cm(), 0), 0);
  });
  it('has no field selectors of its own', () => {
    assert.equal(configMapStrategy.selectableFields, undefined);
  });
});
