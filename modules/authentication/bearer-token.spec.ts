/**
 * Static bearer tokens: a known token is its user (with system:authenticated added, frozen: it is shared by
 * every request), an unknown or malformed one is 401, no Authorization header is not this authenticator's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, type UserInfo } from '../api/index.js';
import type { AuthenticationRequest } from './authenticator.js';
import { BearerTokenAuthenticator } from './bearer-token.js';
import { parseTokenFile } from './token-file.js';

const request = (authorization?: string): AuthenticationRequest => ({
  headers: authorization === undefined ? {} : { authorization },
  rawHeaders: [],
  peerCertificates: () => undefined,
});

const tokens = parseTokenFile(
  ['alice-token,alice,uid-alice,"dev,qa"', 'bob-token,bob,uid-bob', ''].join('\n'),
);

async function unauthorized(p: Promise<unknown>): Promise<void> {
  const e = await p.then(
    () => assert.fail('expected 401'),
    (err: unknown) => err,
  );
  assert.ok(e instanceof ApiError, String(e));
  assert.equal(e.code, 401);
  assert.equal(e.reason, 'Unauthorized');
}

describe('BearerTokenAuthenticator', () => {
  const authn = new BearerTokenAuthenticator(tokens);

  it('a known token is its user, in its groups and system:authenticated', async () => {
    assert.deepEqual(await authn.authenticate(request('Bearer alice-token')), {
      name: 'alice',
      uid: 'uid-alice',
      groups: ['dev', 'qa', 'system:authenticated'],
    });
    assert.deepEqual(await authn.authenticate(request('Bearer bob-token')), {
      name: 'bob',
      uid: 'uid-bob',
      groups: ['system:authenticated'],
    });
  });

  it('the scheme is case-insensitive and blanks around the header are ignored', async () => {
    assert.equal((await authn.authenticate(request('bearer alice-token')))?.name, 'alice');
    assert.equal((await authn.authenticate(request('BEARER alice-token  ')))?.name, 'alice');
  });

  it("no Authorization header: not this authenticator's request", async () => {
    assert.equal(await authn.authenticate(request()), undefined);
  });

  it('an unknown token is 401', async () => {
    await unauthorized(authn.authenticate(request('Bearer mallory-token')));
    await unauthorized(authn.authenticate(request('Bearer alice-toke')));
    await unauthorized(authn.authenticate(request('Bearer alice-tokenx')));
  });

  // kube's bearer-token authenticator: what is not `Bearer <token>` is no bearer token at all (anonymous)
  it("an Authorization header that is no bearer token is not this authenticator's", async () => {
    for (const header of [
      'Basic YWxpY2U6cGFzcw==',
      'Bearer',
      'Bearer ',
      'Bearer  alice-token',
      'alice-token',
      'Bearer\talice-token',
    ]) {
      assert.equal(await authn.authenticate(request(header)), undefined, header);
    }
  });

  it('reads the token as kube does: the second space-separated part, the scheme in any case', async () => {
    assert.equal((await authn.authenticate(request('Bearer alice-token extra')))?.name, 'alice');
    assert.equal((await authn.authenticate(request('  bEaReR alice-token  ')))?.name, 'alice');
    await unauthorized(authn.authenticate(request('Bearer alice-token\textra')));
  });

  it('the user answered is frozen and shared: no request can change it for the next', async () => {
    const u = (await authn.authenticate(request('Bearer alice-token')))!;
    assert.ok(Object.isFrozen(u));
    assert.ok(Object.isFrozen(u.groups));
    assert.throws(() => {
      (u as { name: string }).name = 'root';
    }, TypeError);
    assert.throws(() => u.groups.push('system:masters'), TypeError);
    const again = await authn.authenticate(request('Bearer alice-token'));
    assert.equal(again, u);
    assert.deepEqual(again!.groups, ['dev', 'qa', 'system:authenticated']);
  });

  it('the token map given is not changed', async () => {
    const given = new Map<string, UserInfo>([['t', { name: 'u', uid: '', groups: ['g'] }]]);
    const a = new BearerTokenAuthenticator(given);
    assert.deepEqual((await a.authenticate(request('Bearer t')))!.groups, ['g', 'system:authenticated']);
    assert.deepEqual(given.get('t')!.groups, ['g']);
    assert.ok(!Object.isFrozen(given.get('t')));
  });
});
