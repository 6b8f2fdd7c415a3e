import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { allTestDefinitions, configMaps } from '../../test/support/definitions.js';
import {
  collectKeys,
  collectRefs,
  patchSupportsParam,
  schemaForKind,
} from '../../test/support/openapi-walk.js';
import {
  openApiV3Document,
  openApiV3Index,
  openApiV3Keys,
  openApiV3Rendered,
  openApiV3Response,
} from './v3.js';

type Doc = Record<string, any>;
const defs = allTestDefinitions();
const doc = (key: string): Doc => JSON.parse(openApiV3Document(defs, key)!);
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

describe('/openapi/v3 index', () => {
  it('lists every group-version, group, and the root documents', () => {
    assert.deepEqual(openApiV3Keys(defs), [
      'api',
      'api/v1',
      'apis',
      'apis/apps',
      'apis/apps/v1',
      'apis/coordination.k8s.io',
      'apis/coordination.k8s.io/v1',
      'apis/stable.example.com',
      'apis/stable.example.com/v1',
      'apis/stable.example.com/v1beta1',
      'apis/widgets.example.org',
      'apis/widgets.example.org/v1alpha1',
      'version',
    ]);
  });

  it('points at each document with the uppercase hex sha512 of its body', () => {
    const index = openApiV3Index(defs);
    for (const [key, { serverRelativeURL }] of Object.entries(index.paths)) {
      const hash = createHash('sha512').update(openApiV3Document(defs, key)!).digest('hex').toUpperCase();
      assert.equal(serverRelativeURL, `/openapi/v3/${key}?hash=${hash}`);
      assert.match(hash, /^[0-9A-F]{128}$/);
    }
  });

  it('keeps hashes stable and changes only the documents a definition change touches', () => {
    const before = openApiV3Index(defs).paths;
    const same = openApiV3Index([...defs]).paths;
    assert.deepEqual(same, before);
    const changed = [...defs.filter((d) => d !== configMaps), { ...configMaps, description: 'Changed.' }];
    const after = openApiV3Index(changed).paths;
    assert.notEqual(after['api/v1'].serverRelativeURL, before['api/v1'].serverRelativeURL);
    assert.equal(after['apis/apps/v1'].serverRelativeURL, before['apis/apps/v1'].serverRelativeURL);
  });

  it('builds each document once per definitions array', () => {
    assert.equal(openApiV3Rendered(defs, 'api/v1'), openApiV3Rendered(defs, 'api/v1'));
    assert.equal(openApiV3Document(defs, 'apis/nope/v1'), undefined);
  });
});

describe('group-version document', () => {
  const core = doc('api/v1');
  const schemas = core.components.schemas as Record<string, Doc>;

  it('is OpenAPI 3.0.0 with kube info and bearer security scheme', () => {
    assert.equal(core.openapi, '3.0.0');
    assert.deepEqual(core.info, { title: 'Kubernetes', version: 'unversioned' });
    assert.equal(core.components.securitySchemes.BearerToken.type, 'apiKey');
  });

  it('names kind and list schemas like kube and marks their kinds', () => {
    assert.deepEqual(schemas['io.k8s.api.core.v1.ConfigMap']['x-kubernetes-group-version-kind'], [
      { group: '', kind: 'ConfigMap', version: 'v1' },
    ]);
    const list = schemas['io.k8s.api.core.v1.ConfigMapList'];
    assert.deepEqual(list['x-kubernetes-group-version-kind'], [
      { group: '', kind: 'ConfigMapList', version: 'v1' },
    ]);
    assert.deepEqual(list.required, ['items']);
    assert.deepEqual(list.properties.items.items, {
      $ref: '#/components/schemas/io.k8s.api.core.v1.ConfigMap',
    });
    assert.deepEqual(list.properties.metadata.allOf, [{ $ref: `#/components/schemas/${META}.ListMeta` }]);
    assert.equal(
      schemas['io.k8s.api.core.v1.ConfigMap'].description,
      'Configuration data as key/value pairs.',
    );
    assert.equal(
      schemaForKind(schemas, { group: '', version: 'v1', kind: 'Namespace' })?.[0],
      'io.k8s.api.core.v1.Namespace',
    );
  });

  it('references shared schemas through allOf, with their content from the definitions', () => {
    const cm = schemas['io.k8s.api.core.v1.ConfigMap'];
    assert.deepEqual(cm.properties.metadata, { $ref: `#/components/schemas/${META}.ObjectMeta` });
    assert.deepEqual(cm.properties.metadata, schemas['io.k8s.api.core.v1.Pod'].properties.metadata);
    assert.equal(schemas[`${META}.ObjectMeta`].description, 'Standard object metadata.');
    const meta = schemas[`${META}.ObjectMeta`];
    assert.deepEqual(Object.keys(meta.properties).sort(), [
      'creationTimestamp',
      'labels',
      'name',
      'namespace',
      'ownerReferences',
    ]);
    assert.equal(meta.properties.ownerReferences['x-kubernetes-patch-merge-key'], 'uid');
    assert.deepEqual(meta.properties.ownerReferences.items, {
      $ref: `#/components/schemas/${META}.OwnerReference`,
    });
    assert.equal(schemas[`${META}.Time`].format, 'date-time');
    assert.deepEqual(schemas['io.k8s.api.core.v1.Namespace'].properties.metadata, {
      $ref: `#/components/schemas/${META}.ObjectMeta`,
    });
    const lease = doc('apis/coordination.k8s.io/v1').components.schemas[
      'io.k8s.api.coordination.v1.LeaseSpec'
    ];
    assert.deepEqual(lease.properties.renewTime, {
      allOf: [{ $ref: `#/components/schemas/${META}.MicroTime` }],
      description: 'Last renewal.',
    });
    assert.ok(schemas['io.k8s.api.core.v1.NamespaceCondition']);
  });

  it('resolves every $ref and carries no private markers', () => {
    for (const key of openApiV3Keys(defs)) {
      const d = doc(key);
      for (const ref of collectRefs(d)) {
        const name = ref.replace('#/components/schemas/', '');
        assert.ok(ref.startsWith('#/components/schemas/') && d.components.schemas[name], `${key}: ${ref}`);
      }
      assert.ok(
        [...collectKeys(d)].every((k) => !k.startsWith('x-pgkube-')),
        key,
      );
    }
  });

  it('lists DeleteOptions and WatchEvent under every served group-version', () => {
    const gvks = schemas[`${META}.DeleteOptions`]['x-kubernetes-group-version-kind'] as Doc[];
    assert.deepEqual(gvks[0], { group: '', kind: 'DeleteOptions', version: 'v1' });
    assert.ok(gvks.some((g) => g.group === 'stable.example.com' && g.version === 'v1beta1'));
    assert.ok(schemas[`${META}.WatchEvent`]);
    assert.deepEqual(schemas[`${META}.Status`]['x-kubernetes-group-version-kind'], [
      { group: '', kind: 'Status', version: 'v1' },
    ]);
  });

  it('has kube paths and operation ids for namespaced and cluster-scoped kinds', () => {
    const ops = Object.entries(core.paths as Record<string, Doc>).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([m]) => m !== 'parameters')
        .map(([method, op]) =>
          `${method} ${path} ${op.operationId} ${op['x-kubernetes-action'] ?? ''}`.trim(),
        ),
    );
    for (const expected of [
      'get /api/v1/ getCoreV1APIResources',
      'get /api/v1/configmaps listCoreV1ConfigMapForAllNamespaces list',
      'get /api/v1/namespaces/{namespace}/configmaps listCoreV1NamespacedConfigMap list',
      'post /api/v1/namespaces/{namespace}/configmaps createCoreV1NamespacedConfigMap post',
      'delete /api/v1/namespaces/{namespace}/configmaps deleteCoreV1CollectionNamespacedConfigMap deletecollection',
      'get /api/v1/namespaces/{namespace}/configmaps/{name} readCoreV1NamespacedConfigMap get',
      'put /api/v1/namespaces/{namespace}/configmaps/{name} replaceCoreV1NamespacedConfigMap put',
      'patch /api/v1/namespaces/{namespace}/configmaps/{name} patchCoreV1NamespacedConfigMap patch',
      'delete /api/v1/namespaces/{namespace}/configmaps/{name} deleteCoreV1NamespacedConfigMap delete',
      'get /api/v1/watch/configmaps watchCoreV1ConfigMapListForAllNamespaces watchlist',
      'get /api/v1/watch/namespaces/{namespace}/configmaps watchCoreV1NamespacedConfigMapList watchlist',
      'get /api/v1/watch/namespaces/{namespace}/configmaps/{name} watchCoreV1NamespacedConfigMap watch',
      'get /api/v1/namespaces listCoreV1Namespace list',
      'get /api/v1/namespaces/{name} readCoreV1Namespace get',
      'get /api/v1/watch/namespaces watchCoreV1NamespaceList watchlist',
      'get /api/v1/watch/namespaces/{name} watchCoreV1Namespace watch',
      'get /api/v1/namespaces/{name}/status readCoreV1NamespaceStatus get',
      'patch /api/v1/namespaces/{name}/status patchCoreV1NamespaceStatus patch',
      'put /api/v1/namespaces/{name}/status replaceCoreV1NamespaceStatus put',
      'put /api/v1/namespaces/{name}/finalize replaceCoreV1NamespaceFinalize put',
      'post /api/v1/namespaces/{namespace}/pods/{name}/binding createCoreV1NamespacedPodBinding post',
      'post /api/v1/namespaces/{namespace}/pods/{name}/eviction createCoreV1NamespacedPodEviction post',
      'get /api/v1/namespaces/{namespace}/pods/{name}/log readCoreV1NamespacedPodLog get',
      'get /api/v1/namespaces/{namespace}/pods/{name}/exec connectCoreV1GetNamespacedPodExec connect',
      'post /api/v1/namespaces/{namespace}/pods/{name}/exec connectCoreV1PostNamespacedPodExec connect',
    ]) {
      assert.ok(ops.includes(expected), expected);
    }
    // namespaces have no deletecollection verb, and finalize is update-only
    assert.equal(core.paths['/api/v1/namespaces'].delete, undefined);
    assert.deepEqual(Object.keys(core.paths['/api/v1/namespaces/{name}/finalize']), ['parameters', 'put']);
  });

  it('lists the write parameters kubectl looks for, in the query', () => {
    for (const kind of ['ConfigMap', 'Namespace', 'Pod']) {
      for (const param of ['fieldValidation', 'dryRun', 'fieldManager', 'force']) {
        assert.ok(patchSupportsParam(core, { group: '', version: 'v1', kind }, param), `${kind} ${param}`);
      }
    }
    const create = core.paths['/api/v1/namespaces/{namespace}/configmaps'].post;
    assert.deepEqual(
      create.parameters.map((p: Doc) => `${p.in}:${p.name}`),
      ['query:dryRun', 'query:fieldManager', 'query:fieldValidation'],
    );
    const item = core.paths['/api/v1/namespaces/{namespace}/configmaps/{name}'];
    assert.deepEqual(
      item.parameters.map((p: Doc) => `${p.in}:${p.name}:${p.required ?? false}`),
      ['path:name:true', 'path:namespace:true', 'query:pretty:false'],
    );
    const list = core.paths['/api/v1/namespaces/{namespace}/configmaps'].get;
    assert.ok(
      ['watch', 'labelSelector', 'limit', 'continue', 'resourceVersionMatch'].every((n) =>
        list.parameters.some((p: Doc) => p.name === n),
      ),
    );
  });

  it('marks operations with their kind and describes bodies and responses', () => {
    const patch = core.paths['/api/v1/namespaces/{namespace}/configmaps/{name}'].patch;
    assert.deepEqual(patch['x-kubernetes-group-version-kind'], {
      group: '',
      kind: 'ConfigMap',
      version: 'v1',
    });
    assert.deepEqual(patch.tags, ['core_v1']);
    assert.deepEqual(Object.keys(patch.requestBody.content), [
      'application/apply-patch+yaml',
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
    ]);
    assert.deepEqual(patch.requestBody.content['application/json-patch+json'].schema, {
      $ref: `#/components/schemas/${META}.Patch`,
    });
    assert.deepEqual(Object.keys(patch.responses), ['200', '201', '401']);
    // built-in kinds with protobuf numbers offer Protobuf; lists add watch streams
    const list = core.paths['/api/v1/namespaces/{namespace}/configmaps'].get;
    assert.deepEqual(Object.keys(list.responses['200'].content), [
      'application/json',
      'application/json;stream=watch',
      'application/vnd.kubernetes.protobuf',
      'application/vnd.kubernetes.protobuf;stream=watch',
      'application/yaml',
    ]);
    const del = core.paths['/api/v1/namespaces/{namespace}/configmaps/{name}'].delete;
    assert.deepEqual(del.requestBody.content['*/*'].schema, {
      $ref: `#/components/schemas/${META}.DeleteOptions`,
    });
    assert.deepEqual(del.responses['200'].content['application/json'].schema, {
      $ref: `#/components/schemas/${META}.Status`,
    });
    const eviction = core.paths['/api/v1/namespaces/{namespace}/pods/{name}/eviction'].post;
    assert.deepEqual(eviction['x-kubernetes-group-version-kind'], {
      group: 'policy',
      kind: 'Eviction',
      version: 'v1',
    });
    const log = core.paths['/api/v1/namespaces/{namespace}/pods/{name}/log'].get;
    assert.deepEqual(log.responses['200'].content['text/plain'].schema, { type: 'string' });
    assert.ok(log.parameters.some((p: Doc) => p.name === 'follow'));
  });

  it('serves scale as autoscaling/v1 Scale', () => {
    const apps = doc('apis/apps/v1');
    const scale = apps.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale'];
    assert.deepEqual(Object.keys(scale).sort(), ['get', 'parameters', 'patch', 'put']);
    assert.equal(scale.get.operationId, 'readAppsV1NamespacedDeploymentScale');
    assert.deepEqual(scale.put['x-kubernetes-group-version-kind'], {
      group: 'autoscaling',
      kind: 'Scale',
      version: 'v1',
    });
    assert.deepEqual(scale.patch.responses['200'].content['application/json'].schema, {
      $ref: '#/components/schemas/io.k8s.api.autoscaling.v1.Scale',
    });
    assert.deepEqual(
      apps.components.schemas['io.k8s.api.autoscaling.v1.Scale']['x-kubernetes-group-version-kind'],
      [{ group: 'autoscaling', kind: 'Scale', version: 'v1' }],
    );
  });

  it('serves CRD-style kinds without Protobuf or strategic merge patch, under reversed-group names', () => {
    const crd = doc('apis/stable.example.com/v1');
    const schemas = crd.components.schemas as Record<string, Doc>;
    const cronTab = schemas['com.example.stable.v1.CronTab'];
    assert.deepEqual(cronTab['x-kubernetes-group-version-kind'], [
      { group: 'stable.example.com', kind: 'CronTab', version: 'v1' },
    ]);
    assert.deepEqual(cronTab.properties.spec.properties.note, { type: 'string', nullable: true });
    assert.equal(cronTab.properties.spec.properties.extra['x-kubernetes-preserve-unknown-fields'], true);
    assert.ok(schemas['com.example.stable.v1.CronTabList']);
    const item = crd.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}'];
    assert.equal(item.patch.requestBody.content['application/strategic-merge-patch+json'], undefined);
    assert.deepEqual(Object.keys(item.get.responses['200'].content), [
      'application/json',
      'application/yaml',
    ]);
    assert.ok(
      patchSupportsParam(
        crd,
        { group: 'stable.example.com', version: 'v1', kind: 'CronTab' },
        'fieldValidation',
      ),
    );
    const beta = doc('apis/stable.example.com/v1beta1');
    assert.ok(beta.components.schemas['com.example.stable.v1beta1.CronTab']);
    assert.equal(beta.components.schemas['com.example.stable.v1.CronTab'], undefined);
  });

  it('skips the operations of verbs a kind does not have', () => {
    const widgets = doc('apis/widgets.example.org/v1alpha1');
    assert.deepEqual(Object.keys(widgets.paths), [
      '/apis/widgets.example.org/v1alpha1/',
      '/apis/widgets.example.org/v1alpha1/clusterwidgets',
      '/apis/widgets.example.org/v1alpha1/clusterwidgets/{name}',
    ]);
    assert.deepEqual(Object.keys(widgets.paths['/apis/widgets.example.org/v1alpha1/clusterwidgets']), [
      'get',
      'parameters',
    ]);
    assert.equal(
      widgets.paths['/apis/widgets.example.org/v1alpha1/clusterwidgets'].get.operationId,
      'listWidgetsExampleOrgV1alpha1ClusterWidget',
    );
  });

  it('serves the small root documents', () => {
    assert.equal(doc('api').paths['/api/'].get.operationId, 'getCoreAPIVersions');
    assert.equal(doc('apis').paths['/apis/'].get.operationId, 'getAPIVersions');
    const group = doc('apis/coordination.k8s.io');
    assert.equal(group.paths['/apis/coordination.k8s.io/'].get.operationId, 'getCoordinationAPIGroup');
    assert.ok(group.components.schemas[`${META}.APIGroup`]);
    assert.ok(doc('version').components.schemas['io.k8s.apimachinery.pkg.version.Info']);
  });
});

describe('openApiV3Response', () => {
  const key = 'apis/coordination.k8s.io/v1';
  const { hash, json } = openApiV3Rendered(defs, key)!;

  it('serves the document with a quoted ETag, immutable when the hash matches', () => {
    const r = openApiV3Response(defs, key, { hash, now: new Date('2025-01-02T03:04:05Z') });
    assert.equal(r.status, 200);
    assert.equal(r.body, json);
    assert.equal(r.headers.ETag, `"${hash}"`);
    assert.equal(r.headers['Cache-Control'], 'public, immutable');
    assert.equal(r.headers.Expires, 'Fri, 02 Jan 2026 03:04:05 GMT');
    assert.equal(r.headers['Content-Type'], 'application/json');
    assert.equal(openApiV3Response(defs, key).headers['Cache-Control'], undefined);
  });

  it('redirects a stale hash to the current URL', () => {
    const r = openApiV3Response(defs, key, { hash: 'ABC' });
    assert.equal(r.status, 301);
    assert.equal(r.headers.Location, `/openapi/v3/${key}?hash=${hash}`);
  });

  it('answers 304, 404 and 406 like kube', () => {
    assert.equal(openApiV3Response(defs, key, { ifNoneMatch: `"${hash}"` }).status, 304);
    assert.equal(openApiV3Response(defs, 'apis/nope/v1').status, 404);
    assert.equal(
      openApiV3Response(defs, key, { accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf' })
        .status,
      406,
    );
    assert.equal(openApiV3Response(defs, key, { accept: 'application/json, */*' }).status, 200);
  });
});
