/** kube's `--controllers` syntax: `*` for the defaults, `name` on, `-name` off, unknown names refused. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enabledControllers } from './controller.js';

const known = [
  { name: 'a', enabledByDefault: true },
  { name: 'b', enabledByDefault: true },
  { name: 'off', enabledByDefault: false },
];
const run = (...values: string[]) => [...enabledControllers(values, known)].sort();

describe('enabledControllers', () => {
  for (const [values, expected] of [
    [[], ['a', 'b']],
    [['*'], ['a', 'b']],
    [['*,-a'], ['b']],
    [['*,off'], ['a', 'b', 'off']],
    [['a'], ['a']],
    [['off'], ['off']],
    [['-a'], []],
    [
      ['*', '-b', 'off'],
      ['a', 'off'],
    ],
    [[' * , -a '], ['b']],
  ] as const) {
    it(`${JSON.stringify(values)} runs ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(run(...values), expected);
    });
  }

  it('refuses unknown names, naming each', () => {
    assert.throws(() => run('*,nope,-gone'), /unknown controller "nope", "-gone"; known: a, b, off/);
  });

  it('knows the kube defaults: tokencleaner and bootstrapsigner only when named', () => {
    const on = enabledControllers([]);
    assert.ok(on.has('serviceaccount') && on.has('root-ca-cert-publisher') && on.has('namespace'));
    assert.ok(!on.has('tokencleaner') && !on.has('bootstrapsigner'));
  });
});
