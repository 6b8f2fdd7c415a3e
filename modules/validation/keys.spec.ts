import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, type FieldError } from '../api/index.js';
import {
  base64DecodedLength,
  isConfigMapKey,
  maxSecretSize,
  validateConfigMapPayload,
  validateImmutablePayload,
  validateSecretPayload,
} from './keys.js';

const show = (errs: FieldError[]): string[] => errs.map(formatFieldError);
const keyMsg =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  " +
  "or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64');

describe('isConfigMapKey', () => {
  const cases: [string, string[]][] = [
    ['key.name', []],
    ['KEY_NAME', []],
    ['.hidden', []],
    ['a..b', []],
    ['', [keyMsg]],
    ['a b', [keyMsg]],
    ['a/b', [keyMsg]],
    ['.', ["must not be '.'"]],
    ['..', ["must not be '..'"]],
    ['..x', ["must not start with '..'"]],
    ['k'.repeat(253), []],
    ['k'.repeat(254), ['must be no more than 253 characters']],
  ];
  for (const [value, want] of cases) {
    it(JSON.stringify(value.slice(0, 20)), () => assert.deepEqual(isConfigMapKey(value), want));
  }
});

describe('base64DecodedLength', () => {
  for (const raw of ['', 'a', 'ab', 'abc', 'abcd', 'hello world!']) {
    it(`${raw.length} bytes`, () => assert.equal(base64DecodedLength(b64(raw)), raw.length));
  }
});

describe('validateConfigMapPayload', () => {
  const cases: { name: string; data?: unknown; binaryData?: unknown; want: string[] }[] = [
    { name: 'empty', want: [] },
    { name: 'valid', data: { a: 'x' }, binaryData: { b: b64('y') }, want: [] },
    {
      name: 'bad keys in both maps',
      data: { 'a b': 'x' },
      binaryData: { '..': b64('y') },
      want: [
        `data[a b]: Invalid value: "a b": ${keyMsg}`,
        `binaryData[..]: Invalid value: "..": must not be '..'`,
      ],
    },
    {
      name: 'key in both maps',
      data: { same: 'x' },
      binaryData: { same: b64('y') },
      want: ['data[same]: Invalid value: "same": duplicate of key present in binaryData'],
    },
    {
      name: 'exactly 1 MiB across both maps (text counted in UTF-8 bytes, binary decoded)',
      data: { a: 'é'.repeat(maxSecretSize / 4) },
      binaryData: { b: b64(Buffer.alloc(maxSecretSize / 2)) },
      want: [],
    },
    {
      name: 'one byte over 1 MiB',
      data: { a: 'x'.repeat(maxSecretSize / 2) },
      binaryData: { b: b64(Buffer.alloc(maxSecretSize / 2 + 1)) },
      want: ['[]: Too long: may not be more than 1048576 bytes'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(show(validateConfigMapPayload(c.data, c.binaryData)), c.want));
  }
});

describe('validateSecretPayload', () => {
  it('checks keys and counts decoded bytes', () => {
    assert.deepEqual(validateSecretPayload({ k: b64(Buffer.alloc(maxSecretSize)) }), []);
    assert.deepEqual(show(validateSecretPayload({ 'k!': b64(Buffer.alloc(maxSecretSize + 1)) })), [
      `data[k!]: Invalid value: "k!": ${keyMsg}`,
      'data: Too long: may not be more than 1048576 bytes',
    ]);
  });
});

describe('validateImmutablePayload', () => {
  const fields = [
    { name: 'data', base64: false },
    { name: 'binaryData', base64: true },
  ];
  const old = { immutable: true, data: { a: 'x' }, binaryData: { b: b64('y') } };
  const cases: {
    name: string;
    next: Record<string, unknown>;
    old?: Record<string, unknown>;
    want: string[];
  }[] = [
    { name: 'unchanged', next: { ...old }, want: [] },
    { name: 'old was mutable', old: { data: { a: 'x' } }, next: { data: { a: 'z' } }, want: [] },
    {
      name: 'unsetting immutable',
      next: { ...old, immutable: false },
      want: ['immutable: Forbidden: field is immutable when `immutable` is set'],
    },
    {
      name: 'changing data and binaryData',
      next: { immutable: true, data: { a: 'z' }, binaryData: { b: b64('z') } },
      want: [
        'data: Forbidden: field is immutable when `immutable` is set',
        'binaryData: Forbidden: field is immutable when `immutable` is set',
      ],
    },
    {
      name: 'adding a key',
      next: { ...old, data: { a: 'x', c: 'y' } },
      want: ['data: Forbidden: field is immutable when `immutable` is set'],
    },
    {
      name: 'base64 compared as bytes',
      old: { immutable: true, binaryData: { b: 'eQ==' } },
      next: { immutable: true, binaryData: { b: 'eR==' } },
      want: [],
    },
    {
      name: 'absent and empty maps are equal',
      old: { immutable: true },
      next: { immutable: true, data: {} },
      want: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(show(validateImmutablePayload(c.next, c.old ?? old, fields)), c.want));
  }
});
