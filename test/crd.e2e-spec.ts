/**
 * CustomResourceDefinitions with the real kubectl: a CRD applied becomes Established and its kind is served
 * (api-resources, categories, printer columns, explain, server-side apply, scale, status), unknown fields are
 * pruned, and deleting the CRD removes its objects, ends their watches and then the CRD.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { eventually } from './support/eventually.js';
import { kubectl as runKubectl } from './support/kubectl.js';
import { useServer } from './support/use-server.js';
import { openWatch } from './support/watch-client.js';

const CRD = 'gizmos.tools.pgkube.io';

const crdYaml = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${CRD}
spec:
  group: tools.pgkube.io
  scope: Namespaced
  names:
    plural: gizmos
    singular: gizmo
    kind: Gizmo
    shortNames: [gz]
    categories: [tools]
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
        labelSelectorPath: .status.selector
    selectableFields:
    - jsonPath: .spec.color
    additionalPrinterColumns:
    - name: Color
      type: string
      jsonPath: .spec.color
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    - name: Age
      type: date
      jsonPath: .metadata.creationTimestamp
    schema:
      openAPIV3Schema:
        type: object
        description: A gizmo of the tools group.
        properties:
          spec:
            type: object
            description: What the gizmo should be.
            properties:
              color:
                type: string
                description: The gizmo's color.
                enum: [red, green, blue, purple]
                default: red
              replicas:
                type: integer
                minimum: 0
              size:
                type: string
                maxLength: 3
          status:
            type: object
            properties:
              replicas:
                type: integer
              selector:
                type: string
`;

const gizmo = (name: string, color: string, extra = '') => `apiVersion: tools.pgkube.io/v1
kind: Gizmo
metadata:
  name: ${name}
  namespace: default
spec:
  color: ${color}
  replicas: 1${extra}
`;

describe('CustomResourceDefinitions with kubectl', () => {
  const s = useServer();
  const run = (args: string[], input?: string) =>
    runKubectl(args, { kubeconfig: s.kubeconfig, input, timeoutMs: 60_000 });
  const k = async (args: string[], input?: string) => {
    const r = await run(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed:\n${r.stderr}\n${r.stdout}`);
    return r.stdout;
  };
  const file = async (name: string, text: string) => {
    const p = path.join(s.dataDir, name);
    await writeFile(p, text);
    return p;
  };

  it('a CRD applied becomes Established and its kind appears in api-resources and categories', async () => {
    const out = await k(['apply', '-f', await file('crd.yaml', crdYaml)]);
    assert.match(out, new RegExp(`customresourcedefinition.apiextensions.k8s.io/${CRD} created`));
    await k(['wait', '--for', 'condition=Established', '--timeout=10s', `crd/${CRD}`]);
    const crd = JSON.parse(await k(['get', 'crd', CRD, '-o', 'json']));
    assert.deepEqual(crd.status.storedVersions, ['v1']);
    assert.equal(crd.status.acceptedNames.kind, 'Gizmo');
    const names = crd.status.conditions.find((c: any) => c.type === 'NamesAccepted');
    assert.equal(names.status, 'True');
    const resources = await k(['api-resources', '--api-group=tools.pgkube.io', '--no-headers']);
    assert.match(resources, /^gizmos\s+gz\s+tools\.pgkube\.io\/v1\s+true\s+Gizmo\s*$/m);
  });

  it('custom resources: create, get with printer columns, category, explain', async () => {
    await k(['apply', '-f', await file('g1.yaml', gizmo('g1', 'blue'))]);
    const table = await k(['get', 'gizmos', '-n', 'default']);
    const [header, row] = table.trim().split('\n');
    assert.match(header, /^NAME\s+COLOR\s+REPLICAS\s+AGE$/);
    assert.match(row, /^g1\s+blue\s+1\s+\d+s$/);
    assert.match(await k(['get', 'tools', '-n', 'default', '-o', 'name']), /^gizmo\.tools\.pgkube\.io\/g1$/m);
    assert.equal(await k(['get', 'gz', 'g1', '-n', 'default', '-o', 'jsonpath={.metadata.generation}']), '1');
    const explained = await k(['explain', 'gizmos.spec']);
    assert.match(explained, /What the gizmo should be\./);
    assert.match(explained, /color\s+<string>/);
    // the v2 form kubectl reads as gnostic Protobuf
    const v2 = await k(['explain', 'gizmos.spec', '--output=plaintext-openapiv2']);
    assert.match(v2, /What the gizmo should be\./);
    assert.match(v2, /color\s+<string>/);
    assert.match(await k(['explain', 'configmaps', '--output=plaintext-openapiv2']), /KIND:\s+ConfigMap/);
  });

  it('kubectl edit of a custom resource and of a built-in object', async () => {
    const edit = async (args: string[]) => {
      const r = await runKubectl(['edit', ...args], {
        kubeconfig: s.kubeconfig,
        env: { KUBE_EDITOR: 'sed -i -e s/blue/purple/ -e s/edited-from/edited-to/' },
        timeoutMs: 60_000,
      });
      assert.equal(r.code, 0, `kubectl edit ${args.join(' ')}:\n${r.stderr}`);
      return r.stdout;
    };
    await k(['apply', '-f', await file('ge.yaml', gizmo('ge', 'blue'))]);
    assert.match(await edit(['gizmo', 'ge', '-n', 'default']), /gizmo.tools.pgkube.io\/ge edited/);
    assert.equal(await k(['get', 'gizmo', 'ge', '-n', 'default', '-o', 'jsonpath={.spec.color}']), 'purple');
    await k(['create', 'configmap', 'editme', '-n', 'default', '--from-literal=k=edited-from']);
    assert.match(await edit(['configmap', 'editme', '-n', 'default']), /configmap\/editme edited/);
    assert.equal(await k(['get', 'cm', 'editme', '-n', 'default', '-o', 'jsonpath={.data.k}']), 'edited-to');
  });

  it('selectable fields filter lists and watches; other fields are refused', async () => {
    await k(['apply', '-f', await file('g-red.yaml', gizmo('g-red', 'red'))]);
    const names = await k([
      'get',
      'gizmos',
      '-n',
      'default',
      '--field-selector',
      'spec.color=red',
      '-o',
      'name',
    ]);
    assert.deepEqual(names.trim().split('\n'), ['gizmo.tools.pgkube.io/g-red']);
    const refused = await run(['get', 'gizmos', '-n', 'default', '--field-selector', 'spec.size=L']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /field label not supported: spec\.size/);
  });

  it('unknown fields are pruned and reported, Strict refuses them', async () => {
    const withUnknown = gizmo('g2', 'red', '\n  shape: round');
    const created = await run(['create', '--validate=warn', '-f', await file('g2.yaml', withUnknown)]);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stderr, /unknown field "spec\.shape"/);
    const spec = JSON.parse(await k(['get', 'gizmo', 'g2', '-n', 'default', '-o', 'jsonpath={.spec}']));
    assert.deepEqual(spec, { color: 'red', replicas: 1 });
    const strict = await run([
      'create',
      '--validate=strict',
      '-f',
      await file('g3.yaml', gizmo('g3', 'red', '\n  shape: round')),
    ]);
    assert.notEqual(strict.code, 0);
    assert.match(strict.stderr, /unknown field "spec\.shape"/);
  });

  it("invalid objects are refused with kube's messages; defaults are filled in", async () => {
    const bad = await run([
      'create',
      '-f',
      await file('bad.yaml', gizmo('bad', 'pink').replace('replicas: 1', 'replicas: many')),
    ]);
    assert.notEqual(bad.code, 0);
    assert.match(
      bad.stderr,
      /The Gizmo "bad" is invalid: \n\* spec\.color: Unsupported value: "pink": supported values: "red", "green", "blue", "purple"\n\* spec\.replicas: Invalid value: "string": spec\.replicas in body must be of type integer: "string"/,
    );
    const negative = await run([
      'create',
      '-f',
      await file('neg.yaml', gizmo('neg', 'red').replace('replicas: 1', 'replicas: -2')),
    ]);
    assert.match(
      negative.stderr,
      /spec\.replicas: Invalid value: -2: spec\.replicas in body should be greater than or equal to 0/,
    );
    const plain = `apiVersion: tools.pgkube.io/v1\nkind: Gizmo\nmetadata:\n  name: plain\n  namespace: default\nspec:\n  replicas: 2\n`;
    await k(['create', '-f', await file('plain.yaml', plain)]);
    assert.equal(await k(['get', 'gizmo', 'plain', '-n', 'default', '-o', 'jsonpath={.spec.color}']), 'red');
  });

  it('a default added to the CRD later shows on objects stored before it', async () => {
    const crd = JSON.parse(await k(['get', 'crd', CRD, '-o', 'json']));
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size.default = 'M';
    await k(['replace', '-f', await file('crd-default.json', JSON.stringify(crd))]);
    await eventually(
      async () =>
        (await k(['get', 'gizmo', 'plain', '-n', 'default', '-o', 'jsonpath={.spec.size}'])) === 'M',
      'the new default is read',
    );
    const listed = JSON.parse(await k(['get', 'gizmos', '-n', 'default', '-o', 'json']));
    assert.equal(listed.items.find((i: any) => i.metadata.name === 'plain').spec.size, 'M');
  });

  it('status is written through its subresource only; spec changes bump the generation', async () => {
    await k(['patch', 'gizmo', 'g1', '-n', 'default', '--type=merge', '-p', '{"status":{"replicas":7}}']);
    assert.equal(await k(['get', 'gizmo', 'g1', '-n', 'default', '-o', 'jsonpath={.status}']), '');
    await k([
      'patch',
      'gizmo',
      'g1',
      '-n',
      'default',
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"replicas":2,"selector":"app=g1"},"spec":{"color":"green"}}',
    ]);
    const g1 = JSON.parse(await k(['get', 'gizmo', 'g1', '-n', 'default', '-o', 'json']));
    assert.deepEqual(g1.status, { replicas: 2, selector: 'app=g1' });
    assert.equal(g1.spec.color, 'blue', 'a status write leaves spec alone');
    assert.equal(g1.metadata.generation, 1);
    await k(['patch', 'gizmo', 'g1', '-n', 'default', '--type=merge', '-p', '{"spec":{"size":"L"}}']);
    assert.equal(
      await k(['get', 'gizmo', 'g1', '-n', 'default', '-o', 'jsonpath={.metadata.generation}']),
      '2',
    );
  });

  it('scale reads and writes the replicas at the CRD paths', async () => {
    const scale = JSON.parse(
      await k(['get', '--raw', '/apis/tools.pgkube.io/v1/namespaces/default/gizmos/g1/scale']),
    );
    assert.equal(scale.kind, 'Scale');
    assert.equal(scale.apiVersion, 'autoscaling/v1');
    assert.deepEqual(scale.spec, { replicas: 1 });
    assert.deepEqual(scale.status, { replicas: 2, selector: 'app=g1' });
    assert.match(
      await k(['scale', 'gizmo', 'g1', '-n', 'default', '--replicas=5']),
      /gizmo.tools.pgkube.io\/g1 scaled/,
    );
    assert.equal(await k(['get', 'gizmo', 'g1', '-n', 'default', '-o', 'jsonpath={.spec.replicas}']), '5');
    const refused = await run(['scale', 'gizmo', 'g1', '-n', 'default', '--replicas=-1']);
    assert.notEqual(refused.code, 0);
    const scaleUrl = '/apis/tools.pgkube.io/v1/namespaces/default/gizmos/g1/scale';
    const stale = await s.request('PATCH', scaleUrl, {
      raw: JSON.stringify({ metadata: { resourceVersion: '1' }, spec: { replicas: 3 } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(stale.status, 409);
    assert.match(stale.json.message, /the object has been modified/);
    const put = await s.request('PUT', scaleUrl, {
      body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'g1' }, spec: { replicas: 4 } },
    });
    assert.equal(put.status, 200);
    assert.equal(put.json.spec.replicas, 4);
  });

  it('server-side apply of a custom resource', async () => {
    const applied = gizmo('g4', 'red');
    await k(['apply', '--server-side', '--field-manager=tester', '-f', await file('g4.yaml', applied)]);
    const g4 = JSON.parse(
      await k(['get', 'gizmo', 'g4', '-n', 'default', '-o', 'json', '--show-managed-fields']),
    );
    assert.equal(g4.metadata.managedFields[0].manager, 'tester');
    assert.equal(g4.metadata.managedFields[0].operation, 'Apply');
    const conflict = await run([
      'apply',
      '--server-side',
      '--field-manager=other',
      '-f',
      await file('g4b.yaml', gizmo('g4', 'blue')),
    ]);
    assert.notEqual(conflict.code, 0);
    assert.match(conflict.stderr, /conflict/i);
  });

  it('custom resources owned by a ConfigMap are collected with it', async () => {
    await k(['create', 'configmap', 'owner', '-n', 'default', '--from-literal=a=b']);
    const uid = await k(['get', 'cm', 'owner', '-n', 'default', '-o', 'jsonpath={.metadata.uid}']);
    const owned = gizmo('owned', 'red').replace(
      '  namespace: default',
      `  namespace: default\n  ownerReferences:\n  - apiVersion: v1\n    kind: ConfigMap\n    name: owner\n    uid: ${uid}`,
    );
    await k(['create', '-f', await file('owned.yaml', owned)]);
    await k(['delete', 'cm', 'owner', '-n', 'default']);
    await eventually(
      async () => (await run(['get', 'gizmo', 'owned', '-n', 'default'])).code !== 0,
      'the owned gizmo is collected',
      5_000,
    );
  });

  it('deleting the CRD deletes its objects, ends their watches, then goes; creates are refused meanwhile', async () => {
    const watch = await openWatch(s, '/apis/tools.pgkube.io/v1/gizmos?watch=true');
    try {
      await k(['delete', 'crd', CRD, '--timeout=20s']);
      await watch.ended;
      const gone = await run(['get', 'crd', CRD]);
      assert.notEqual(gone.code, 0);
      assert.match(gone.stderr, /NotFound|not found/);
      await eventually(
        async () => (await s.request('GET', '/apis/tools.pgkube.io/v1/gizmos')).status === 404,
        'the kind is no longer served',
      );
    } finally {
      watch.close();
    }
  });

  it('a CRD whose objects wait on their own finalizers stays Terminating and refuses creates', async () => {
    await k(['apply', '-f', await file('crd.yaml', crdYaml)]);
    await k(['wait', '--for', 'condition=Established', '--timeout=10s', `crd/${CRD}`]);
    const held = gizmo('held', 'red').replace(
      '  namespace: default',
      '  namespace: default\n  finalizers: [tools.pgkube.io/hold]',
    );
    await k(['create', '-f', await file('held.yaml', held)]);
    await k(['delete', 'crd', CRD, '--wait=false']);
    await eventually(async () => {
      const crd = (await s.request('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${CRD}`))
        .json;
      return crd.status?.conditions?.some(
        (c: any) => c.type === 'Terminating' && c.reason === 'InstanceDeletionInProgress',
      );
    }, 'the CRD is Terminating with its instances being deleted');
    const refused = await s.request('POST', '/apis/tools.pgkube.io/v1/namespaces/default/gizmos', {
      body: { apiVersion: 'tools.pgkube.io/v1', kind: 'Gizmo', metadata: { name: 'late' } },
    });
    assert.equal(refused.status, 405);
    assert.equal(refused.json.message, 'create not allowed while custom resource definition is terminating');
    // the condition is written as the controller begins deleting: the object's delete may land just after
    await eventually(async () => {
      const held = await s.request('GET', '/apis/tools.pgkube.io/v1/namespaces/default/gizmos/held');
      return held.status === 200 && !!held.json.metadata.deletionTimestamp;
    }, 'the object is being deleted, and held by its finalizer');
    await k([
      'patch',
      'gizmo',
      'held',
      '-n',
      'default',
      '--type=merge',
      '-p',
      '{"metadata":{"finalizers":null}}',
    ]);
    await eventually(
      async () =>
        (await s.request('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${CRD}`)).status ===
        404,
      'the CRD is gone once its last object is',
    );
  });
});
