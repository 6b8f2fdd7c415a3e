import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { celEnvironment, markList } from './index.js';

const env = celEnvironment({ variables: { a: 'dyn', b: 'dyn' }, unstructured: true });

function evaluate(expression: string, a: unknown, b?: unknown): unknown {
  const c = env.compile(expression);
  assert.ok(c.ok, c.ok ? '' : c.error);
  const r = c.program.evaluate({ a, b });
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.value;
}

const set = (...xs: unknown[]) => markList(xs, { type: 'set' });
const mapList = (...xs: unknown[]) => markList(xs, { type: 'map', keys: ['k'] });

// [expression, a, b, result]
const cases: [string, unknown, unknown, unknown][] = [
  ['a == b', [1n, 2n], [2n, 1n], false],
  ['a == b', set(1n, 2n), [2n, 1n], true],
  ['a != b', set('x', 'y'), set('y', 'x'), false],
  ['a == b', set('x', 'y'), set('y', 'z'), false],
  [
    'a == b',
    mapList({ k: 'a', v: 1n }, { k: 'b', v: 2n }),
    [
      { k: 'b', v: 2n },
      { k: 'a', v: 1n },
    ],
    true,
  ],
  [
    'a == b',
    mapList({ k: 'a', v: 1n }, { k: 'b', v: 2n }),
    [
      { k: 'b', v: 1n },
      { k: 'a', v: 2n },
    ],
    false,
  ],
  // nested: objects holding sets compare them as sets
  ['a == b', { s: set('x', 'y'), n: 1n }, { n: 1n, s: ['y', 'x'] }, true],
  ['a == b', { s: 'x', n: 1n }, { n: 1n, s: 'x', extra: true }, false],
  // objects whose values differ in type at the same keys still compare (no overload from the first value)
  ['a == b', { x: 'a', y: 1n }, { y: 1n, x: 'a' }, true],
  ['[a] == [b]', { x: 'a', y: 1n }, { x: 1n, y: 'a' }, false],
  // heterogeneous equality is false, numbers compare across int and double
  ['a == b', 'x', 1n, false],
  ['a != b', 'x', 1n, true],
  ['a == b', 1n, 1, true],
  ['a == b', null, 'x', false],
  ['a in b', { k: 'a' }, [{ k: 'b' }, { k: 'a' }], true],
  ['a in b', 'k', { k: 1n }, true],
  ['a in b', 'z', { k: 1n }, false],
  ['(a + b).size()', set('x', 'y'), ['y', 'z'], 3n],
  ['(a + b).size()', ['x', 'y'], ['y', 'z'], 4n],
  ['(a + b)[0].v', mapList({ k: 'a', v: 1n }), [{ k: 'a', v: 2n }], 2n],
  ['(a + b) == [1, 2]', set(2n), [1n], true],
];

describe('unstructured values: list types in ==, in and +', () => {
  for (const [expression, a, b, want] of cases) {
    it(`${expression} with ${JSON.stringify([a, b], (_, v) => (typeof v === 'bigint' ? `${v}n` : v))}`, () =>
      assert.deepEqual(evaluate(expression, a, b), want));
  }
  it('timestamps and durations keep their own equality', () => {
    assert.equal(evaluate("a == timestamp('2024-01-01T00:00:00Z')", new Date('2024-01-01T00:00:00Z')), true);
    assert.equal(evaluate("duration('1h') == duration('60m')", null), true);
  });
});
