/** Server-side printing: kubectl's tables show kube's columns; PartialObjectMetadata for metadata clients. */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { kubectl as run } from './support/kubectl.js';
import { useServer } from './support/use-server.js';

describe('Table and PartialObjectMetadata', () => {
  const s = useServer();
  const k = async (args: string[]) => {
    const r = await run(args, { kubeconfig: s.kubeconfig });
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}:\n${r.stderr}`);
    return r.stdout;
  };
  const header = async (args: string[]) =>
    (await k(args))
      .split('\n')[0]
      .trim()
      .split(/\s{2,}/);

  before(async () => {
    const file = path.join(s.dataDir, 'kinds.yaml');
    await writeFile(
      file,
      [
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: "1"\n',
        'apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nstringData:\n  a: "1"\n',
        'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa\n',
        'apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: l\nspec:\n  holderIdentity: me\n',
        'apiVersion: v1\nkind: Event\nmetadata:\n  name: e\ninvolvedObject:\n  kind: ConfigMap\n  name: c\n  namespace: default\nreason: Tested\nmessage: hello\ntype: Normal\nsource:\n  component: test\nfirstTimestamp: "2026-01-01T00:00:00Z"\nlastTimestamp: "2026-01-01T00:00:00Z"\ncount: 1\n',
      ].join('---\n'),
    );
    await k(['create', '-f', file]);
  });

  it('kubectl get prints kube’s columns for every built-in kind', async () => {
    assert.deepEqual(await header(['get', 'namespaces']), ['NAME', 'STATUS', 'AGE']);
    assert.deepEqual(await header(['get', 'configmaps']), ['NAME', 'DATA', 'AGE']);
    assert.deepEqual(await header(['get', 'secrets']), ['NAME', 'TYPE', 'DATA', 'AGE']);
    assert.deepEqual(await header(['get', 'serviceaccounts']), ['NAME', 'SECRETS', 'AGE']);
    assert.deepEqual(await header(['get', 'leases']), ['NAME', 'HOLDER', 'AGE']);
    assert.deepEqual(await header(['get', 'events']), ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    const wide = await header(['get', 'events', '-o', 'wide']);
    assert.ok(wide.length > 5, `wide adds priority columns: ${wide.join(' | ')}`);
    const rows = (await k(['get', 'configmaps'])).split('\n');
    assert.match(rows[1], /^c\s+1\s+\d+s$/);
    assert.match((await k(['get', 'leases'])).split('\n')[1], /^l\s+me\s+/);
  });

  it('Table over HTTP: column definitions, cells, includeObject', async () => {
    const accept = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' };
    const t = await s.request('GET', '/api/v1/namespaces/default/configmaps?includeObject=None', {
      headers: accept,
    });
    assert.equal(t.json.kind, 'Table');
    assert.equal(t.json.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(
      t.json.columnDefinitions.map((c: any) => c.name),
      ['Name', 'Data', 'Age'],
    );
    assert.equal(t.json.rows[0].cells[0], 'c');
    assert.equal(t.json.rows[0].object, undefined);
    const withMeta = await s.request('GET', '/api/v1/namespaces/default/configmaps/c', { headers: accept });
    assert.equal(withMeta.json.rows[0].object.kind, 'PartialObjectMetadata');
    const only = await s.request('GET', '/api/v1/namespaces/default/configmaps', {
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    assert.equal(only.status, 200);
    const notServed = await s.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'z' } },
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    assert.equal(notServed.status, 406);
  });

  it('PartialObjectMetadata and PartialObjectMetadataList', async () => {
    const one = await s.request('GET', '/api/v1/namespaces/default/configmaps/c', {
      headers: { accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io' },
    });
    assert.equal(one.json.kind, 'PartialObjectMetadata');
    assert.equal(one.json.metadata.name, 'c');
    assert.equal(one.json.data, undefined);
    const list = await s.request('GET', '/api/v1/namespaces/default/configmaps', {
      headers: { accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' },
    });
    assert.equal(list.json.kind, 'PartialObjectMetadataList');
    assert.ok(list.json.metadata.resourceVersion);
    assert.equal(list.json.items[0].kind, 'PartialObjectMetadata');
  });

  it('kubectl get -w prints table rows as changes stream', async () => {
    const { spawn } = await import('node:child_process');
    const { kubectlBinary } = await import('./support/kubectl.js');
    const child = spawn(await kubectlBinary(), ['--kubeconfig', s.kubeconfig, 'get', 'configmaps', '-w'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    try {
      const deadline = Date.now() + 15_000;
      while (!/^NAME\s+DATA\s+AGE/m.test(out) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      await s.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'streamed-row' },
          data: { a: '1', b: '2' },
        },
      });
      while (!/^streamed-row\s+2\s+\d+s$/m.test(out) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      assert.match(out, /^streamed-row\s+2\s+\d+s$/m);
    } finally {
      child.kill();
    }
  });
});
