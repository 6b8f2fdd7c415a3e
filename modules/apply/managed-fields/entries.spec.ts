import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  decodeManagedFields,
  describeManager,
  encodeManagedFields,
  isResetManagedFields,
  ManagedFieldsError,
  managerIdentity,
  withManagedFields,
  type ManagedFieldsEntry,
} from './entries.js';

const entry = (over: Partial<ManagedFieldsEntry>): ManagedFieldsEntry => ({
  manager: 'm',
  operation: 'Update',
  apiVersion: 'v1',
  time: '2024-01-01T00:00:00Z',
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:data': { 'f:a': {} } },
  ...over,
});

describe('manager identities', () => {
  it('keeps the API version of updaters and drops it for appliers', () => {
    assert.equal(
      managerIdentity({ manager: 'm', operation: 'Update', apiVersion: 'v1' }),
      '{"manager":"m","operation":"Update","apiVersion":"v1"}',
    );
    assert.equal(
      managerIdentity({ manager: 'm', operation: 'Apply', apiVersion: 'v1' }),
      '{"manager":"m","operation":"Apply"}',
    );
    assert.equal(
      managerIdentity({ manager: 'm', operation: 'Apply', subresource: 'status' }),
      '{"manager":"m","operation":"Apply","subresource":"status"}',
    );
  });

  const described: Array<[Parameters<typeof managerIdentity>[0], string]> = [
    [{ manager: 'kubectl', operation: 'Apply' }, '"kubectl"'],
    [{ manager: 'kcm', operation: 'Update', apiVersion: 'apps/v1' }, '"kcm" using apps/v1'],
    [
      { manager: 'kcm', operation: 'Update', apiVersion: 'v1', subresource: 'status' },
      '"kcm" with subresource "status" using v1',
    ],
    [{ manager: 'a', operation: 'Apply', subresource: 'scale' }, '"a" with subresource "scale"'],
  ];
  for (const [id, text] of described) {
    it(`describes ${text}`, () => assert.equal(describeManager(managerIdentity(id)), text));
  }
});

describe('decodeManagedFields', () => {
  it('reads entries into sets by identity, keeping the last of a repeated identity', () => {
    const managed = decodeManagedFields([
      entry({ fieldsV1: { 'f:data': { 'f:a': {} } } }),
      entry({ fieldsV1: { 'f:data': { 'f:b': {} } }, time: '2024-02-01T00:00:00Z' }),
      entry({ apiVersion: 'v2' }),
      entry({ operation: 'Apply', apiVersion: 'v1' }),
      entry({ operation: 'Apply', apiVersion: 'v2', manager: 'x', subresource: 'status' }),
    ]);
    assert.deepEqual(
      [...managed].map(([id, m]) => [id, m.fields.toFieldsV1Json(), m.apiVersion, m.applied, m.time]),
      [
        [
          '{"manager":"m","operation":"Update","apiVersion":"v1"}',
          '{"f:data":{"f:b":{}}}',
          'v1',
          false,
          '2024-02-01T00:00:00Z',
        ],
        [
          '{"manager":"m","operation":"Update","apiVersion":"v2"}',
          '{"f:data":{"f:a":{}}}',
          'v2',
          false,
          '2024-01-01T00:00:00Z',
        ],
        ['{"manager":"m","operation":"Apply"}', '{"f:data":{"f:a":{}}}', 'v1', true, '2024-01-01T00:00:00Z'],
        [
          '{"manager":"x","operation":"Apply","subresource":"status"}',
          '{"f:data":{"f:a":{}}}',
          'v2',
          true,
          '2024-01-01T00:00:00Z',
        ],
      ],
    );
  });

  it('writes times back in UTC with second precision', () => {
    const managed = decodeManagedFields([entry({ time: '2024-01-01T02:00:00.123+02:00' })]);
    assert.equal([...managed.values()][0].time, '2024-01-01T00:00:00Z');
  });

  const bad: Array<[string, unknown, string]> = [
    ['an unknown operation', [entry({ operation: 'Patch' })], 'operation must be `Apply` or `Update`'],
    ['an empty entry', [{}], 'operation must be `Apply` or `Update`'],
    ['no apiVersion', [entry({ apiVersion: '' })], 'apiVersion must not be empty'],
    [
      'no fieldsType',
      [entry({}), entry({ fieldsType: undefined })],
      'missing fieldsType in managed fields entry 1',
    ],
    [
      'another fieldsType',
      [entry({ fieldsType: 'FieldsV2' })],
      'invalid fieldsType "FieldsV2" in managed fields entry 0',
    ],
    [
      'a bad field set',
      [entry({ fieldsV1: { ab: {} } as never })],
      'error decoding set: parsing key as path element: missing colon: ab',
    ],
  ];
  for (const [name, entries, message] of bad) {
    it(`rejects ${name}`, () => {
      assert.throws(
        () => decodeManagedFields(entries),
        (err: unknown) => err instanceof ManagedFieldsError && err.message === message,
      );
    });
  }
});

describe('encodeManagedFields', () => {
  it('sorts Apply first, then by time, manager, apiVersion and subresource; keys in kube order', () => {
    const input = [
      entry({ manager: 'b', time: '2024-01-01T00:00:00Z' }),
      entry({ manager: 'c', time: '2024-01-02T00:00:00Z' }),
      entry({ manager: 'a', time: '2024-01-01T00:00:00Z', subresource: 'status' }),
      entry({ manager: 'a', time: '2024-01-01T00:00:00Z' }),
      entry({ manager: 'z', operation: 'Apply', time: '2024-03-01T00:00:00Z' }),
      entry({ manager: 'y', operation: 'Apply', time: undefined }),
    ];
    const out = encodeManagedFields(decodeManagedFields(input));
    assert.deepEqual(
      out.map((e) => `${e.operation} ${e.manager} ${e.time ?? '-'} ${e.subresource ?? '-'}`),
      [
        'Apply y - -',
        'Apply z 2024-03-01T00:00:00Z -',
        'Update a 2024-01-01T00:00:00Z -',
        'Update a 2024-01-01T00:00:00Z status',
        'Update b 2024-01-01T00:00:00Z -',
        'Update c 2024-01-02T00:00:00Z -',
      ],
    );
    assert.equal(
      JSON.stringify(out[3]),
      '{"manager":"a","operation":"Update","apiVersion":"v1","time":"2024-01-01T00:00:00Z","fieldsType":"FieldsV1",' +
        '"fieldsV1":{"f:data":{"f:a":{}}},"subresource":"status"}',
    );
  });

  it('writes nothing for nobody', () => {
    assert.deepEqual(encodeManagedFields(new Map()), []);
    assert.deepEqual(withManagedFields({ metadata: { name: 'x', managedFields: [1] } }, []), {
      metadata: { name: 'x' },
    });
  });
});

describe('isResetManagedFields', () => {
  const cases: Array<[string, unknown, boolean]> = [
    ['one empty entry', [{}], true],
    ['one entry of empty values', [{ manager: '', time: null }], true],
    ['an empty list (kept, so unaware clients cannot wipe ownership)', [], false],
    ['absent', undefined, false],
    ['an entry with an empty field set', [{ fieldsV1: {} }], false],
    ['two empty entries', [{}, {}], false],
    ['a real entry', [entry({})], false],
  ];
  for (const [name, value, reset] of cases) {
    it(`${name}: ${reset}`, () => assert.equal(isResetManagedFields(value), reset));
  }
});
