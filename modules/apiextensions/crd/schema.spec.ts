/** The CRD kind's own schema: it reads every field a CRD may hold, including recursive schemas. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeObject } from '../../schema/index.js';
import { crdPrinterColumns, crdSchema, jsonSchemaPropsSchema } from './schema.js';
import { featureSchema, widgetCRD } from './spec-crds.js';

describe('crdSchema', () => {
  it('JSONSchemaProps contains itself', () => {
    const p = jsonSchemaPropsSchema.properties!;
    assert.equal(p.properties.additionalProperties, jsonSchemaPropsSchema);
    assert.equal(p.not, jsonSchemaPropsSchema);
    assert.equal(p.allOf.items, jsonSchemaPropsSchema);
    const versions = crdSchema.properties!.spec.properties!.versions;
    assert.equal(versions.items!.properties!.schema.properties!.openAPIV3Schema, jsonSchemaPropsSchema);
  });

  it('decodes a CRD with every schema feature and no unknown fields', () => {
    const crd = widgetCRD((c) => {
      c.spec.versions![0].schema = { openAPIV3Schema: featureSchema() };
      c.spec.versions![0].selectableFields = [{ jsonPath: '.spec.mode' }];
      c.spec.conversion = {
        strategy: 'Webhook',
        webhook: {
          clientConfig: { service: { name: 's', namespace: 'n', path: '/c', port: 443 }, caBundle: 'Zm9v' },
          conversionReviewVersions: ['v1'],
        },
      };
      c.status = {
        storedVersions: ['v1'],
        acceptedNames: { plural: 'widgets', kind: 'Widget' },
        conditions: [
          {
            type: 'Established',
            status: 'True',
            lastTransitionTime: '2026-01-01T00:00:00Z',
            reason: 'InitialNamesAccepted',
            message: 'ok',
          },
        ],
      };
    });
    const { object, unknownFields } = decodeObject(structuredClone(crd), crdSchema, {
      kind: 'CustomResourceDefinition',
    });
    assert.deepEqual(unknownFields, []);
    assert.deepEqual(object, crd);
  });

  it('keeps free-form values and what kube refuses later ($ref, items as a list)', () => {
    const schema = {
      type: 'object',
      $ref: '#/x',
      default: { a: [1, { b: null }] },
      enum: [1, 'a', { c: true }],
      example: 'x',
      items: [{ type: 'string' }],
      additionalProperties: false,
    };
    const crd = widgetCRD((c) => {
      c.spec.versions![0].schema = { openAPIV3Schema: schema as never };
    });
    const { object, unknownFields } = decodeObject(structuredClone(crd), crdSchema, {
      kind: 'CustomResourceDefinition',
    });
    assert.deepEqual(unknownFields, []);
    assert.deepEqual(object, crd);
  });

  it('drops fields JSONSchemaProps does not have', () => {
    const crd = widgetCRD((c) => {
      (c.spec.versions![0].schema!.openAPIV3Schema as Record<string, unknown>)['x-kubernetes-unknown'] = true;
    });
    const { unknownFields } = decodeObject(crd, crdSchema, { kind: 'CustomResourceDefinition' });
    assert.deepEqual(unknownFields, ['spec.versions[0].schema.openAPIV3Schema.x-kubernetes-unknown']);
  });

  it('columns are NAME and CREATED AT', () => {
    assert.deepEqual(
      crdPrinterColumns.map((c) => c.name),
      ['Name', 'Created At'],
    );
    assert.equal(
      crdPrinterColumns[1].cell!({ metadata: { creationTimestamp: '2026-01-01T00:00:00Z' } }, 0),
      '2026-01-01T00:00:00Z',
    );
  });
});
