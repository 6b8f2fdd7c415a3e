import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allTestDefinitions } from '../../test/support/definitions.js';
import {
  collectKeys,
  collectRefs,
  patchSupportsParam,
  schemaForKind,
} from '../../test/support/openapi-walk.js';
import { openApiV2, openApiV2Document, openApiV2Response } from './v2.js';

type Doc = Record<string, any>;
const defs = allTestDefinitions();
const doc: Doc = JSON.parse(openApiV2(defs));
const definitions = doc.definitions as Record<string, Doc>;

describe('/openapi/v2', () => {
  it('is one Swagger 2.0 document for every group-version', () => {
    assert.equal(doc.swagger, '2.0');
    assert.deepEqual(doc.security, [{ BearerToken: [] }]);
    for (const path of [
      '/api/',
      '/apis/',
      '/version/',
      '/api/v1/',
      '/apis/apps/',
      '/apis/stable.example.com/v1beta1/namespaces/{namespace}/crontabs/{name}',
      '/apis/coordination.k8s.io/v1/watch/leases',
    ]) {
      assert.ok(doc.paths[path], path);
    }
  });

  it('names definitions like v3, marks kinds, and resolves every $ref', () => {
    for (const [name, gvk] of [
      ['io.k8s.api.core.v1.ConfigMap', { group: '', version: 'v1', kind: 'ConfigMap' }],
      [
        'io.k8s.api.coordination.v1.LeaseList',
        { group: 'coordination.k8s.io', version: 'v1', kind: 'LeaseList' },
      ],
      [
        'com.example.stable.v1beta1.CronTab',
        { group: 'stable.example.com', version: 'v1beta1', kind: 'CronTab' },
      ],
    ] as const) {
      assert.equal(schemaForKind(definitions, gvk)?.[0], name);
    }
    for (const ref of collectRefs(doc)) {
      assert.ok(ref.startsWith('#/definitions/') && definitions[ref.slice('#/definitions/'.length)], ref);
    }
    assert.ok(
      [...collectKeys(doc)].every((k) => !k.startsWith('x-pgkube-') && k !== 'allOf' && k !== 'nullable'),
    );
  });

  it('keeps $ref siblings and applies kube v2 simplifications', () => {
    assert.deepEqual(definitions['io.k8s.api.coordination.v1.LeaseSpec'].properties.renewTime, {
      $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
      description: 'Last renewal.',
    });
    const spec = definitions['com.example.stable.v1.CronTab'].properties.spec;
    assert.deepEqual(spec.properties.note, {});
    assert.deepEqual(spec.required, ['cronSpec']);
    assert.deepEqual(spec.properties.extra, { type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
  });

  it('describes operations the v2 way: typed parameters, a body parameter, consumes/produces', () => {
    const item = doc.paths['/api/v1/namespaces/{namespace}/configmaps/{name}'];
    const patch = item.patch;
    assert.ok(patchSupportsParam(doc, { group: '', version: 'v1', kind: 'ConfigMap' }, 'fieldValidation'));
    assert.deepEqual(
      patch.parameters.find((p: Doc) => p.name === 'force'),
      {
        description: patch.parameters.find((p: Doc) => p.name === 'force').description,
        in: 'query',
        name: 'force',
        type: 'boolean',
        uniqueItems: true,
      },
    );
    assert.deepEqual(patch.parameters.at(-1), {
      in: 'body',
      name: 'body',
      required: true,
      schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' },
    });
    assert.ok(patch.consumes.includes('application/strategic-merge-patch+json'));
    assert.deepEqual(item.get.responses['200'].schema, {
      $ref: '#/definitions/io.k8s.api.core.v1.ConfigMap',
    });
    assert.deepEqual(item.get.schemes, ['https']);
    assert.deepEqual(item.get['x-kubernetes-group-version-kind'], {
      group: '',
      kind: 'ConfigMap',
      version: 'v1',
    });
  });

  it('is built once per definitions array and answers like kube', () => {
    assert.equal(openApiV2Document(defs), openApiV2Document(defs));
    const ok = openApiV2Response(defs, { accept: 'application/json' });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.ETag, `"${openApiV2Document(defs).hash}"`);
    assert.equal(openApiV2Response(defs, { ifNoneMatch: ok.headers.ETag }).status, 304);
    assert.equal(openApiV2Response(defs, { accept: 'application/yaml' }).status, 406);
  });
});
