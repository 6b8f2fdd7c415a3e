/** The CRD kind through its strategy: create and update run the right validation once. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError, systemContext } from '../../api/index.js';
import { crdDefinition } from './definition.js';
import { widgetCRD } from './spec-crds.js';

const ctx = systemContext();
const setOfObjects = { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object' } } as const;

describe('crdDefinition', () => {
  const def = crdDefinition();

  it('is the cluster-scoped apiextensions.k8s.io/v1 kind with a status subresource', () => {
    assert.deepEqual(
      [def.group, def.resource, def.scope, def.shortNames, def.categories, def.subresources],
      [
        'apiextensions.k8s.io',
        'customresourcedefinitions',
        'Cluster',
        ['crd', 'crds'],
        ['api-extensions'],
        ['status'],
      ],
    );
  });

  it('create: defaults, then the full validation', () => {
    const crd = widgetCRD((c) => {
      delete c.spec.names!.listKind;
      delete c.spec.conversion;
    });
    def.strategy.defaults!(crd, ctx);
    def.strategy.prepareForCreate!(crd, ctx);
    assert.deepEqual(def.strategy.validate!(crd, ctx), []);
    assert.equal(crd.spec.names!.listKind, 'WidgetList');
  });

  it('update: judged once, against the stored CRD', () => {
    const withSet = widgetCRD((c) => {
      c.spec.versions![0].schema!.openAPIV3Schema!.properties!.spec.properties!.tags =
        structuredClone(setOfObjects);
    });
    const old = { ...structuredClone(withSet), metadata: { ...withSet.metadata, resourceVersion: '5' } };
    const next = structuredClone(old);
    next.spec.versions![0].schema!.openAPIV3Schema!.description = 'changed';
    def.strategy.prepareForUpdate!(next, old, ctx);
    // on update the store runs validateUpdate only
    assert.equal(def.strategy.updateReplacesValidate, true);
    assert.deepEqual(def.strategy.validateUpdate!(next, old, ctx).map(formatFieldError), []);
    // the same schema is refused on create
    assert.equal(def.strategy.validate!(structuredClone(withSet), ctx).length, 1);
  });
});
