/** Two writers fighting over one object are stopped after a few rewrites, with one warning; others go on. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FlapGuard } from './flap-guard.js';

describe('FlapGuard', () => {
  it('allows `limit` rewrites per window, then pauses that key once, with a warning', () => {
    let now = 0;
    const warnings: string[] = [];
    const guard = new FlapGuard(
      (m) => warnings.push(m),
      3,
      60_000,
      300_000,
      () => now,
    );
    assert.deepEqual(
      [1, 2, 3, 4, 5].map(() => guard.allow('cm a/b', 'why')),
      [true, true, true, false, false],
    );
    assert.deepEqual(warnings, ['cm a/b: rewritten 3 times within 60s; why; left alone for 300s']);
    assert.equal(guard.allow('cm other', 'why'), true, 'other keys go on');
    now += 300_000;
    assert.equal(guard.allow('cm a/b', 'why'), true, 'after the pause');
  });

  it('spaced rewrites (a person editing now and then) are always put right', () => {
    let now = 0;
    const guard = new FlapGuard(
      () => assert.fail('no warning'),
      3,
      60_000,
      300_000,
      () => now,
    );
    for (let i = 0; i < 10; i++) {
      assert.equal(guard.allow('k', 'why'), true);
      now += 30_000;
    }
  });
});
