/**
 * NamespaceLifecycle with the host as its namespace source (a delegating server): a create in a namespace the
 * host does not have is 404, in one it is deleting 403, both in kube's words; an active namespace is
 * remembered a few seconds, a missing one is asked again. The host is a real HTTP server on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { hostApi, type HostApi } from '../../test/support/host-api.js';
import { ApiError, parseRequestInfo, requestContext } from '../api/index.js';
import { configMapDefinition } from '../kinds/index.js';
import type { AdmissionAttributes } from '../registry/index.js';
import type { Store } from '../storage/index.js';
import { WebhookTransport } from '../webhook/index.js';
import { NamespaceLifecycle } from './namespace-lifecycle.js';
import { HostNamespaces } from './namespace-source.js';

function create(namespace: string, dryRun = false): AdmissionAttributes {
  const info = parseRequestInfo('POST', `/api/v1/namespaces/${namespace}/configmaps`, {});
  const ctx = requestContext(info, { name: 'u', uid: '', groups: [] });
  if (dryRun) ctx.dryRun = true;
  return {
    operation: 'CREATE',
    def: configMapDefinition,
    namespace,
    name: 'cm',
    subresource: '',
    object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace } },
    ctx,
  };
}

const namespace = (name: string, deleting = false) => ({
  body: {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    status: { phase: deleting ? 'Terminating' : 'Active' },
  },
});

describe('NamespaceLifecycle with the host’s namespaces', () => {
  let host: HostApi;
  let now = 0;
  // the host is asked, never the local store: there is none (a call would throw)
  const noStore = undefined as unknown as Store;
  const plugin = () =>
    new NamespaceLifecycle(
      noStore,
      new HostNamespaces(new WebhookTransport(host.connection, 2000), { now: () => now }),
    );
  const refusal = async (p: void | Promise<void>) => {
    try {
      await p;
    } catch (e) {
      return e as ApiError;
    }
    return undefined;
  };

  before(async () => {
    host = await hostApi();
  });
  after(() => host.close());
  beforeEach(() => {
    host.routes.clear();
    host.calls.length = 0;
    now = 1_000_000;
  });

  it('an active namespace admits the create (dry run too) and is remembered 5 s', async () => {
    host.routes.set('GET /api/v1/namespaces/team', namespace('team'));
    const p = plugin();
    const a = create('team');
    assert.equal(await refusal(p.validate(a)), undefined);
    assert.equal(a.requires, undefined, 'no local storage requirement');
    assert.equal(await refusal(p.validate(create('team', true))), undefined);
    assert.equal(host.calls.length, 1);
    assert.equal(host.calls[0].authorization, 'Bearer host-token');
    now += 5_001;
    await p.validate(create('team'));
    assert.equal(host.calls.length, 2);
  });

  it("a missing namespace is 404 in kube's words, asked again each time", async () => {
    const p = plugin();
    const e = await refusal(p.validate(create('nope')));
    assert.equal(e?.code, 404);
    assert.equal(e?.message, 'namespaces "nope" not found');
    host.routes.set('GET /api/v1/namespaces/nope', namespace('nope'));
    assert.equal(await refusal(p.validate(create('nope'))), undefined);
  });

  it("a terminating namespace is 403 in kube's words", async () => {
    host.routes.set('GET /api/v1/namespaces/old', namespace('old', true));
    const e = await refusal(plugin().validate(create('old')));
    assert.equal(e?.code, 403);
    assert.equal(
      e?.message,
      'configmaps "cm" is forbidden: unable to create new content in namespace old because it is being terminated',
    );
    assert.equal(e?.toStatus().details?.causes?.[0].reason, 'NamespaceTerminating');
  });

  it('a host that cannot answer is an internal error naming why, not a refusal of the namespace', async () => {
    host.routes.set('GET /api/v1/namespaces/team', {
      code: 403,
      body: { kind: 'Status', message: 'namespaces "team" is forbidden: User "b" cannot get' },
    });
    const e = await refusal(plugin().validate(create('team')));
    assert.equal(e?.code, 500);
    assert.match(
      e!.message,
      /the host could not tell whether namespace team exists: namespaces "team" is forbidden/,
    );
  });
});
