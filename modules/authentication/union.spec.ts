/**
 * The authenticator union: authenticators in order, the first user found wins; a refusal (401) answers only
 * when no authenticator accepted the request; no credential at all is system:anonymous, unless anonymous
 * access is off (401).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { anonymousUser, ApiError, type UserInfo } from '../api/index.js';
import type { AuthenticationRequest, Authenticator } from './authenticator.js';
import { BearerTokenAuthenticator } from './bearer-token.js';
import { AuthenticatorUnion } from './union.js';

const request = (headers: Record<string, string> = {}): AuthenticationRequest => ({
  headers,
  rawHeaders: [],
  peerCertificates: () => undefined,
});

/** An authenticator that answers what it is told and counts how often it was asked. */
class Scripted implements Authenticator {
  calls = 0;
  constructor(private readonly answer: () => UserInfo | undefined) {}
  async authenticate(): Promise<UserInfo | undefined> {
    this.calls++;
    return this.answer();
  }
}

const user = (name: string): UserInfo => ({ name, uid: name, groups: ['system:authenticated'] });
const refuse = () => {
  throw ApiError.unauthorized('bad credential');
};

async function unauthorized(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => assert.fail('expected 401'),
    (err: unknown) => err,
  );
  assert.ok(e instanceof ApiError);
  assert.equal(e.code, 401);
  assert.equal(e.reason, 'Unauthorized');
  return e;
}

describe('AuthenticatorUnion', () => {
  it('the first authenticator that finds a user wins; later ones are not asked', async () => {
    const none = new Scripted(() => undefined);
    const first = new Scripted(() => user('first'));
    const second = new Scripted(() => user('second'));
    const union = new AuthenticatorUnion([none, first, second]);
    assert.equal((await union.authenticate(request())).name, 'first');
    assert.deepEqual([none.calls, first.calls, second.calls], [1, 1, 0]);
  });

  it('a refusal does not answer when a later authenticator accepts', async () => {
    const refusing = new Scripted(refuse);
    const accepting = new Scripted(() => user('later'));
    const union = new AuthenticatorUnion([refusing, accepting]);
    assert.equal((await union.authenticate(request())).name, 'later');
    assert.equal(refusing.calls, 1);
  });

  it('a refusal with no authenticator accepting is the 401 (the first refusal), not anonymous', async () => {
    const union = new AuthenticatorUnion([
      new Scripted(refuse),
      new Scripted(() => {
        throw ApiError.unauthorized('second refusal');
      }),
      new Scripted(() => undefined),
    ]);
    const e = await unauthorized(union.authenticate(request()));
    assert.equal(e.message, 'bad credential');
  });

  it('no credential at all is system:anonymous in system:unauthenticated', async () => {
    const union = new AuthenticatorUnion([new Scripted(() => undefined)]);
    const u = await union.authenticate(request());
    assert.equal(u, anonymousUser);
    assert.deepEqual(u, { name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'] });
  });

  it('anonymous access off: no credential is 401', async () => {
    const union = new AuthenticatorUnion([new Scripted(() => undefined)], false);
    const e = await unauthorized(union.authenticate(request()));
    assert.equal(e.message, 'Unauthorized');
    // a user found still passes
    const on = new AuthenticatorUnion([new Scripted(() => user('u'))], false);
    assert.equal((await on.authenticate(request())).name, 'u');
  });

  it('with the real bearer token authenticator: known token, unknown token, no token', async () => {
    const union = new AuthenticatorUnion([
      new BearerTokenAuthenticator(new Map([['t1', { name: 'alice', uid: '1', groups: [] }]])),
    ]);
    assert.equal((await union.authenticate(request({ authorization: 'Bearer t1' }))).name, 'alice');
    await unauthorized(union.authenticate(request({ authorization: 'Bearer t2' })));
    assert.equal((await union.authenticate(request())).name, 'system:anonymous');
  });
});
