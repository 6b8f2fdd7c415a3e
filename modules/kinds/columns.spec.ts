import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ageColumn, countOf, humanDuration, timestampSince } from './columns.js';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('humanDuration', () => {
  const cases: [number, string][] = [
    [-3 * s, '<invalid>'],
    [-1 * s, '0s'],
    [0, '0s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [2 * m + 5 * s, '2m5s'],
    [9 * m + 59 * s, '9m59s'],
    [10 * m + 30 * s, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [7 * h + 59 * m, '7h59m'],
    [8 * h + 30 * m, '8h'],
    [47 * h, '47h'],
    [2 * d, '2d'],
    [3 * d + 4 * h, '3d4h'],
    [8 * d + 5 * h, '8d'],
    [729 * d, '729d'],
    [730 * d, '2y'],
    [731 * d, '2y1d'],
    [8 * 365 * d + 3 * d, '8y'],
  ];
  for (const [ms, want] of cases) {
    it(want, () => assert.equal(humanDuration(ms), want));
  }
});

describe('timestampSince and the Age column', () => {
  const now = Date.parse('2024-05-01T12:00:00Z');
  it('formats the age of a timestamp', () => {
    assert.equal(timestampSince('2024-05-01T11:55:00Z', now), '5m');
  });
  it('unset or zero times are <unknown>', () => {
    for (const t of [undefined, null, '', '0001-01-01T00:00:00Z', 'garbage'])
      assert.equal(timestampSince(t, now), '<unknown>');
  });
  it('Age reads metadata.creationTimestamp', () => {
    const obj = { metadata: { creationTimestamp: '2024-04-29T12:00:00Z' } };
    assert.equal(ageColumn.cell?.(obj, now), '2d');
    assert.equal(ageColumn.type, 'string');
  });
  it('countOf counts maps and lists', () => {
    assert.equal(countOf({ a: 1, b: 2 }), 2);
    assert.equal(countOf([1, 2, 3]), 3);
    assert.equal(countOf(undefined), 0);
  });
});
