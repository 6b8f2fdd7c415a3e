import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  CelAuthorizer,
  authorizerType,
  celEnvironment,
  costErrorMessage,
  costLimitExceededMessage,
} from './index.js';

const variables = { xs: 'list<int>', s: 'string', m: 'map<string, dyn>' };
// kube's library tests run programs without cel-go's optimizer; kube's servers run them with it
const env = celEnvironment({ variables, optimize: false });
const optimized = celEnvironment({ variables });

function cost(expression: string, activation: Record<string, unknown> = {}): number {
  const c = env.compile(expression);
  assert.ok(c.ok, c.ok ? '' : c.error);
  const r = c.program.evaluate(activation);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.cost;
}

const intList = '[1, 2, 3, 4, 5]';
const stringList = "['012345678901', '012345678901', '012345678901', '012345678901', '012345678901']";
const fifty = "'01234567890123456789012345678901234567890123456789'";
const doubleList = '[1.0, 2.0, 3.0, 4.0, 5.0]';
const boolList = '[false, true, false, true, false]';
const uintList = '[uint(1), uint(2), uint(3), uint(4), uint(5)]';
const bytesList = `[${Array(5).fill("bytes('012345678901')").join(', ')}]`;
const durationList = "[duration('1s'), duration('2s'), duration('3s'), duration('4s'), duration('5s')]";
const timestampList = `[${[1, 2, 3, 4, 5].map((d) => `timestamp('2011-01-0${d}T00:00:00.000+01:00')`).join(', ')}]`;

// runtime costs from kube's library/cost_test.go (facts)
const kube: [string, number][] = [
  [`${intList}.sum()`, 15],
  [`${intList}.isSorted()`, 15],
  [`${intList}.max()`, 15],
  [`${intList}.min()`, 15],
  [`${stringList}.isSorted()`, 15],
  [`${uintList}.sum()`, 20],
  [`${doubleList}.sum()`, 15],
  [`${durationList}.sum()`, 20],
  [`${boolList}.isSorted()`, 15],
  [`${bytesList}.max()`, 25],
  [`${durationList}.min()`, 20],
  [`${timestampList}.isSorted()`, 20],
  [`${intList}.indexOf(3)`, 15],
  [`${uintList}.indexOf(uint(3))`, 21],
  [`${bytesList}.lastIndexOf(bytes('x'))`, 26],
  [`${timestampList}.indexOf(timestamp('2011-01-03T00:00:00.000+01:00'))`, 21],
  [`${intList}.lastIndexOf(3)`, 15],
  [`${stringList}.indexOf('x')`, 15],
  [`${fifty}.indexOf('123')`, 5],
  [`${fifty}.lastIndexOf('123')`, 5],
  ["url('https:://kubernetes.io/').getScheme()", 4],
  ["url('https:://kubernetes.io/').getHostname()", 4],
  ["url('https:://kubernetes.io/').getQuery()", 4],
  ["url('https:://kubernetes.io/') == url('https:://kubernetes.io/')", 7],
  ["url('https:://kubernetes.io/') == url('http://x.b')", 5],
  ["ip('192.168.0.1')", 2],
  ["ip('192.168.0.1').family()", 3],
  ["ip('192.168.0.1') == ip('192.168.0.1')", 5],
  ["ip('2001:db8:3333:4444:5555:6666:7777:8888')", 4],
  ["ip('2001:db8:3333:4444:5555:6666:7777:8888').isLoopback()", 5],
  ["ip.isCanonical('192.168.0.1')", 3],
  ["ip.isCanonical('2001:db8:3333:4444:5555:6666:7777:8888')", 8],
  ["cidr('192.168.0.0/16')", 2],
  ["cidr('192.168.0.0/16').prefixLength()", 3],
  ["cidr('192.168.0.0/16').containsCIDR(cidr('192.0.0.0/30'))", 7],
  ["cidr('192.168.0.0/16').containsCIDR('192.0.0.0/30')", 7],
  ["cidr('192.168.0.0/16').containsIP(ip('192.0.0.1'))", 4],
  ["cidr('192.168.0.0/16').containsIP(ip('192.169.0.1'))", 5],
  ["cidr('192.168.0.0/16').containsIP('192.169.0.1')", 5],
];

describe('CEL runtime cost (kube figures)', () => {
  for (const [expression, expected] of kube) {
    it(`${expression} costs ${expected}`, () => assert.equal(cost(expression), expected));
  }
});

describe('CEL runtime cost (cel-go model)', () => {
  const cases: [string, Record<string, unknown>, number][] = [
    ['xs', { xs: [1n] }, 1],
    ['m.a.b', { m: { a: { b: 1n } } }, 3],
    ['1 + 2', {}, 1],
    ['s + s', { s: 'x'.repeat(40) }, 2 + 8],
    ["s.startsWith('a')", { s: 'a'.repeat(100) }, 1 + 10],
    ["s.matches('^[a-z]+$')", { s: 'a'.repeat(99) }, 1 + 10 * 2],
    ['2 in xs', { xs: [1n, 2n, 3n] }, 1 + 3],
    // all(): per element the loop condition (2), the accumulator (1), the predicate (x 1, > 1), then the result (1)
    ['xs.all(x, x > 0)', { xs: [1n, 2n, 3n] }, 1 + 3 * (2 + 1 + 2) + 1],
    // stops at the first false element, after one more loop condition
    ['xs.all(x, x > 1)', { xs: [1n, 2n, 3n] }, 1 + (2 + 1 + 2) + 2 + 1],
    ['xs.exists(x, x == 2)', { xs: [1n, 2n, 3n] }, 1 + 2 * (3 + 1 + 2) + 3 + 1],
    ['xs.map(x, x * 2)', { xs: [1n, 2n] }, 1 + 10 + 2 * (12 + 2) + 1],
    ['xs.filter(x, x > 1)', { xs: [1n, 2n] }, 1 + 10 + 2 + 1 + 2 + 13 + 1],
    ['has(m.a)', { m: { a: 1n } }, 1],
    // the two-variable forms cost as their cel-go expansions: all = condition 2, accumulator 1, predicate
    ['xs.all(i, v, v > 0)', { xs: [1n, 2n] }, 1 + 2 * (2 + 1 + 2) + 1],
    ['xs.transformList(i, v, v * 2)', { xs: [1n, 2n] }, 1 + 10 + 2 * (12 + 2) + 1],
    ['has(m.a.b)', { m: { a: { b: 1n } } }, 2],
    ['m.a ? 1 : 2', { m: { a: true } }, 2],
    ['true || xs.size() > 0', { xs: [] }, 0],
  ];
  for (const [expression, activation, expected] of cases) {
    it(`${expression} costs ${expected}`, () => assert.equal(cost(expression, activation), expected));
  }
});

describe('CEL runtime cost of optimized programs (kube servers fold constants)', () => {
  const cases: [string, number][] = [
    [`${intList}.sum()`, 5],
    ['[uint(1), uint(2)].sum()', 2],
    ["duration('1s') < duration('2s')", 1],
    ["s in ['a', 'b', 'c']", 1],
    ['[s, s].size()', 10 + 2 + 1],
    ["{'a': 1}.a", 1],
  ];
  for (const [expression, expected] of cases) {
    it(`${expression} costs ${expected}`, () => {
      const c = optimized.compile(expression);
      assert.ok(c.ok, c.ok ? '' : c.error);
      const r = c.program.evaluate({ s: 'a' });
      assert.ok(r.ok, r.ok ? '' : r.error);
      assert.equal(r.cost, expected);
    });
  }
});

describe('CEL cost of authorization checks (kube: 350,000 a check, so two fit in a call)', () => {
  const authz = celEnvironment({ variables: { authorizer: authorizerType } });
  const authorizer = new CelAuthorizer({ name: 'u', groups: [] }, () => ({ decision: 'allow' }));
  it('a resource check', () => {
    const c = authz.compile("authorizer.group('').resource('pods').check('get').allowed()");
    assert.ok(c.ok);
    const r = c.program.evaluate({ authorizer });
    assert.deepEqual([r.ok, r.cost], [true, 1 + 1 + 1 + 350_000 + 1]);
    assert.deepEqual(c.program.estimatedCost(), { min: 350_004, max: 350_004 });
  });
  it('three checks exceed the per-call limit', () => {
    const check = "authorizer.path('/x').check('get').allowed()";
    const c = authz.compile(`${check} && ${check} && ${check}`);
    assert.ok(c.ok);
    const r = c.program.evaluate({ authorizer });
    assert.equal(r.ok ? null : r.error, costLimitExceededMessage);
  });
});

describe('CEL runtime budget', () => {
  it('stops an evaluation past its limit with kube message', () => {
    const c = env.compile('xs.map(x, xs.map(y, x * y)).size() > 0');
    assert.ok(c.ok);
    const xs = Array.from({ length: 200 }, (_, i) => BigInt(i));
    const r = c.program.evaluate({ xs }, 10_000);
    assert.deepEqual(r.ok ? null : r.error, costLimitExceededMessage);
    assert.ok(r.cost > 10_000);
    const small = c.program.evaluate({ xs: [1n, 2n] }, 10_000);
    assert.ok(small.ok && small.value === true);
  });
  it('the per-call limit (1,000,000) applies by default', () => {
    const c = env.compile('xs.all(x, xs.all(y, x + y >= 0))');
    assert.ok(c.ok);
    const xs = Array.from({ length: 1000 }, (_, i) => BigInt(i));
    const r = c.program.evaluate({ xs });
    assert.equal(r.ok ? null : r.error, costLimitExceededMessage);
  });
  it('words an estimate over budget as kube', () => {
    assert.equal(
      costErrorMessage('estimated rule cost', 20_000_000, 10_000_000),
      'estimated rule cost exceeds budget by factor of 2.0x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
    );
    assert.match(costErrorMessage('estimated rule cost', 2e10, 1e7), /factor of more than 100x/);
    assert.match(costErrorMessage('estimated rule cost', 1.2e7, 1e7), /factor of 1\.200000x/);
  });
});
