import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { errorValueText, goFloat, goJSON, goSharpV, goV, isJSONInteger } from './go-values.js';

describe('Go formatting of unstructured values', () => {
  const floats: [number, string][] = [
    [1.5, '1.5'],
    [100000.5, '100000.5'],
    [1000000.5, '1.0000005e+06'],
    [1e6, '1e+06'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [-2.5e-7, '-2.5e-07'],
    [1e21, '1e+21'],
  ];
  for (const [v, text] of floats) it(`%v of float ${v}`, () => assert.equal(goFloat(v), text));

  it('%#v of maps and lists, keys sorted', () => {
    assert.equal(
      goSharpV({ b: [1, 'x'], a: null }),
      'map[string]interface {}{"a":interface {}(nil), "b":[]interface {}{1, "x"}}',
    );
  });

  it('ErrorBody values', () => {
    assert.equal(errorValueText(null), '"null"');
    assert.equal(errorValueText('a"b'), '"a\\"b"');
    assert.equal(errorValueText(3), '3');
    assert.equal(errorValueText(2.5), '2.5');
    assert.equal(errorValueText(true), 'true');
    assert.equal(errorValueText({ name: 'a' }), 'map[string]interface {}{"name":"a"}');
  });

  it('%v and JSON', () => {
    assert.equal(goV(['a', 1, { k: true }]), '[a 1 map[k:true]]');
    assert.equal(goJSON({ b: 1, a: [1.5] }), '{"a":[1.5],"b":1}');
  });

  it('IsFloat64AJSONInteger', () => {
    assert.equal(isJSONInteger(3), true);
    assert.equal(isJSONInteger(3.0000000000000004), true);
    assert.equal(isJSONInteger(3.5), false);
    assert.equal(isJSONInteger(2 ** 54), false);
  });
});
