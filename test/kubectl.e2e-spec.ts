/** The real kubectl 1.32 against the real server: the first slice's "done when" list. */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { kubectl as runKubectl } from './support/kubectl.js';
import { startServer } from './support/server.js';
import { useServer } from './support/use-server.js';

describe('kubectl', () => {
  const s = useServer();
  const k = async (args: string[], input?: string) => {
    const r = await runKubectl(args, { kubeconfig: s.kubeconfig, input, timeoutMs: 60_000 });
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed:\n${r.stderr}\n${r.stdout}`);
    return r.stdout;
  };

  it('get ns lists the built-in namespaces', async () => {
    const out = await k(['get', 'ns', '-o', 'name']);
    assert.deepEqual(out.trim().split('\n').sort(), [
      'namespace/default',
      'namespace/kube-node-lease',
      'namespace/kube-public',
      'namespace/kube-system',
    ]);
  });

  it('create ns, create configmap --from-literal, get -o yaml / -o json', async () => {
    await k(['create', 'ns', 'team-a']);
    await k([
      'create',
      'configmap',
      'settings',
      '-n',
      'team-a',
      '--from-literal=color=blue',
      '--from-literal=size=2',
    ]);
    const y = parseYaml(await k(['get', 'cm', 'settings', '-n', 'team-a', '-o', 'yaml']));
    assert.deepEqual(y.data, { color: 'blue', size: '2' });
    assert.equal(y.metadata.namespace, 'team-a');
    const j = JSON.parse(await k(['get', 'cm', '-n', 'team-a', '-o', 'json']));
    assert.equal(j.kind, 'List');
    assert.deepEqual(
      j.items.map((i: any) => i.metadata.name).filter((n: string) => n !== 'kube-root-ca.crt'),
      ['settings'],
    );
  });

  it('create -f a multi-document YAML, then replace -f', async () => {
    const file = path.join(s.dataDir, 'multi.yaml');
    const docs = (color: string) =>
      [
        'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: multi\n',
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\n  namespace: multi\ndata:\n  color: ${color}\n`,
        `apiVersion: v1\nkind: Secret\nmetadata:\n  name: two\n  namespace: multi\nstringData:\n  password: ${color}\n`,
        `apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: three\n  namespace: multi\nspec:\n  holderIdentity: ${color}\n`,
      ].join('---\n');
    await writeFile(file, docs('red'));
    const created = await k(['create', '-f', file]);
    assert.match(created, /namespace\/multi created/);
    assert.match(created, /configmap\/one created/);
    assert.match(created, /secret\/two created/);
    assert.match(created, /lease.coordination.k8s.io\/three created/);
    await writeFile(file, docs('green').split('---\n').slice(1).join('---\n'));
    const replaced = await k(['replace', '-f', file]);
    assert.match(replaced, /configmap\/one replaced/);
    assert.equal(await k(['get', 'cm', 'one', '-n', 'multi', '-o', 'jsonpath={.data.color}']), 'green');
    assert.equal(
      await k(['get', 'lease', 'three', '-n', 'multi', '-o', 'jsonpath={.spec.holderIdentity}']),
      'green',
    );
    const secret = JSON.parse(await k(['get', 'secret', 'two', '-n', 'multi', '-o', 'json']));
    assert.equal(Buffer.from(secret.data.password, 'base64').toString(), 'green');
  });

  it('delete objects and a namespace with contents', async () => {
    await k(['create', 'ns', 'gone']);
    await k(['create', 'configmap', 'c1', '-n', 'gone', '--from-literal=a=b']);
    await k(['create', 'configmap', 'c2', '-n', 'gone', '--from-literal=a=b']);
    assert.match(await k(['delete', 'configmap', 'c1', '-n', 'gone']), /configmap "c1" deleted/);
    assert.match(await k(['delete', 'ns', 'gone', '--timeout=30s']), /namespace "gone" deleted/);
    const r = await runKubectl(['get', 'ns', 'gone'], { kubeconfig: s.kubeconfig });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /NotFound|not found/);
  });

  it('api-resources shows names, short names, kinds and verbs', async () => {
    const out = await k(['api-resources', '-o', 'wide']);
    const line = (name: string) => out.split('\n').find((l) => l.startsWith(`${name} `)) ?? '';
    assert.match(
      line('configmaps'),
      /configmaps\s+cm\s+v1\s+true\s+ConfigMap\s+create,delete,deletecollection,get,list,patch,update,watch/,
    );
    assert.match(
      line('namespaces'),
      /namespaces\s+ns\s+v1\s+false\s+Namespace\s+create,delete,get,list,patch,update,watch/,
    );
    assert.match(line('leases'), /leases\s+coordination.k8s.io\/v1\s+true\s+Lease/);
    assert.match(line('serviceaccounts'), /serviceaccounts\s+sa\s+v1\s+true\s+ServiceAccount/);
    assert.match(line('events'), /events\s+ev\s+v1\s+true\s+Event/);
    assert.match(line('secrets'), /secrets\s+v1\s+true\s+Secret/);
  });

  it('explain configmap.data', async () => {
    const out = await k(['explain', 'configmap.data']);
    assert.match(out, /KIND:\s+ConfigMap/);
    assert.match(out, /VERSION:\s+v1/);
    assert.match(out, /FIELD:\s+data <map\[string\]string>/);
  });

  it('get --raw /version', async () => {
    const v = JSON.parse(await k(['get', '--raw', '/version']));
    assert.equal(v.major, '1');
    assert.equal(v.minor, '32');
    assert.match(v.gitVersion, /^v1\.32\./);
  });

  it('create --dry-run=server persists nothing', async () => {
    const out = await k([
      'create',
      'configmap',
      'dry',
      '--from-literal=a=b',
      '--dry-run=server',
      '-o',
      'yaml',
    ]);
    assert.match(out, /name: dry/);
    const r = await runKubectl(['get', 'cm', 'dry'], { kubeconfig: s.kubeconfig });
    assert.notEqual(r.code, 0);
  });

  it('objects survive a restart on the same data dir; a second server on the same database sees them', async () => {
    await k(['create', 'configmap', 'durable', '--from-literal=a=b']);
    await s.restart({ dataDir: s.dataDir });
    assert.equal(await k(['get', 'cm', 'durable', '-o', 'jsonpath={.data.a}']), 'b');
    const second = await startServer({ databaseUrl: s.db.url });
    try {
      const r = await runKubectl(['get', 'cm', 'durable', '-o', 'jsonpath={.data.a}'], {
        kubeconfig: second.kubeconfig,
      });
      assert.equal(r.stdout, 'b');
      await runKubectl(['create', 'configmap', 'from-second', '--from-literal=x=y'], {
        kubeconfig: second.kubeconfig,
      });
      assert.equal(await k(['get', 'cm', 'from-second', '-o', 'jsonpath={.data.x}']), 'y');
    } finally {
      await second.stop();
    }
  });
});
