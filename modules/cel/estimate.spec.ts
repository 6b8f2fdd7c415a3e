import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { celEnvironment, type SizeSchema } from './index.js';

function estimate(
  expression: string,
  schemas: Record<string, SizeSchema> = {},
  variables: Record<string, string> = {},
) {
  const c = celEnvironment({ variables, schemas }).compile(expression);
  assert.ok(c.ok, c.ok ? '' : c.error);
  return c.program.estimatedCost();
}

const intList = '[1, 2, 3, 4, 5]';
const uintList = '[uint(1), uint(2), uint(3), uint(4), uint(5)]';
const fifty = "'01234567890123456789012345678901234567890123456789'";

// estimates from kube's library/cost_test.go (facts)
const kube: [string, number, number][] = [
  [`${intList}.sum()`, 15, 15],
  [`${uintList}.sum()`, 20, 20],
  [`${intList}.max()`, 15, 15],
  [`${intList}.indexOf(3)`, 15, 15],
  [`${uintList}.indexOf(uint(3))`, 21, 21],
  [`${fifty}.indexOf('123')`, 5, 5],
  ["url('https:://kubernetes.io/').getScheme()", 4, 4],
  ["ip('192.168.0.1')", 2, 2],
  ["ip('192.168.0.1').isGlobalUnicast()", 3, 3],
  ["ip('192.168.0.1') == ip('192.168.0.1')", 5, 5],
  ["ip('2001:db8:3333:4444:5555:6666:7777:8888').family()", 5, 5],
  ["ip.isCanonical('192.168.0.1')", 3, 3],
  ["ip.isCanonical('2001:db8:3333:4444:5555:6666:7777:8888')", 8, 8],
  ["ip.isCanonical('2001:db8::abcd')", 3, 3],
  ["cidr('192.168.0.0/16').masked()", 3, 3],
  ["cidr('192.168.0.0/16').containsCIDR(cidr('192.0.0.0/30'))", 7, 11],
  ["cidr('192.168.0.0/16').containsCIDR('192.168.0.0/16')", 7, 11],
  ["cidr('192.168.0.0/16').containsIP(ip('192.0.0.1'))", 4, 7],
  ["cidr('192.168.0.0/16').containsIP('192.169.0.1')", 5, 8],
  ["cidr('2001:db8::/32').containsCIDR(cidr('2001:db8::/126'))", 7, 11],
];

describe('CEL estimated cost (kube figures)', () => {
  for (const [expression, min, max] of kube) {
    it(`${expression}: ${min}..${max}`, () => assert.deepEqual(estimate(expression), { min, max }));
  }
});

describe('CEL estimated cost from declared sizes', () => {
  const names: SizeSchema = { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 5 } };
  it('a bounded list: elements × (loop condition, accumulator, predicate)', () => {
    // self 1; 0..10 × (condition 2 + accumulator 1 + x.size() < 3 (1 + 1 + 1)); result 1
    assert.deepEqual(estimate('self.all(x, x.size() < 3)', { self: names }, { self: 'list<string>' }), {
      min: 2,
      max: 1 + 10 * 6 + 1,
    });
  });
  it('two-variable comprehensions estimate as their one-variable forms', () => {
    const ints: SizeSchema = { type: 'array', maxItems: 10, items: { type: 'integer' } };
    const expected = { min: 2, max: 1 + 10 * (2 + 1 + 2) + 1 };
    assert.deepEqual(estimate('self.all(x, x > 0)', { self: ints }, { self: 'list<int>' }), expected);
    assert.deepEqual(estimate('self.all(i, x, x > 0)', { self: ints }, { self: 'list<int>' }), expected);
  });
  it('a bounded string: regex cost from maxLength', () => {
    const schema = { type: 'string', maxLength: 99 };
    // self 1; ceil((99 + 1) × 0.1) × ceil(8 × 0.25)
    assert.deepEqual(estimate("self.matches('^[a-z]+$')", { self: schema }, { self: 'string' }), {
      min: 1 + 1 * 2,
      max: 1 + 10 * 2,
    });
  });
  it('an unbounded string is as long as a request allows', () => {
    const schema = { type: 'string' };
    const { max } = estimate('self.lowerAscii() == self', { self: schema }, { self: 'string' });
    // self twice, lowerAscii ceil((3 MiB - 2) × 0.1), == ceil((3 MiB - 2) × 0.1)
    assert.equal(max, 2 + 2 * Math.ceil((3 * 1024 * 1024 - 2) * 0.1));
  });
  it('nested loops over unbounded lists exceed the per-rule limit, with kube message', () => {
    const schema: SizeSchema = { type: 'array', items: { type: 'integer' } };
    const env = celEnvironment({ variables: { self: 'list<int>' }, schemas: { self: schema } });
    const c = env.compile('self.all(x, self.all(y, x != y))');
    assert.ok(c.ok);
    assert.equal(
      c.program.estimatedCostError(),
      'estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
    );
    const bounded = celEnvironment({
      variables: { self: 'list<int>' },
      schemas: { self: { ...schema, maxItems: 100 } },
    }).compile('self.all(x, self.all(y, x != y))');
    assert.ok(bounded.ok);
    assert.equal(bounded.program.estimatedCostError(), undefined);
  });
  it('fields of objects take their own bounds', () => {
    const schema: SizeSchema = {
      type: 'object',
      properties: { spec: { type: 'object', properties: { name: { type: 'string', maxLength: 40 } } } },
    };
    // self.spec.name: 3; startsWith ceil(1 × 0.1), the prefix's length (kube's estimate)
    assert.deepEqual(
      estimate("self.spec.name.startsWith('a')", { self: schema }, { self: 'map<string, dyn>' }),
      { min: 4, max: 4 },
    );
  });
});
