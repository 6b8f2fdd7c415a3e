/**
 * A CRD with conversion Webhook: v1 stores spec.angle, v2 spec.rotation.degrees. Objects are stored in v1 and
 * every read, list, write and watch in v2 goes through the webhook (a list in one review); the webhook's
 * failures and broken answers are kube's 500s.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from './support/eventually.js';
import { startTokenWebhook, type TokenWebhook, type WebhookAnswer } from './support/token-webhook.js';
import { useServer } from './support/use-server.js';
import { openWatch } from './support/watch-client.js';

const group = 'convert.pgkube.io';
const dials = (v: string) => `/apis/${group}/${v}/namespaces/default/knobs`;

/** v1 {angle} ⇄ v2 {rotation: {degrees}}; `mode` breaks it on purpose */
let mode: 'ok' | 'fail' | 'rename' | 'down' = 'ok';
function convert(review: any): WebhookAnswer {
  if (mode === 'down') return { code: 503 };
  const { uid, desiredAPIVersion, objects } = review.request;
  if (mode === 'fail') {
    return {
      body: { ...review, response: { uid, result: { status: 'Failure', message: 'knobs do not turn' } } },
    };
  }
  const convertedObjects = objects.map((o: any) => {
    const out = { ...o, apiVersion: desiredAPIVersion, spec: {} as any };
    if (desiredAPIVersion.endsWith('/v2')) out.spec.rotation = { degrees: o.spec?.angle ?? 0 };
    else out.spec.angle = o.spec?.rotation?.degrees ?? 0;
    if (mode === 'rename') out.metadata = { ...o.metadata, name: `${o.metadata.name}-x` };
    return out;
  });
  return { body: { ...review, response: { uid, convertedObjects, result: { status: 'Success' } } } };
}

describe('CRD conversion Webhook', () => {
  let webhook: TokenWebhook;
  before(async () => {
    webhook = await startTokenWebhook(convert);
  });
  after(async () => {
    await webhook?.close();
  });
  const s = useServer();

  const schema = (spec: object) => ({
    openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: spec } } },
  });

  it('serves both versions once Established', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `knobs.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural: 'knobs', singular: 'knob', kind: 'Knob' },
        versions: [
          { name: 'v1', served: true, storage: true, schema: schema({ angle: { type: 'integer' } }) },
          {
            name: 'v2',
            served: true,
            storage: false,
            schema: schema({
              rotation: { type: 'object', properties: { degrees: { type: 'integer' } } },
            }),
          },
        ],
        conversion: {
          strategy: 'Webhook',
          webhook: {
            conversionReviewVersions: ['v1'],
            clientConfig: { url: webhook.url, caBundle: Buffer.from(webhook.ca).toString('base64') },
          },
        },
      },
    };
    const created = await s.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      body: crd,
    });
    assert.equal(created.status, 201, JSON.stringify(created.json));
    await eventually(async () => (await s.request('GET', dials('v2'))).status === 200, 'served');
  });

  it('writes and reads in v2 through the webhook, stored in v1', async () => {
    const made = await s.request('POST', dials('v2'), {
      body: {
        apiVersion: `${group}/v2`,
        kind: 'Knob',
        metadata: { name: 'k1' },
        spec: { rotation: { degrees: 90 } },
      },
    });
    assert.equal(made.status, 201, JSON.stringify(made.json));
    assert.deepEqual(made.json.spec, { rotation: { degrees: 90 } });
    const review = webhook.calls.at(-1)!.review;
    assert.equal(review.apiVersion, 'apiextensions.k8s.io/v1');
    assert.equal(review.kind, 'ConversionReview');
    const asV1 = (await s.request('GET', `${dials('v1')}/k1`)).json;
    assert.deepEqual(asV1.spec, { angle: 90 }, 'stored in v1');
    assert.deepEqual((await s.request('GET', `${dials('v2')}/k1`)).json.spec, { rotation: { degrees: 90 } });
    await s.request('POST', dials('v1'), {
      body: { apiVersion: `${group}/v1`, kind: 'Knob', metadata: { name: 'k2' }, spec: { angle: 10 } },
    });
    const before = webhook.calls.length;
    const list = (await s.request('GET', dials('v2'))).json;
    assert.deepEqual(
      list.items.map((i: any) => [i.apiVersion, i.spec.rotation.degrees]),
      [
        [`${group}/v2`, 90],
        [`${group}/v2`, 10],
      ],
    );
    assert.equal(webhook.calls.length, before + 1, 'one review for the list');
    assert.equal(webhook.calls.at(-1)!.review.request.objects.length, 2);
  });

  it('watches in v2 get converted events', async () => {
    const w = await openWatch(s, `${dials('v2')}?watch=true&resourceVersion=0`);
    try {
      await s.request('POST', dials('v1'), {
        body: { apiVersion: `${group}/v1`, kind: 'Knob', metadata: { name: 'k3' }, spec: { angle: 45 } },
      });
      await eventually(() => w.events.some((e) => e.object.metadata?.name === 'k3'), 'k3 watched');
      const k3 = w.events.find((e) => e.object.metadata?.name === 'k3')!;
      assert.equal(k3.object.apiVersion, `${group}/v2`);
      assert.deepEqual(k3.object.spec, { rotation: { degrees: 45 } });
    } finally {
      w.close();
    }
  });

  it("answers kube's 500 when the webhook fails, is down or breaks the rules", async () => {
    const get = () => s.request('GET', `${dials('v2')}/k1`);
    mode = 'fail';
    let r = await get();
    assert.equal(r.status, 500);
    assert.equal(r.json.reason, 'InternalError');
    assert.match(
      r.json.message,
      new RegExp(`conversion webhook for ${group}/v1, Kind=Knob failed: knobs do not turn`),
    );
    mode = 'rename';
    r = await get();
    assert.equal(r.status, 500);
    assert.match(r.json.message, /invalid converted object at index 0: must not change metadata.name/);
    mode = 'down';
    r = await get();
    assert.equal(r.status, 500);
    assert.match(r.json.message, /conversion webhook for .* failed: the webhook answered 503/);
    mode = 'ok';
    assert.equal((await get()).status, 200);
  });
});
