/** OpenAPI read from a live Registry: the index and documents follow each change, with per-version schemas. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry, type ResourceDefinition } from '../registry/index.js';
import { cronTabs, namespaces } from '../../test/support/definitions.js';
import { openApiV2Document } from './v2.js';
import { openApiV3Document, openApiV3Index } from './v3.js';

const KIND = (version: string) => `com.example.stable.${version}.CronTab`;

/** v1beta1 has a schema of its own (spec.legacy) and no scale subresource */
const perVersion: ResourceDefinition = {
  ...cronTabs,
  perVersion: {
    v1beta1: {
      schema: {
        type: 'object',
        properties: {
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          metadata: { type: 'object' },
          spec: { type: 'object', properties: { legacy: { type: 'string' } } },
        },
      },
      subresources: ['status'],
    },
  },
};

const doc = (r: Registry, key: string) => JSON.parse(openApiV3Document(r.definitions, key) ?? 'null');

describe('OpenAPI following the registry', () => {
  it('lists a kind registered at run time, and forgets it once unregistered', () => {
    const r = new Registry();
    r.register(namespaces);
    const before = openApiV3Index(r.definitions).paths;
    assert.equal(before['apis/stable.example.com/v1'], undefined);

    r.register(cronTabs);
    const during = openApiV3Index(r.definitions).paths;
    assert.ok(during['apis/stable.example.com/v1']);
    assert.ok(doc(r, 'apis/stable.example.com/v1').components.schemas[KIND('v1')]);

    r.unregister('stable.example.com', 'crontabs');
    assert.deepEqual(openApiV3Index(r.definitions).paths, before);
    assert.equal(openApiV3Document(r.definitions, 'apis/stable.example.com/v1'), undefined);
  });

  it('describes each version with its own schema and subresources, in v3 and v2', () => {
    const r = new Registry();
    r.register(perVersion);
    const spec = (d: any, version: string) => Object.keys(d[KIND(version)].properties.spec.properties);
    const v1 = doc(r, 'apis/stable.example.com/v1');
    const beta = doc(r, 'apis/stable.example.com/v1beta1');
    assert.ok(spec(v1.components.schemas, 'v1').includes('cronSpec'));
    assert.deepEqual(spec(beta.components.schemas, 'v1beta1'), ['legacy']);
    const item = '/apis/stable.example.com/VERSION/namespaces/{namespace}/crontabs/{name}';
    assert.ok(v1.paths[`${item.replace('VERSION', 'v1')}/scale`]);
    assert.equal(beta.paths[`${item.replace('VERSION', 'v1beta1')}/scale`], undefined);
    assert.ok(beta.paths[`${item.replace('VERSION', 'v1beta1')}/status`]);

    const v2 = openApiV2Document(r.definitions).doc as any;
    assert.deepEqual(spec(v2.definitions, 'v1beta1'), ['legacy']);
    assert.ok(spec(v2.definitions, 'v1').includes('cronSpec'));
  });
});
