import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  compareElements,
  elementText,
  field,
  index,
  key,
  parseElement,
  PathElementError,
  pathText,
  serializeElement,
  value,
  type PathElement,
} from './path-element.js';

describe('path elements: FieldsV1 keys', () => {
  const cases: Array<[string, PathElement, string]> = [
    ['field', field('replicas'), 'f:replicas'],
    ['field with dots and slashes', field('app.kubernetes.io/name'), 'f:app.kubernetes.io/name'],
    [
      'key, fields sorted by name',
      key({ protocol: 'TCP', containerPort: 80 }),
      'k:{"containerPort":80,"protocol":"TCP"}',
    ],
    [
      'key with HTML characters escaped as Go does',
      key({ name: 'a<b>&c' }),
      'k:{"name":"a\\u003cb\\u003e\\u0026c"}',
    ],
    ['key with an object value, its keys sorted', key({ v: { b: 1, a: true } }), 'k:{"v":{"a":true,"b":1}}'],
    ['string value', value('finalizer.example.com'), 'v:"finalizer.example.com"'],
    ['number value', value(3.5), 'v:3.5'],
    ['boolean value', value(false), 'v:false'],
    ['null value', value(null), 'v:null'],
    ['index', index(4), 'i:4'],
  ];
  for (const [name, pe, text] of cases) {
    it(`${name}: ${text}`, () => {
      assert.equal(serializeElement(pe), text);
      assert.deepEqual(parseElement(text), pe);
    });
  }

  it('drops element types it does not know', () => {
    assert.equal(parseElement('r:whatever'), undefined);
  });

  const bad: Array<[string, string]> = [
    ['f', 'key must be 2 characters long:'],
    ['fx', 'missing colon: fx'],
    ['i:x', 'strconv.Atoi: parsing "x": invalid syntax'],
    ['k:[1]', 'key element is not an object: [1]'],
  ];
  for (const [text, message] of bad) {
    it(`rejects ${JSON.stringify(text)}`, () => {
      assert.throws(
        () => parseElement(text),
        (err: unknown) => err instanceof PathElementError && err.message === message,
      );
    });
  }
});

describe('path elements: order', () => {
  it('orders fields, then keys, then values, then indexes', () => {
    const sorted = [index(0), value('a'), key({ name: 'a' }), field('z'), field('a')].sort(compareElements);
    assert.deepEqual(sorted.map(serializeElement), ['f:a', 'f:z', 'k:{"name":"a"}', 'v:"a"', 'i:0']);
  });

  it('orders values numbers < strings < booleans < null, numbers numerically', () => {
    const sorted = [value(null), value(true), value('10'), value(10), value(9), value(false)].sort(
      compareElements,
    );
    assert.deepEqual(sorted.map(serializeElement), ['v:9', 'v:10', 'v:"10"', 'v:false', 'v:true', 'v:null']);
  });

  it('orders keys field by field', () => {
    const a = key({ port: 443, protocol: 'TCP' });
    const b = key({ port: 443, protocol: 'UDP' });
    const c = key({ port: 80, protocol: 'UDP' });
    assert.deepEqual([b, c, a].sort(compareElements), [c, a, b]);
  });

  it('orders field names by code point, as Go compares UTF-8 bytes', () => {
    const sorted = [field('\u{1F600}'), field('\uFF01'), field('b'), field('B')].sort(compareElements);
    assert.deepEqual(
      sorted.map((pe) => (pe.kind === 'field' ? pe.name : '')),
      ['B', 'b', '\uFF01', '\u{1F600}'],
    );
  });
});

describe('path elements: as kube prints them', () => {
  it('prints fields, keys, values and indexes', () => {
    assert.equal(elementText(field('data')), '.data');
    assert.equal(elementText(key({ name: 'nginx', port: 80 })), '[name="nginx",port=80]');
    assert.equal(elementText(value('x')), '[="x"]');
    assert.equal(elementText(index(2)), '[2]');
    assert.equal(
      pathText([field('spec'), field('containers'), key({ name: 'c' }), field('image')]),
      '.spec.containers[name="c"].image',
    );
  });
});
