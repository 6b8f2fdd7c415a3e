/** After authentication the client's credentials leave the request: Authorization and every proxy header. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CredentialHeaders } from './credential-headers.js';

describe('CredentialHeaders', () => {
  it('removes Authorization, the standard and the configured proxy headers, and keeps the rest', () => {
    const request = {
      headers: {
        authorization: 'Bearer t',
        'x-remote-user': 'bob',
        'x-remote-uid': 'u',
        'x-remote-group': 'g',
        'x-remote-extra-scopes': 'a',
        'x-proxy-user': 'eve',
        'x-proxy-extra-k': 'v',
        'impersonate-user': 'carol',
        accept: 'application/json',
      },
      rawHeaders: [
        'Authorization',
        'Bearer t',
        'X-Remote-User',
        'bob',
        'Accept',
        'application/json',
        'X-Remote-Extra-Scopes',
        'a',
        'X-Proxy-User',
        'eve',
        'Impersonate-User',
        'carol',
        'x-proxy-extra-k',
        'v',
      ],
    };
    new CredentialHeaders({
      usernameHeaders: ['X-Proxy-User'],
      uidHeaders: [],
      groupHeaders: [],
      extraHeaderPrefixes: ['X-Proxy-Extra-'],
    }).remove(request);
    assert.deepEqual(request.headers, { 'impersonate-user': 'carol', accept: 'application/json' });
    assert.deepEqual(request.rawHeaders, ['Accept', 'application/json', 'Impersonate-User', 'carol']);
  });

  it('without a proxy configured still removes the standard headers', () => {
    const request = {
      headers: { 'x-remote-user': 'bob', host: 'h' },
      rawHeaders: ['X-Remote-User', 'bob', 'Host', 'h'],
    };
    new CredentialHeaders().remove(request);
    assert.deepEqual(request.headers, { host: 'h' });
    assert.deepEqual(request.rawHeaders, ['Host', 'h']);
  });
});
