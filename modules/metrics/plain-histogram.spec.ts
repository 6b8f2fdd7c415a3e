import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Histogram, Registry } from 'prom-client';
import { PlainHistogram } from './plain-histogram.js';

describe('plain histogram', () => {
  it("renders what prom-client's own histogram renders for the same observations", async () => {
    const buckets = [0.005, 0.1, 1, 5];
    const observations = [0, 0.005, 0.0051, 0.1, 0.7, 1, 4.9, 5, 5.1, 300];
    const ours = new Registry();
    const theirs = new Registry();
    const plain = new PlainHistogram('d_seconds', 'help', buckets, ours);
    const reference = new Histogram({
      name: 'd_seconds',
      help: 'help',
      labelNames: ['verb', 'code'],
      buckets,
      registers: [theirs],
    });
    for (const labels of [
      { verb: 'GET', code: '200' },
      { verb: 'POST', code: '201' },
    ]) {
      const cell = plain.cell(labels);
      for (const v of observations) {
        cell.observe(v);
        reference.observe(labels, v);
      }
    }
    assert.equal(await ours.metrics(), await theirs.metrics());
  });
});
