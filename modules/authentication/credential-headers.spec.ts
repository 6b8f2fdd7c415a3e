/** After authentication the client's credentials leave the request: Authorization and every proxy header. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CredentialHeaders, type HeaderCarrier } from './credential-headers.js';

/** headers as Node gives them: the raw list, and an object of lower-case names made from it */
const present = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined));

function carrier(pairs: [string, string][]): HeaderCarrier {
  const headers: Record<string, string> = {};
  for (const [name, value] of pairs) headers[name.toLowerCase()] = value;
  return { headers, rawHeaders: pairs.flat() };
}

describe('CredentialHeaders', () => {
  it('removes Authorization, the standard and the configured proxy headers, and keeps the rest', () => {
    const request = carrier([
      ['Authorization', 'Bearer t'],
      ['X-Remote-User', 'bob'],
      ['Accept', 'application/json'],
      ['x-remote-uid', 'u'],
      ['X-REMOTE-GROUP', 'g'],
      ['X-Remote-Extra-Scopes', 'a'],
      ['X-Proxy-User', 'eve'],
      ['Impersonate-User', 'carol'],
      ['x-proxy-extra-k', 'v'],
    ]);
    new CredentialHeaders({
      usernameHeaders: ['X-Proxy-User'],
      uidHeaders: [],
      groupHeaders: [],
      extraHeaderPrefixes: ['X-Proxy-Extra-'],
    }).remove(request);
    assert.deepEqual(present(request.headers), { accept: 'application/json', 'impersonate-user': 'carol' });
    assert.deepEqual(request.rawHeaders, ['Accept', 'application/json', 'Impersonate-User', 'carol']);
  });

  it('without a proxy configured still removes the standard headers', () => {
    const request = {
      headers: { 'x-remote-user': 'bob', host: 'h' },
      rawHeaders: ['X-Remote-User', 'bob', 'Host', 'h'],
    };
    new CredentialHeaders().remove(request);
    assert.deepEqual(present(request.headers), { host: 'h' });
    assert.deepEqual(request.rawHeaders, ['Host', 'h']);
  });
});
