/** The token answer cache: keyed without the token, kept for the TTL each answer gets, shared in flight, bounded. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TokenCache } from './token-cache.js';

describe('TokenCache', () => {
  it('keys differ by token and audiences, never contain the token, and differ between caches', () => {
    const cache = new TokenCache<string>();
    const keys = [
      cache.key('secret-token', undefined),
      cache.key('secret-token', ['a']),
      cache.key('secret-token', ['a', 'b']),
      cache.key('other', undefined),
      cache.key('a', ['secret-token']),
    ];
    assert.equal(new Set(keys).size, keys.length);
    for (const k of keys) assert.doesNotMatch(k, /secret/);
    assert.equal(cache.key('t', ['a']), cache.key('t', ['a']));
    assert.notEqual(new TokenCache<string>().key('t', undefined), cache.key('t', undefined));
  });

  it('keeps an answer for its TTL, then asks again; a TTL of 0 keeps nothing', async () => {
    let now = 0;
    let asked = 0;
    const cache = new TokenCache<string>(10, () => now);
    const ask = async () => `answer ${++asked}`;
    assert.equal(await cache.get('k', ask, () => 1000), 'answer 1');
    now = 999;
    assert.equal(await cache.get('k', ask, () => 1000), 'answer 1');
    now = 1000;
    assert.equal(await cache.get('k', ask, () => 1000), 'answer 2');
    assert.equal(await cache.get('e', ask, () => 0), 'answer 3');
    assert.equal(await cache.get('e', ask, () => 0), 'answer 4');
  });

  it('concurrent questions about one key share one answer; a failed ask is not kept', async () => {
    let asked = 0;
    let release: (v: string) => void = () => undefined;
    const cache = new TokenCache<string>();
    const slow = () => {
      asked++;
      return new Promise<string>((r) => (release = r));
    };
    const both = Promise.all([cache.get('k', slow, () => 1000), cache.get('k', slow, () => 1000)]);
    release('shared');
    assert.deepEqual(await both, ['shared', 'shared']);
    assert.equal(asked, 1);
    await assert.rejects(
      cache.get(
        'f',
        () => Promise.reject(new Error('down')),
        () => 1000,
      ),
      /down/,
    );
    assert.equal(
      await cache.get(
        'f',
        async () => 'up',
        () => 1000,
      ),
      'up',
    );
  });

  it('holds at most maxEntries, dropping the oldest', async () => {
    const cache = new TokenCache<number>(3);
    for (let i = 0; i < 5; i++)
      await cache.get(
        `k${i}`,
        async () => i,
        () => 60_000,
      );
    assert.equal(cache.size, 3);
    let asked = false;
    assert.equal(
      await cache.get(
        'k4',
        async () => ((asked = true), -1),
        () => 60_000,
      ),
      4,
    );
    assert.equal(
      await cache.get(
        'k0',
        async () => ((asked = true), -1),
        () => 60_000,
      ),
      -1,
    );
    assert.ok(asked);
  });
});
