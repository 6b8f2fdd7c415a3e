/**
 * TokenRequest as kube's TokenREST reads it: defaults (the server's audiences, one hour), ValidateTokenRequest
 * and its messages, the objects a token may be bound to, and --service-account-max-token-expiration.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, type KubeObject } from '../../api/index.js';
import {
  addressErrors,
  boundResource,
  boundUidConflict,
  cappedExpiration,
  invalidTokenRequest,
  tokenRequestErrors,
  tokenRequestSpec,
} from './token-request.js';

const request = (spec: unknown, metadata: KubeObject['metadata'] = {}): KubeObject => ({
  apiVersion: 'authentication.k8s.io/v1',
  kind: 'TokenRequest',
  metadata,
  spec,
});

describe('tokenRequestSpec', () => {
  it("defaults the audiences to the server's and the lifetime to an hour", () => {
    assert.deepEqual(tokenRequestSpec(request({}), ['https://issuer']), {
      audiences: ['https://issuer'],
      expirationSeconds: 3600,
      boundObjectRef: undefined,
    });
    assert.deepEqual(tokenRequestSpec(request({ audiences: [] }), ['a', 'b']).audiences, ['a', 'b']);
  });

  it('keeps what was asked, an explicit 0 included (a set pointer is not defaulted)', () => {
    const spec = tokenRequestSpec(
      request({
        audiences: ['vault'],
        expirationSeconds: 0,
        boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 's' },
      }),
      ['api'],
    );
    assert.deepEqual(spec, {
      audiences: ['vault'],
      expirationSeconds: 0,
      boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 's', uid: '' },
    });
  });
});

describe('tokenRequestErrors', () => {
  const errorsFor = (expirationSeconds: number) =>
    tokenRequestErrors({ audiences: [], expirationSeconds }).map((e) => e.detail);
  it('accepts 10 minutes to 2^32 seconds', () => {
    assert.deepEqual(errorsFor(600), []);
    assert.deepEqual(errorsFor(2 ** 32), []);
  });
  it("refuses less or more, in kube's words", () => {
    assert.deepEqual(errorsFor(599), ['may not specify a duration less than 10 minutes']);
    assert.deepEqual(errorsFor(2 ** 32 + 1), ['may not specify a duration larger than 2^32 seconds']);
  });
  it('answers 422 naming the group-qualified kind', () => {
    const e = invalidTokenRequest('', tokenRequestErrors({ audiences: [], expirationSeconds: 60 }));
    assert.equal(e.code, 422);
    assert.equal(
      e.message,
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    );
    assert.deepEqual(e.details?.causes, [
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: 60: may not specify a duration less than 10 minutes',
        field: 'spec.expirationSeconds',
      },
    ]);
  });
});

describe('addressErrors', () => {
  it('a body may name the account of the URL, or none', () => {
    assert.deepEqual(addressErrors(request({}), 'ns', 'sa'), []);
    assert.deepEqual(addressErrors(request({}, { name: 'sa', namespace: 'ns' }), 'ns', 'sa'), []);
  });
  it('but not another', () => {
    const errors = addressErrors(request({}, { name: 'other', namespace: 'elsewhere' }), 'ns', 'sa');
    assert.equal(
      invalidTokenRequest('sa', errors).message,
      'TokenRequest.authentication.k8s.io "sa" is invalid: [metadata.name: Invalid value: "other": must match the service account name if specified, metadata.namespace: Invalid value: "elsewhere": must match the service account namespace if specified]',
    );
  });
});

describe('boundResource', () => {
  const ref = (kind: string, apiVersion = 'v1') => ({ kind, apiVersion, name: 'x', uid: '' });
  it('binds to core Secrets, Pods and Nodes', () => {
    assert.equal(boundResource(ref('Secret')), 'secrets');
    assert.equal(boundResource(ref('Pod')), 'pods');
    assert.equal(boundResource(ref('Node', '')), 'nodes');
  });
  it("refuses anything else with 400, naming Go's GroupVersionKind", () => {
    for (const [r, message] of [
      [ref('ConfigMap'), 'cannot bind token to object of type /v1, Kind=ConfigMap'],
      [ref('Secret', 'example.com/v1'), 'cannot bind token to object of type example.com/v1, Kind=Secret'],
    ] as const) {
      assert.throws(
        () => boundResource(r),
        (e: unknown) => e instanceof ApiError && e.code === 400 && e.message === message,
      );
    }
  });
  it('a recreated object is a 409 Conflict on its kind', () => {
    const e = boundUidConflict({ kind: 'Secret', apiVersion: 'v1', name: 's', uid: 'old' });
    assert.equal(e.code, 409);
    assert.equal(
      e.message,
      'Operation cannot be fulfilled on Secret "s": the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated',
    );
  });
});

describe('cappedExpiration', () => {
  it('shortens to the cap with a warning, leaves shorter lifetimes alone, no cap at 0', () => {
    assert.deepEqual(cappedExpiration(7200, 3600), {
      expirationSeconds: 3600,
      warning: 'requested expiration of 7200 seconds shortened to 3600 seconds',
    });
    assert.deepEqual(cappedExpiration(1800, 3600), { expirationSeconds: 1800 });
    assert.deepEqual(cappedExpiration(10 ** 9, 0), { expirationSeconds: 10 ** 9 });
  });
});
