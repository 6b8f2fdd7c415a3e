/** Go's time.Duration: parsed from kube's flags and files, printed as Go prints it in kube's messages. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goDurationString, parseGoDuration } from './go-duration.js';

describe('parseGoDuration', () => {
  it('reads Go durations in milliseconds', () => {
    assert.equal(parseGoDuration('0'), 0);
    assert.equal(parseGoDuration('5s'), 5000);
    assert.equal(parseGoDuration('1m0s'), 60_000);
    assert.equal(parseGoDuration('1h30m'), 5_400_000);
    assert.equal(parseGoDuration('1.5s'), 1500);
    assert.equal(parseGoDuration('250ms'), 250);
    assert.equal(parseGoDuration('1500us'), 1.5);
    assert.equal(parseGoDuration('-2s'), -2000);
  });

  it('refuses what Go refuses, with its messages', () => {
    assert.throws(() => parseGoDuration(''), { message: 'time: invalid duration ""' });
    assert.throws(() => parseGoDuration('abc'), { message: 'time: invalid duration "abc"' });
    assert.throws(() => parseGoDuration('10'), { message: 'time: missing unit in duration "10"' });
    assert.throws(() => parseGoDuration('3days'), {
      message: 'time: unknown unit "days" in duration "3days"',
    });
    assert.throws(() => parseGoDuration('.s'), /invalid duration/);
  });
});

describe('goDurationString', () => {
  for (const [ms, text] of [
    [0, '0s'],
    [250, '250ms'],
    [1500, '1.5s'],
    [30_000, '30s'],
    [31_000, '31s'],
    [60_000, '1m0s'],
    [90_000, '1m30s'],
    [-60_000, '-1m0s'],
    [3_600_000, '1h0m0s'],
    [5_430_500, '1h30m30.5s'],
    [0.5, '500µs'],
  ] as const) {
    it(`${ms} ms is ${text}`, () => assert.equal(goDurationString(ms), text));
  }
});
