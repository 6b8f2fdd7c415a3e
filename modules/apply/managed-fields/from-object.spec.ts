import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configMapDefinition } from '../../kinds/index.js';
import { serviceAccountDefinition } from '../../kinds/index.js';
import { fromObject, typedFieldSet } from './from-object.js';
import { typedErrorText } from './schema-view.js';
import { widgetSpecSchema } from '../../../test/support/apply-schemas.js';

const specFields = (spec: unknown): string => fromObject(spec, widgetSpecSchema).toFieldsV1Json();

describe('fromObject: what an object sets, per merge marker', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['scalars of a struct', { replicas: 3, paused: false }, '{"f:paused":{},"f:replicas":{}}'],
    ['an explicit null scalar', { replicas: null }, '{"f:replicas":{}}'],
    [
      'list-type set: one member per value',
      { tags: ['b', 'a'] },
      '{"f:tags":{"v:\\"a\\"":{},"v:\\"b\\"":{}}}',
    ],
    ['patch-strategy merge without key: a set', { aliases: ['x'] }, '{"f:aliases":{"v:\\"x\\"":{}}}'],
    [
      'list-type map: items by key, a missing key taken from its default',
      { ports: [{ port: 80, name: 'http' }] },
      '{"f:ports":{"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:name":{},"f:port":{}}}}',
    ],
    [
      'patch-strategy merge with a merge key: a map by that key',
      { containers: [{ name: 'c', image: 'i', args: ['a'] }] },
      '{"f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},"f:args":{},"f:image":{},"f:name":{}}}}',
    ],
    ['no marker: atomic list', { args: ['a', 'b'] }, '{"f:args":{}}'],
    ['list-type atomic', { steps: [{ name: 's' }] }, '{"f:steps":{}}'],
    ['an empty atomic list is still set', { args: [] }, '{"f:args":{}}'],
    ['an empty set or keyed list sets nothing', { tags: [], ports: [] }, '{}'],
    ['granular map: one member per key', { env: { B: '2', A: '1' } }, '{"f:env":{"f:A":{},"f:B":{}}}'],
    ['atomic map', { selector: { a: 'b' } }, '{"f:selector":{}}'],
    ['atomic struct', { target: { kind: 'K', name: 'n' } }, '{"f:target":{}}'],
    ['granular struct: only its fields', { strategy: { type: 'Recreate' } }, '{"f:strategy":{"f:type":{}}}'],
    ['an empty or null struct sets nothing', { strategy: {}, env: null }, '{}'],
    [
      'unstructured: keys are members, nested maps granular, lists atomic',
      { extra: { l: [1], m: { n: 1 } } },
      '{"f:extra":{"f:l":{},"f:m":{".":{},"f:n":{}}}}',
    ],
  ];
  for (const [name, spec, json] of cases) {
    it(name, () => assert.equal(specFields(spec), json));
  }

  it('ConfigMap: data and binaryData keys, labels, type and name fields', () => {
    const cm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cm', namespace: 'ns', labels: { app: 'a' } },
      data: { key: 'v' },
      binaryData: { bin: 'AAE=' },
      immutable: true,
    };
    assert.equal(
      fromObject(cm, configMapDefinition.schema).toFieldsV1Json(),
      '{"f:apiVersion":{},"f:binaryData":{"f:bin":{}},"f:data":{"f:key":{}},"f:immutable":{},"f:kind":{},' +
        '"f:metadata":{"f:labels":{"f:app":{}},"f:name":{},"f:namespace":{}}}',
    );
  });

  it('ServiceAccount: secrets keyed by name (atomic items), imagePullSecrets atomic, finalizers a set', () => {
    const sa = {
      metadata: {
        finalizers: ['example.com/f'],
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u1' }],
      },
      secrets: [{ name: 's1' }, { name: 's2' }],
      imagePullSecrets: [{ name: 'p' }],
      automountServiceAccountToken: false,
    };
    assert.equal(
      fromObject(sa, serviceAccountDefinition.schema).toFieldsV1Json(),
      '{"f:automountServiceAccountToken":{},"f:imagePullSecrets":{},' +
        '"f:metadata":{"f:finalizers":{"v:\\"example.com/f\\"":{}},"f:ownerReferences":{"k:{\\"uid\\":\\"u1\\"}":{}}},' +
        '"f:secrets":{"k:{\\"name\\":\\"s1\\"}":{},"k:{\\"name\\":\\"s2\\"}":{}}}',
    );
  });
});

describe('typedFieldSet: checking an applied object as kube does', () => {
  const errors: Array<[string, Record<string, unknown>, string]> = [
    ['an unknown field', { nope: 1 }, '.nope: field not declared in schema'],
    ['a string for a number', { replicas: 'x' }, '.replicas: expected numeric (int or float), got string'],
    [
      'a number for a string',
      { containers: [{ name: 1 }] },
      '.containers[name=1].name: expected string, got &{1}',
    ],
    ['a scalar for a map', { env: 'x' }, '.env: expected map, got &{x}'],
    ['a map for a list', { tags: { a: 1 } }, '.tags: expected list, got &{map[a:1]}'],
    ['a number for a boolean', { paused: 1 }, '.paused: expected boolean, got &{1}'],
    [
      'a keyed item without its key',
      { containers: [{ image: 'i' }] },
      '.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
    ],
    [
      'a null keyed item',
      { ports: [null] },
      '.ports: element 0: associative list with keys may not have a null element',
    ],
    [
      'a map in a set',
      { tags: [{}] },
      ".tags: element 0: associative list without keys has an element that's a map type",
    ],
    [
      'repeated keys',
      { containers: [{ name: 'a' }, { name: 'a' }] },
      '.containers: duplicate entries for key [name="a"]',
    ],
    [
      'a bad value inside an atomic list',
      { steps: [{ name: 2 }] },
      '.steps[0].name: expected string, got &{2}',
    ],
  ];
  for (const [name, spec, message] of errors) {
    it(`reports ${name}`, () => {
      const { errors: found } = typedFieldSet(spec, widgetSpecSchema, 'strict');
      assert.equal(typedErrorText(found), message);
    });
  }

  it('lists several problems under "errors:"', () => {
    const { errors: found } = typedFieldSet({ replicas: 'x', paused: 'y' }, widgetSpecSchema, 'strict');
    assert.equal(
      typedErrorText(found),
      'errors:\n  .replicas: expected numeric (int or float), got string\n  .paused: expected boolean, got &{y}',
    );
  });

  it('accepts a well-formed object and null anywhere', () => {
    const spec = { replicas: null, env: null, tags: null, ports: [{ port: 1 }], extra: { any: ['thing'] } };
    assert.deepEqual(typedFieldSet(spec, widgetSpecSchema, 'strict').errors, []);
  });

  it('at level "keys" only reports list items that cannot be named, and allows repeats', () => {
    const spec = { nope: 1, containers: [{ name: 'a' }, { name: 'a' }, { image: 'x' }] };
    const { set, errors: found } = typedFieldSet(spec, widgetSpecSchema, 'keys');
    assert.equal(
      typedErrorText(found),
      '.containers: element 2: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
    );
    assert.equal(
      set.toFieldsV1Json(),
      '{"f:containers":{"k:{\\"name\\":\\"a\\"}":{".":{},"f:name":{}}},"f:nope":{}}',
    );
  });
});
