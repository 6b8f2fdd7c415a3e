import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../status.js';
import { labelSelectorFromMeta, labelSelectorFromSet, parseLabelSelector } from './labels.js';

const nameRegex =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const valueRegex =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const subdomainRegex =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const req = 'unable to parse requirement: ';

function parseError(text: string): ApiError {
  try {
    parseLabelSelector(text);
  } catch (e) {
    assert.ok(e instanceof ApiError, `expected ApiError, got ${String(e)}`);
    return e;
  }
  assert.fail(`expected ${JSON.stringify(text)} to be rejected`);
}

describe('parseLabelSelector: accepted syntax', () => {
  const cases: [string, string][] = [
    ['', ''],
    ['   \t\n', ''],
    ['a=b', 'a=b'],
    ['a==b', 'a==b'],
    ['a!=b', 'a!=b'],
    ['a', 'a'],
    ['!a', '!a'],
    [' a = b ', 'a=b'],
    ['a\t=\tb', 'a=b'],
    ['a in (x,y)', 'a in (x,y)'],
    ['a in ( y , x , x )', 'a in (x,y)'],
    ['a notin (x)', 'a notin (x)'],
    ['a in ()', 'a in ()'],
    ['a in (x,)', 'a in (,x)'],
    ['a in (,)', 'a in ()'],
    ['a in (,,x)', 'a in (,x)'],
    ['x in (foo,,baz),y,z notin ()', 'x in (,baz,foo),y,z notin ()'],
    ['a=', 'a='],
    ['a=,b', 'a=,b'],
    ['a>1', 'a>1'],
    ['a<10', 'a<10'],
    ['in', 'in'],
    ['notin=in', 'notin=in'],
    ['a in (in,notin)', 'a in (in,notin)'],
    ['b,a', 'a,b'],
    ['example.com/key=v', 'example.com/key=v'],
    ['d,!c,a!=b', 'a!=b,!c,d'],
    ['\u0000a=b', ''],
  ];
  for (const [text, expected] of cases) {
    it(JSON.stringify(text), () => {
      const sel = parseLabelSelector(text);
      assert.equal(sel.toString(), expected);
      assert.equal(sel.empty, expected === '');
    });
  }
});

describe('parseLabelSelector: rejected input has kube’s exact message', () => {
  const long = 'x'.repeat(64);
  const cases: [string, string][] = [
    ['a b', `${req}found 'b', expected: in, notin, =, ==, !=, gt, lt`],
    ['a=b c', "found 'c', expected: ',' or 'end of string'"],
    ['a=b,', "found '', expected: identifier after ','"],
    ['a=b,,c', "found ',', expected: identifier after ','"],
    [',a', "found ',', expected: !, identifier, or 'end of string'"],
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    ['!', `${req}found '', expected: identifier`],
    ['!=a', "found '!=', expected: !, identifier, or 'end of string'"],
    ['!a=b', "found '=', expected: ',' or 'end of string'"],
    ['a in', `${req}found '' expected: '('`],
    ['a in x', `${req}found 'x' expected: '('`],
    ['a in (x', `${req}found '', expected: ',' or ')'`],
    ['a in (x y)', `${req}found 'y', expected: ',' or ')'`],
    ['a in (=)', `${req}found '=', expected: ',', ')' or identifier`],
    ['a in (x,=)', `${req}found '=', expected: ',', or identifier`],
    ['a===b', `${req}found '=', expected: identifier`],
    ['a=(b)', `${req}found '(', expected: identifier`],
    ['a@b', `${req}<nil>: Invalid value: "a@b": name part ${nameRegex}`],
    ['!a@b', `${req}<nil>: Invalid value: "a@b": name part ${nameRegex}`],
    [
      'a/b/c',
      `${req}<nil>: Invalid value: "a/b/c": a qualified name ${nameRegex} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ],
    ['/a', `${req}<nil>: Invalid value: "/a": prefix part must be non-empty`],
    ['a/', `${req}<nil>: Invalid value: "a/": name part must be non-empty; name part ${nameRegex}`],
    ['Example.com/a', `${req}<nil>: Invalid value: "Example.com/a": prefix part ${subdomainRegex}`],
    [
      `${'k'.repeat(64)}`,
      `${req}<nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 characters`,
    ],
    ['a=b@', `${req}values[0][a]: Invalid value: "b@": ${valueRegex}`],
    [`a=${long}`, `${req}values[0][a]: Invalid value: "${long}": must be no more than 63 characters`],
    [
      `a=${'-'.repeat(64)}`,
      `${req}values[0][a]: Invalid value: "${'-'.repeat(64)}": must be no more than 63 characters; ${valueRegex}`,
    ],
    [
      'a in (y@, x@)',
      `${req}[values[0][a]: Invalid value: "x@": ${valueRegex}, values[1][a]: Invalid value: "y@": ${valueRegex}]`,
    ],
    ['a>x', `${req}values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['a>', `${req}values[0]: Invalid value: "": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['a<-1', `${req}values[0][a]: Invalid value: "-1": ${valueRegex}`],
    ['a>+5', `${req}values[0][a]: Invalid value: "+5": ${valueRegex}`],
    [
      'a>x@',
      `${req}[values[0]: Invalid value: "x@": for 'Gt', 'Lt' operators, the value must be an integer, values[0][a]: Invalid value: "x@": ${valueRegex}]`,
    ],
    [
      'a>99999999999999999999',
      `${req}values[0]: Invalid value: "99999999999999999999": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
  ];
  for (const [text, message] of cases) {
    it(JSON.stringify(text), () => {
      const e = parseError(text);
      assert.equal(e.code, 400);
      assert.equal(e.reason, 'BadRequest');
      assert.equal(e.message, message);
    });
  }
});

describe('LabelSelector.matches', () => {
  const cases: [string, Record<string, string> | undefined, boolean][] = [
    ['a=b', { a: 'b' }, true],
    ['a=b', { a: 'c' }, false],
    ['a=b', {}, false],
    ['a=b', undefined, false],
    ['a==b', { a: 'b', c: 'd' }, true],
    ['a!=b', {}, true],
    ['a!=b', { a: 'c' }, true],
    ['a!=b', { a: 'b' }, false],
    ['a=', { a: '' }, true],
    ['a=', {}, false],
    ['a in (x,y)', { a: 'y' }, true],
    ['a in (x,y)', { a: 'z' }, false],
    ['a in (x,y)', {}, false],
    ['a notin (x)', {}, true],
    ['a notin (x)', { a: 'x' }, false],
    ['a notin (x)', { a: 'y' }, true],
    ['a notin ()', { a: '' }, false],
    // `()` is the set {""} (kube is lenient the same way)
    ['a in ()', { a: '' }, true],
    ['a in ()', { a: 'x' }, false],
    ['a in ()', {}, false],
    ['a notin ()', {}, true],
    ['a', { a: '' }, true],
    ['a', { b: '' }, false],
    ['!a', { b: '' }, true],
    ['!a', { a: 'x' }, false],
    ['a>5', { a: '6' }, true],
    ['a>5', { a: '5' }, false],
    ['a>5', { a: 'x' }, false],
    ['a>5', {}, false],
    ['a<5', { a: '-3' }, true],
    ['a<5', { a: '9223372036854775808' }, false],
    ['a=b,c', { a: 'b', c: '' }, true],
    ['a=b,c', { a: 'b' }, false],
    ['constructor', {}, false],
    ['!toString', {}, true],
    ['', undefined, true],
  ];
  for (const [text, labels, expected] of cases) {
    it(`${JSON.stringify(text)} on ${JSON.stringify(labels)}`, () => {
      assert.equal(parseLabelSelector(text).matches(labels), expected);
    });
  }
});

describe('LabelSelector.requiresExactMatch', () => {
  it('finds the single value of =, == and in (v)', () => {
    assert.equal(parseLabelSelector('a=b,c').requiresExactMatch('a'), 'b');
    assert.equal(parseLabelSelector('a==b').requiresExactMatch('a'), 'b');
    assert.equal(parseLabelSelector('a in (b)').requiresExactMatch('a'), 'b');
    assert.equal(parseLabelSelector('a in (b,c)').requiresExactMatch('a'), undefined);
    assert.equal(parseLabelSelector('a!=b').requiresExactMatch('a'), undefined);
    assert.equal(parseLabelSelector('c').requiresExactMatch('a'), undefined);
  });
});

describe('labelSelectorFromMeta', () => {
  function metaError(sel: Parameters<typeof labelSelectorFromMeta>[0]): string {
    try {
      labelSelectorFromMeta(sel);
    } catch (e) {
      assert.ok(e instanceof ApiError);
      return e.message;
    }
    assert.fail('expected an error');
  }

  it('null selects nothing; {} selects everything', () => {
    const none = labelSelectorFromMeta(null);
    assert.equal(none.empty, false);
    assert.equal(none.matches({}), false);
    const all = labelSelectorFromMeta({});
    assert.equal(all.empty, true);
    assert.equal(all.matches(undefined), true);
    assert.equal(labelSelectorFromMeta({ matchLabels: {}, matchExpressions: [] }).empty, true);
  });

  it('combines matchLabels and every expression operator', () => {
    const sel = labelSelectorFromMeta({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['b', 'a'] },
        { key: 'env', operator: 'NotIn', values: ['prod'] },
        { key: 'owner', operator: 'Exists' },
        { key: 'legacy', operator: 'DoesNotExist', values: [] },
      ],
    });
    assert.equal(sel.toString(), 'app=web,env notin (prod),!legacy,owner,tier in (a,b)');
    assert.equal(sel.matches({ app: 'web', tier: 'a', owner: 'x' }), true);
    assert.equal(sel.matches({ app: 'web', tier: 'a', owner: 'x', env: 'prod' }), false);
    assert.equal(sel.matches({ app: 'web', tier: 'a', owner: 'x', legacy: '' }), false);
    assert.equal(sel.matches({ app: 'web', tier: 'c', owner: 'x' }), false);
  });

  it('reports invalid parts as kube does', () => {
    assert.equal(
      metaError({ matchExpressions: [{ key: 'a', operator: 'Foo' }] }),
      '"Foo" is not a valid label selector operator',
    );
    assert.equal(
      metaError({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }),
      "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    );
    assert.equal(
      metaError({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x', 'y'] }] }),
      'values: Invalid value: []string{"x", "y"}: values set must be empty for exists and does not exist',
    );
    assert.equal(
      metaError({ matchLabels: { 'a@': 'b' } }),
      `key: Invalid value: "a@": name part ${nameRegex}`,
    );
    assert.equal(
      metaError({ matchLabels: { a: 'b c' } }),
      `values[0][a]: Invalid value: "b c": ${valueRegex}`,
    );
  });
});

describe('labelSelectorFromSet', () => {
  it('requires every label and does not validate', () => {
    const sel = labelSelectorFromSet({ b: '2', a: '1' });
    assert.equal(sel.toString(), 'a=1,b=2');
    assert.equal(sel.matches({ a: '1', b: '2', c: '3' }), true);
    assert.equal(sel.matches({ a: '1' }), false);
    assert.equal(labelSelectorFromSet({}).empty, true);
    assert.equal(labelSelectorFromSet(undefined).matches({}), true);
  });
});
