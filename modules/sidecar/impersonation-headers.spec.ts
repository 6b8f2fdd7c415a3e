/** The Impersonate-* headers a sidecar sends for a user it authenticated (client-go's impersonating transport). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { impersonationRequest } from '../authentication/index.js';
import { impersonationOf } from './impersonation-headers.js';

describe('impersonationOf', () => {
  it('user, groups (but the ones the upstream adds itself), uid and escaped extra keys', () => {
    const headers = impersonationOf({
      name: 'alice',
      uid: 'uid-1',
      groups: ['devs', 'system:authenticated', 'ops'],
      extra: { 'example.com/team': ['a', 'b'], scopes: ['x'] },
    });
    assert.deepEqual(headers, {
      'Impersonate-User': 'alice',
      'Impersonate-Group': ['devs', 'ops'],
      'Impersonate-Uid': 'uid-1',
      'Impersonate-Extra-example.com%2Fteam': ['a', 'b'],
      'Impersonate-Extra-scopes': ['x'],
    });
  });

  it('nothing but the user when it has nothing else', () => {
    assert.deepEqual(impersonationOf({ name: 'bob', uid: '', groups: ['system:authenticated'] }), {
      'Impersonate-User': 'bob',
    });
  });

  it('reads back as the same user on the upstream’s side (our own impersonation filter)', () => {
    const sent = impersonationOf({
      name: 'carol',
      uid: 'u',
      groups: ['g1'],
      extra: { 'Key With/Odd:Chars': ['v'] },
    });
    const lower = Object.fromEntries(
      Object.entries(sent).map(([k, v]) => [k.toLowerCase(), v as string | string[]]),
    );
    assert.deepEqual(impersonationRequest(lower), {
      name: 'carol',
      groups: ['g1'],
      uid: 'u',
      extra: { 'key with/odd:chars': ['v'] },
    });
  });
});
