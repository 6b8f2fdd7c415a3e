/** The work queue: keys waiting are deduplicated, handled one at a time, failures retried with backoff. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WorkQueue } from './work-queue.js';

describe('WorkQueue', () => {
  it('handles each waiting key once, one at a time', async () => {
    const seen: string[] = [];
    let busy = 0;
    let maxBusy = 0;
    const q = new WorkQueue(async (key) => {
      busy++;
      maxBusy = Math.max(maxBusy, busy);
      await new Promise((r) => setTimeout(r, 5));
      seen.push(key);
      busy--;
    }, assert.fail);
    q.add('a');
    q.add('b');
    q.add('b');
    q.add('a');
    await q.idle();
    assert.equal(maxBusy, 1);
    // 'a' was taken at once; the second 'a' came while it was handled, so it is handled again
    assert.deepEqual(seen, ['a', 'b', 'a']);
  });

  it('retries a failed key after a backoff, and logs the failure', async () => {
    let calls = 0;
    const logged: string[] = [];
    const q = new WorkQueue(
      async () => {
        if (++calls < 3) throw new Error('not yet');
      },
      (m) => logged.push(m),
    );
    q.add('k');
    const until = Date.now() + 2000;
    while (calls < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    assert.equal(calls, 3);
    assert.deepEqual(logged, ['k: not yet; retrying', 'k: not yet; retrying']);
    await q.stop();
  });

  it('takes no keys once stopped', async () => {
    let calls = 0;
    const q = new WorkQueue(async () => void calls++, assert.fail);
    await q.stop();
    q.add('x');
    await q.idle();
    assert.equal(calls, 0);
  });
});
