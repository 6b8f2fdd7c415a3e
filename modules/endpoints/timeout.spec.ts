import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { ApiError } from '../api/index.js';
import { RequestTimeouts, requestTimedOut, watchTimeoutMs } from './timeout.js';

describe('watchTimeoutMs', () => {
  it('is timeoutSeconds when given', () => {
    assert.equal(
      watchTimeoutMs(5, 1800, () => 0.5),
      5000,
    );
  });

  it('is min·(random+1) without timeoutSeconds (0 too), as kube: within [min, 2·min)', () => {
    assert.equal(
      watchTimeoutMs(0, 1800, () => 0),
      1_800_000,
    );
    assert.equal(
      watchTimeoutMs(0, 1800, () => 0.5),
      2_700_000,
    );
    assert.ok(watchTimeoutMs(0, 1800, () => 0.999999) < 3_600_000);
    for (let i = 0; i < 1000; i++) {
      const ms = watchTimeoutMs(0, 10);
      assert.ok(ms >= 10_000 && ms < 20_000, String(ms));
    }
  });

  it('is unlimited when --min-request-timeout is 0 and no timeoutSeconds is given', () => {
    assert.equal(watchTimeoutMs(0, 0), Infinity);
    assert.equal(watchTimeoutMs(3, 0), 3000);
  });
});

describe('RequestTimeouts', () => {
  it("takes the request's ?timeout= when positive and shorter than --request-timeout", () => {
    const t = new RequestTimeouts(60_000);
    assert.equal(t.budgetMs(undefined), 60_000);
    assert.equal(t.budgetMs('5s'), 5000);
    assert.equal(t.budgetMs('0s'), 60_000);
    assert.equal(t.budgetMs('2m'), 60_000);
    assert.throws(
      () => t.budgetMs('soon'),
      (e: ApiError) =>
        e.code === 400 &&
        e.message === 'invalid timeout specified in the request URL - time: invalid duration "soon"',
    );
  });

  it('fires an expired deadline once, and never one that was stopped', async () => {
    const t = new RequestTimeouts(1000, 10);
    let fired = 0;
    let stoppedFired = 0;
    t.start(20, () => fired++);
    const stop = t.start(20, () => stoppedFired++);
    stop();
    await sleep(80);
    assert.equal(fired, 1);
    assert.equal(stoppedFired, 0);
  });

  it("answers kube's 504 Timeout Status", () => {
    const status = requestTimedOut().toStatus();
    assert.equal(status.code, 504);
    assert.equal(status.reason, 'Timeout');
    assert.equal(status.message, 'Timeout: request did not complete within the allotted timeout');
  });
});
