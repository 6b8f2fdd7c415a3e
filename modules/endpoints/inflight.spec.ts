import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestInfo, UserInfo } from '../api/index.js';
import { InflightLimiter } from './inflight.js';

const alice: UserInfo = { name: 'alice', uid: '1', groups: ['devs', 'system:authenticated'] };
const admin: UserInfo = { name: 'admin', uid: '0', groups: ['system:masters', 'system:authenticated'] };
const verb = (v: string) => ({ verb: v }) as RequestInfo;

describe('InflightLimiter', () => {
  it('refuses with 429 and Retry-After: 1 once the kind is full; a released slot is free again', () => {
    const l = new InflightLimiter(1, 1);
    const slot = l.admit(verb('create'), alice);
    assert.equal(slot, 'mutating');
    assert.throws(
      () => l.admit(verb('patch'), alice),
      (e: any) =>
        e.code === 429 &&
        e.reason === 'TooManyRequests' &&
        e.message === 'Too many requests, please try again later.' &&
        e.headers['Retry-After'] === '1' &&
        e.details.retryAfterSeconds === 1,
    );
    // the read-only slots are separate
    assert.equal(l.admit(verb('list'), alice), 'readOnly');
    l.release(slot);
    assert.equal(l.admit(verb('delete'), alice), 'mutating');
    assert.deepEqual(l.inUse(), { readOnly: 1, mutating: 1 });
  });

  it('does not count watches, nor refuse system:masters', () => {
    const l = new InflightLimiter(1, 1);
    l.admit(verb('get'), alice);
    for (let i = 0; i < 5; i++) assert.equal(l.admit(verb('watch'), alice), undefined);
    assert.equal(l.admit(verb('get'), admin), undefined);
    assert.deepEqual(l.inUse(), { readOnly: 1, mutating: 0 });
  });

  it('0 means no limit', () => {
    const l = new InflightLimiter(0, 0);
    for (let i = 0; i < 1000; i++) l.admit(verb('create'), alice);
    assert.deepEqual(l.inUse(), { readOnly: 0, mutating: 0 });
  });
});
