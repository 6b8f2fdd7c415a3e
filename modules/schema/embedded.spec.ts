import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, type Schema } from '../api/index.js';
import { validateEmbeddedResources } from './embedded.js';

const schema: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
        manifests: {
          type: 'array',
          items: {
            type: 'object',
            'x-kubernetes-embedded-resource': true,
            'x-kubernetes-preserve-unknown-fields': true,
          },
        },
      },
    },
  },
};
const check = (template: unknown): string[] =>
  validateEmbeddedResources(schema, { spec: { template } }).map(formatFieldError);

describe('validateEmbeddedResources', () => {
  it('accepts a well-formed resource', () => {
    assert.deepEqual(
      check({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', labels: { a: 'b' } } }),
      [],
    );
    assert.deepEqual(check({ apiVersion: 'apps/v1', kind: 'Deployment' }), []);
  });

  it('requires apiVersion and kind', () => {
    assert.deepEqual(check({}), [
      'spec.template.apiVersion: Required value: must not be empty',
      'spec.template.kind: Required value: must not be empty',
    ]);
  });

  it('checks their form', () => {
    assert.deepEqual(check({ apiVersion: 1, kind: '' }), [
      'spec.template.apiVersion: Invalid value: 1: must be a string',
      'spec.template.kind: Invalid value: "": must not be empty',
    ]);
    assert.deepEqual(check({ apiVersion: 'a/b/c', kind: 'Pod' }), [
      'spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
    ]);
    const [kindErr] = check({ apiVersion: 'v1', kind: 'My_Kind' });
    assert.match(
      kindErr,
      /^spec\.template\.kind: Invalid value: "My_Kind": may have mixed case, but should otherwise match: a DNS-1035 label/,
    );
  });

  it("decodes metadata as an ObjectMeta, with Go's error for a wrong type", () => {
    assert.deepEqual(check({ apiVersion: 'v1', kind: 'Pod', metadata: { labels: 'x' } }), [
      'spec.template.metadata: Invalid value: map[string]interface {}{"labels":"x"}: json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string',
    ]);
  });

  it('validates metadata as object metadata, names as path segments', () => {
    assert.deepEqual(
      check({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a/b', labels: { 'bad key!': 'x' } } }).map(
        (m) => m.split(':')[0],
      ),
      ['spec.template.metadata.name', 'spec.template.metadata.labels'],
    );
  });

  it('finds embedded resources in lists', () => {
    const errs = validateEmbeddedResources(schema, {
      spec: { manifests: [{ apiVersion: 'v1', kind: 'A' }, { kind: 'B' }] },
    });
    assert.deepEqual(errs.map(formatFieldError), [
      'spec.manifests[1].apiVersion: Required value: must not be empty',
    ]);
  });

  it('leaves the resource root to the generic validation unless asked', () => {
    assert.deepEqual(validateEmbeddedResources(schema, {}), []);
    assert.equal(validateEmbeddedResources(schema, {}, '', true).length, 2);
  });
});
