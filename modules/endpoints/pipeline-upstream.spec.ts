/**
 * The pipeline's upstream step (sidecar mode), with stub steps around it: a request the sidecar does not serve
 * is forwarded before authentication with the caller's credentials, or after authentication and impersonation
 * as the user found; a local one goes the whole way; a forwarding failure leaves as a Status.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { ApiError, type UserInfo } from '../api/index.js';
import { Pipeline, type PipelineSteps, type UpstreamForwarding } from './pipeline.js';

function harness(forwardsAs: 'caller' | 'user', fail = false) {
  const calls: string[] = [];
  const alice: UserInfo = { name: 'alice', uid: '', groups: ['devs'] };
  const upstream: UpstreamForwarding = {
    servesLocally: (info) => info.group === 'widgets.example.com' || info.path === '/apis',
    forwardsAs: () => forwardsAs,
    forward: async (_req, reply, user) => {
      calls.push(`forward ${user?.name ?? 'as caller'}`);
      if (fail) throw new ApiError(503, 'ServiceUnavailable', 'service unavailable');
      await reply.code(200).send('upstream');
    },
    upgrade: async () => undefined,
  };
  const steps = {
    authenticator: {
      authenticate: async () => {
        calls.push('authenticate');
        return alice;
      },
    },
    impersonation: {
      actAs: async (u: UserInfo) => {
        calls.push('impersonate');
        return u;
      },
    },
    authorizer: {
      decide: async () => {
        calls.push('authorize');
        return { decision: 'allow' };
      },
      enforce: () => undefined,
    },
    registry: { find: () => undefined },
    resources: { handle: async () => undefined },
    nonResources: {
      handle: async (_i: unknown, _r: unknown, reply: { send: (b: string) => unknown }) => {
        calls.push('local');
        return reply.send('local');
      },
    },
    deprecatedApis: {},
    upstream,
    log: () => undefined,
  } as unknown as PipelineSteps;
  const pipeline = new Pipeline(steps);
  const app = Fastify();
  app.all('/*', (req, reply) => pipeline.handle(req, reply));
  return { app, calls, pipeline };
}

describe('pipeline: the upstream step', () => {
  it('a request for the upstream goes before authentication, as the caller sent it', async () => {
    const { app, calls } = harness('caller');
    const r = await app.inject({
      url: '/api/v1/namespaces/default/configmaps',
      headers: { authorization: 'Bearer t' },
    });
    assert.equal(r.body, 'upstream');
    assert.deepEqual(calls, ['forward as caller']);
  });

  it('a client-certificate caller is authenticated and impersonated first, never authorized here', async () => {
    const { app, calls } = harness('user');
    await app.inject({ url: '/apis/apps/v1/deployments' });
    assert.deepEqual(calls, ['authenticate', 'impersonate', 'forward alice']);
  });

  it('its own groups and the merged discovery go the whole way', async () => {
    const { app, calls } = harness('caller');
    await app.inject({ url: '/apis' });
    assert.deepEqual(calls, ['authenticate', 'impersonate', 'authorize', 'local']);
  });

  it('an upstream that cannot be reached is a 503 Status; forwarded bodies stay unread', async () => {
    const { app, pipeline } = harness('caller', true);
    const r = await app.inject({ url: '/api/v1/namespaces/default/configmaps' });
    assert.equal(r.statusCode, 503);
    assert.equal(JSON.parse(r.body).reason, 'ServiceUnavailable');
    assert.equal(pipeline.streamsBody('POST', '/api/v1/namespaces/default/configmaps'), true);
    assert.equal(pipeline.streamsBody('POST', '/apis/widgets.example.com/v1/namespaces/d/widgets'), false);
  });
});
