import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../status.js';
import { escapeFieldValue, exactName, parseFieldSelector, validateFieldSelector } from './fields.js';

function rejected(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ApiError, `expected ApiError, got ${String(e)}`);
    assert.equal(e.code, 400);
    assert.equal(e.reason, 'BadRequest');
    return e;
  }
  assert.fail('expected a 400');
}

describe('parseFieldSelector: accepted syntax', () => {
  const cases: [string, [string, string, string][]][] = [
    ['', []],
    [',', []],
    ['a=b', [['a', '=', 'b']]],
    ['a==b', [['a', '=', 'b']]],
    ['a!=b', [['a', '!=', 'b']]],
    ['a=', [['a', '=', '']]],
    ['=b', [['', '=', 'b']]],
    [' a = b ', [[' a ', '=', ' b ']]],
    [
      'b=1,a=2',
      [
        ['a', '=', '2'],
        ['b', '=', '1'],
      ],
    ],
    [
      'a=1,,b=2,',
      [
        ['a', '=', '1'],
        ['b', '=', '2'],
      ],
    ],
    ['a=x\\,y', [['a', '=', 'x,y']]],
    ['a=x\\=y', [['a', '=', 'x=y']]],
    ['a=x\\\\y', [['a', '=', 'x\\y']]],
    [
      'a=\\,,b=c',
      [
        ['a', '=', ','],
        ['b', '=', 'c'],
      ],
    ],
    ['a=!b', [['a', '=', '!b']]],
    ['a!b=c', [['a!b', '=', 'c']]],
    [
      'metadata.name=x,status.phase!=Running',
      [
        ['metadata.name', '=', 'x'],
        ['status.phase', '!=', 'Running'],
      ],
    ],
  ];
  for (const [text, expected] of cases) {
    it(JSON.stringify(text), () => {
      const sel = parseFieldSelector(text);
      assert.deepEqual(
        sel.requirements.map((r) => [r.field, r.operator, r.value]),
        expected,
      );
      assert.equal(sel.empty, expected.length === 0);
    });
  }
});

describe('parseFieldSelector: rejected input has kube’s exact message', () => {
  const cases: [string, string][] = [
    ['a', "invalid selector: 'a'; can't understand 'a'"],
    ['x=1,b', "invalid selector: 'x=1,b'; can't understand 'b'"],
    // terms are sorted first, so the earliest invalid term in text order is reported
    ['z,a', "invalid selector: 'z,a'; can't understand 'a'"],
    ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
    ['a!==b', 'invalid field selector: unescaped character in value: 61'],
    ['a=b\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
    ['a=\\é', 'invalid field selector: invalid escape sequence: \\é'],
  ];
  for (const [text, message] of cases) {
    it(JSON.stringify(text), () => {
      assert.equal(rejected(() => parseFieldSelector(text)).message, message);
    });
  }
});

describe('FieldSelector.matches', () => {
  const fields = { 'metadata.name': 'web', 'metadata.namespace': 'prod', 'status.phase': 'Running' };
  const cases: [string, boolean][] = [
    ['metadata.name=web', true],
    ['metadata.name==web', true],
    ['metadata.name=db', false],
    ['metadata.name!=db', true],
    ['metadata.name!=web', false],
    ['metadata.name=web,status.phase=Running', true],
    ['metadata.name=web,status.phase=Pending', false],
    // a field the object lacks reads as the empty string
    ['spec.nodeName=', true],
    ['spec.nodeName!=', false],
    ['spec.nodeName!=x', true],
    ['constructor=', true],
    ['', true],
  ];
  for (const [text, expected] of cases) {
    it(JSON.stringify(text), () => {
      assert.equal(parseFieldSelector(text).matches(fields), expected);
    });
  }
});

describe('exactName', () => {
  it('is the metadata.name an = term pins', () => {
    assert.equal(exactName(parseFieldSelector('metadata.name=a,metadata.namespace=b')), 'a');
    assert.equal(parseFieldSelector('metadata.name==a').exactName(), 'a');
    assert.equal(exactName(parseFieldSelector('metadata.name!=a')), undefined);
    assert.equal(exactName(parseFieldSelector('metadata.namespace=b')), undefined);
    assert.equal(exactName(parseFieldSelector('metadata.name=a\\,b')), 'a,b');
    assert.equal(exactName(undefined), undefined);
  });
});

describe('validateFieldSelector', () => {
  const allowed = new Set(['metadata.name', 'metadata.namespace', 'status.phase']);

  it('accepts allowed fields and returns the same selector', () => {
    const sel = parseFieldSelector('status.phase=Running,metadata.name=a');
    assert.equal(validateFieldSelector(sel, allowed), sel);
  });

  it('rejects the first unsupported field in sorted order', () => {
    const sel = parseFieldSelector('spec.foo=1,metadata.name=a,spec.bar=2');
    assert.equal(
      rejected(() => validateFieldSelector(sel, allowed)).message,
      'field label not supported: spec.bar',
    );
  });

  it('uses the generic text for kinds without field rules', () => {
    const sel = parseFieldSelector('data.x=1');
    assert.equal(
      rejected(() => validateFieldSelector(sel, allowed, { message: 'notKnown' })).message,
      '"data.x" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
    assert.equal(
      rejected(() =>
        validateFieldSelector(sel, allowed, { message: (f) => `field label "${f}" not supported for Job` }),
      ).message,
      'field label "data.x" not supported for Job',
    );
  });

  it('does not trim: a spaced field is unknown', () => {
    const sel = parseFieldSelector('metadata.name =a');
    assert.equal(
      rejected(() => validateFieldSelector(sel, allowed)).message,
      'field label not supported: metadata.name ',
    );
  });

  it('rewrites aliases before matching', () => {
    const sel = parseFieldSelector('spec.host=n1');
    const out = validateFieldSelector(sel, new Set(['spec.nodeName']), {
      aliases: { 'spec.host': 'spec.nodeName' },
    });
    assert.notEqual(out, sel);
    assert.equal(out.toString(), 'spec.nodeName=n1');
    assert.equal(out.matches({ 'spec.nodeName': 'n1' }), true);
  });
});

describe('escapeFieldValue', () => {
  it('round-trips through the parser', () => {
    const value = 'a,b=c\\d';
    assert.equal(escapeFieldValue(value), 'a\\,b\\=c\\\\d');
    assert.equal(parseFieldSelector(`f=${escapeFieldValue(value)}`).requirements[0].value, value);
  });
});
