/**
 * The bootstrap token authenticator: only bearer tokens shaped `<id>.<secret>` are its own; for those, the
 * Secret `kube-system/bootstrap-token-<id>` decides between the user and a 401.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, type KubeObject } from '../api/index.js';
import type { AuthenticationRequest } from './authenticator.js';
import { BootstrapTokenAuthenticator } from './bootstrap-token.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const secret: KubeObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'bootstrap-token-abcdef', namespace: 'kube-system' },
  type: 'bootstrap.kubernetes.io/token',
  data: {
    'token-id': b64('abcdef'),
    'token-secret': b64('0123456789abcdef'),
    'usage-bootstrap-authentication': b64('true'),
  },
};

const asked: string[] = [];
const authenticator = new BootstrapTokenAuthenticator((ns, name) => {
  asked.push(`${ns}/${name}`);
  return ns === 'kube-system' && name === 'bootstrap-token-abcdef' ? secret : undefined;
});
const request = (authorization?: string): AuthenticationRequest => ({
  headers: authorization ? { authorization } : {},
  rawHeaders: [],
  peerCertificates: () => undefined,
});

describe('BootstrapTokenAuthenticator', () => {
  it('authenticates a token its Secret allows', async () => {
    const user = await authenticator.authenticate(request('Bearer abcdef.0123456789abcdef'));
    assert.equal(user?.name, 'system:bootstrap:abcdef');
    assert.deepEqual(user?.groups, ['system:bootstrappers', 'system:authenticated']);
  });

  it('leaves requests without a bootstrap-shaped bearer token to the others, without a lookup', async () => {
    asked.length = 0;
    for (const header of [
      undefined,
      'Bearer some-other-token',
      'Bearer ABCDEF.0123456789abcdef',
      'Bearer abcdef.0123456789abcde',
      'Bearer abcdef.0123456789abcdef0',
      'Bearer abcdef:0123456789abcdef',
      'Bearer abcdefg.0123456789abcdef',
    ]) {
      assert.equal(await authenticator.authenticate(request(header)), undefined, header);
    }
    assert.deepEqual(asked, []);
  });

  it('answers 401 for a bootstrap-shaped token its Secret does not allow, naming no token', async () => {
    for (const token of ['abcdef.fedcba9876543210', 'zzzzzz.0123456789abcdef']) {
      const e = await authenticator.authenticate(request(`Bearer ${token}`)).then(
        () => assert.fail('expected 401'),
        (err: unknown) => err,
      );
      assert.ok(e instanceof ApiError);
      assert.equal(e.code, 401);
      assert.ok(!JSON.stringify(e.toStatus()).includes(token.slice(7)));
    }
  });
});
