/** kube's defaulting of a CRD and the strategy's create/update preparation. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultCRD, prepareCRDForCreate, prepareCRDForUpdate, semanticEqual } from './defaults.js';
import { widgetCRD } from './spec-crds.js';

describe('defaultCRD', () => {
  it('fills singular, listKind and the None conversion', () => {
    const crd = widgetCRD((c) => {
      c.spec.names = { plural: 'widgets', kind: 'Widget' };
      delete c.spec.conversion;
    });
    defaultCRD(crd);
    assert.deepEqual(crd.spec.names, {
      plural: 'widgets',
      kind: 'Widget',
      singular: 'widget',
      listKind: 'WidgetList',
    });
    assert.deepEqual(crd.spec.conversion, { strategy: 'None' });
  });

  it('keeps what is set, and defaults a webhook service port to 443', () => {
    const crd = widgetCRD((c) => {
      c.spec.names!.singular = 'wdg';
      c.spec.conversion = {
        strategy: 'Webhook',
        webhook: {
          clientConfig: { service: { name: 's', namespace: 'n' } },
          conversionReviewVersions: ['v1'],
        },
      };
    });
    defaultCRD(crd);
    assert.equal(crd.spec.names!.singular, 'wdg');
    assert.equal(crd.spec.conversion!.webhook!.clientConfig!.service!.port, 443);
  });

  it('no listKind without a kind', () => {
    const crd = widgetCRD((c) => {
      c.spec.names = { plural: 'widgets' };
    });
    defaultCRD(crd);
    assert.deepEqual(crd.spec.names, { plural: 'widgets' });
  });
});

describe('create and update preparation', () => {
  it('create: status cleared, storage version stored, generation 1', () => {
    const crd = widgetCRD((c) => {
      c.status = { acceptedNames: { plural: 'x' }, storedVersions: ['v0'] };
      c.metadata.generation = 7;
    });
    prepareCRDForCreate(crd);
    assert.deepEqual(crd.status, { storedVersions: ['v1'] });
    assert.equal(crd.metadata.generation, 1);
  });

  it('update: status kept, a new storage version added, generation on spec change only', () => {
    const old = widgetCRD((c) => {
      c.metadata.generation = 3;
      c.status = { storedVersions: ['v1'], conditions: [{ type: 'Established', status: 'True' }] };
    });
    const same = widgetCRD((c) => {
      c.status = {};
    });
    prepareCRDForUpdate(same, old);
    assert.equal(same.metadata.generation, 3);
    assert.deepEqual(same.status, old.status);

    const changed = widgetCRD((c) => {
      c.spec.versions![0].storage = false;
      c.spec.versions!.push({ ...structuredClone(c.spec.versions![0]), name: 'v2', storage: true });
    });
    prepareCRDForUpdate(changed, old);
    assert.equal(changed.metadata.generation, 4);
    assert.deepEqual(changed.status!.storedVersions, ['v1', 'v2']);
  });

  it('semantic equality: an absent list equals an empty one, not an empty object', () => {
    assert.ok(semanticEqual({ a: [] }, {}));
    assert.ok(!semanticEqual({ a: {} }, {}));
    assert.ok(!semanticEqual({ a: 1 }, { a: 2 }));
  });
});
