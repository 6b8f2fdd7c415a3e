/**
 * The authenticator union: authenticators in order, the first user found wins; a refusal (401) answers only
 * when no authenticator accepted the request; no credential at all is system:anonymous, unless anonymous
 * access is off (401).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { anonymousUser, ApiError, type UserInfo } from '../api/index.js';
import {
  CredentialRefused,
  type Authenticated,
  type AuthenticationRequest,
  type Authenticator,
} from './authenticator.js';
import { BearerTokenAuthenticator } from './bearer-token.js';
import { AuthenticatorUnion } from './union.js';

const request = (headers: Record<string, string> = {}, path?: string): AuthenticationRequest => ({
  headers,
  rawHeaders: [],
  peerCertificates: () => undefined,
  path,
});

/** An authenticator that answers what it is told, counts how often it was asked and keeps the last request. */
class Scripted implements Authenticator {
  calls = 0;
  last?: AuthenticationRequest;
  constructor(private readonly answer: (r: AuthenticationRequest) => Authenticated | undefined) {}
  async authenticate(r: AuthenticationRequest): Promise<Authenticated | undefined> {
    this.calls++;
    this.last = r;
    return this.answer(r);
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

  it('every user found is in system:authenticated (kube adds it), except those that say otherwise', async () => {
    const bare: UserInfo = { name: 'bare', uid: '', groups: ['dev'] };
    const u = await new AuthenticatorUnion([new Scripted(() => bare)]).authenticate(request());
    assert.deepEqual(u.groups, ['dev', 'system:authenticated']);
    assert.deepEqual(bare.groups, ['dev'], "the authenticator's user is not changed");
    const already = user('a');
    assert.equal(
      await new AuthenticatorUnion([new Scripted(() => already)]).authenticate(request()),
      already,
    );
    const unauth: UserInfo = { name: 'x', uid: '', groups: ['system:unauthenticated'] };
    const same = await new AuthenticatorUnion([new Scripted(() => unauth)]).authenticate(request());
    assert.deepEqual(same.groups, ['system:unauthenticated']);
  });

  it("the audiences an authenticator reports are not part of the request's user", async () => {
    const union = new AuthenticatorUnion([new Scripted(() => ({ ...user('w'), audiences: ['api'] }))]);
    assert.deepEqual(await union.authenticate(request()), user('w'));
  });

  it("--api-audiences reach every authenticator as the request's audiences", async () => {
    const seen = new Scripted(() => user('a'));
    await new AuthenticatorUnion([seen], { apiAudiences: ['https://api'] }).authenticate(request());
    assert.deepEqual(seen.last?.audiences, ['https://api']);
    const none = new Scripted(() => user('a'));
    await new AuthenticatorUnion([none]).authenticate(request());
    assert.equal(none.last?.audiences, undefined);
  });

  it('anonymous limited to paths: only an exact path match is anonymous, others 401', async () => {
    const union = new AuthenticatorUnion([new Scripted(() => undefined)], {
      anonymous: { enabled: true, paths: ['/livez', '/readyz'] },
    });
    assert.equal((await union.authenticate(request({}, '/livez'))).name, 'system:anonymous');
    await unauthorized(union.authenticate(request({}, '/livez/ping')));
    await unauthorized(union.authenticate(request({}, '/version')));
    await unauthorized(union.authenticate(request({})));
    // no conditions: everywhere
    const everywhere = new AuthenticatorUnion([], { anonymous: { enabled: true, paths: [] } });
    assert.equal((await everywhere.authenticate(request({}, '/version'))).name, 'system:anonymous');
    const off = new AuthenticatorUnion([], { anonymous: { enabled: false } });
    await unauthorized(off.authenticate(request({}, '/livez')));
  });
});

describe('AuthenticatorUnion.reviewToken (TokenReview)', () => {
  const alice: UserInfo = { name: 'alice', uid: 'u1', groups: ['dev'], extra: { k: ['v'] } };
  const tokens = () => new BearerTokenAuthenticator(new Map([['t1', alice]]));

  it('asks with nothing but the token and never answers anonymous', async () => {
    const seen = new Scripted(() => undefined);
    const union = new AuthenticatorUnion([seen], { anonymous: true });
    const answer = await union.reviewToken('tok');
    assert.deepEqual(seen.last?.headers, { authorization: 'Bearer tok' });
    assert.equal(seen.last?.peerCertificates(), undefined);
    assert.equal(answer.user, undefined);
    assert.equal(answer.error, 'invalid bearer token');
  });

  it('a known token: the user with system:authenticated, no audiences when none are asked or configured', async () => {
    const answer = await new AuthenticatorUnion([tokens()]).reviewToken('t1');
    assert.deepEqual(answer.user, { ...alice, groups: ['dev', 'system:authenticated'] });
    assert.equal(answer.audiences, undefined);
    assert.equal(answer.error, '');
  });

  it('refusals are aggregated as kube does: one as it is, several in brackets without repeats', async () => {
    const no = (why: string) =>
      new Scripted(() => {
        throw new CredentialRefused(why);
      });
    assert.equal((await new AuthenticatorUnion([no('a')]).reviewToken('x')).error, 'a');
    assert.equal(
      (await new AuthenticatorUnion([no('a'), no('b'), no('a')]).reviewToken('x')).error,
      '[a, b]',
    );
    const plain = new Scripted(() => {
      throw ApiError.unauthorized();
    });
    assert.equal((await new AuthenticatorUnion([plain]).reviewToken('x')).error, 'Unauthorized');
  });

  it("audience-agnostic authenticators count only for the API's own audiences", async () => {
    const union = new AuthenticatorUnion([tokens()], { apiAudiences: ['api', 'other'] });
    const byDefault = await union.reviewToken('t1');
    assert.deepEqual(byDefault.wanted, ['api', 'other']);
    assert.deepEqual(byDefault.audiences, ['api', 'other']);
    assert.deepEqual((await union.reviewToken('t1', ['other', 'foreign'])).audiences, ['other']);
    const foreign = await union.reviewToken('t1', ['foreign']);
    assert.equal(foreign.user, undefined);
    assert.equal(foreign.error, 'invalid bearer token');
    // without API audiences, any audience asked about is foreign to them
    assert.equal((await new AuthenticatorUnion([tokens()]).reviewToken('t1', ['x'])).user, undefined);
  });

  it('an audience-aware authenticator says which audiences the token is good for', async () => {
    const aware = new Scripted((r) => ({ ...user('w'), audiences: r.audiences?.slice(0, 1) ?? [] }));
    const answer = await new AuthenticatorUnion([aware]).reviewToken('tok', ['a', 'b']);
    assert.deepEqual(aware.last?.audiences, ['a', 'b']);
    assert.deepEqual(answer.audiences, ['a']);
    assert.deepEqual(answer.user, user('w'));
  });
});
