/**
 * RBAC with the real kubectl 1.32 against the real server (default --authorization-mode Node,RBAC): users
 * are acted as with `--as` by the admin, who then needs nothing but the impersonation it holds as a master.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kubectl } from './support/kubectl.js';
import { testDatabase } from './support/database.js';
import { startServer } from './support/server.js';
import { useServer } from './support/use-server.js';

/** Retries until `check` passes: the policy reaches the authorizer through the watch cache, not at once. */
async function settled(check: () => Promise<unknown>): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      await check();
      return;
    } catch (e) {
      if (i >= 50) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('RBAC with kubectl', () => {
  const s = useServer();
  const run = (args: string[], input?: string) =>
    kubectl(args, { kubeconfig: s.kubeconfig, timeoutMs: 60_000, input });
  const ok = async (args: string[], input?: string) => {
    const r = await run(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed:\n${r.stderr}\n${r.stdout}`);
    return r.stdout;
  };
  const refused = async (args: string[], message: RegExp) => {
    const r = await run(args);
    assert.notEqual(r.code, 0, `kubectl ${args.join(' ')} succeeded:\n${r.stdout}`);
    assert.match(r.stderr, message);
  };

  it('a new user is denied everything but discovery and the public paths', async () => {
    await ok(['create', 'namespace', 'team']);
    await refused(
      ['--as=alice', 'get', 'configmaps', '-n', 'team'],
      /Error from server \(Forbidden\): configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "team"/,
    );
    assert.match(await ok(['--as=alice', 'api-versions']), /^rbac\.authorization\.k8s\.io\/v1$/m);
    assert.match(await ok(['--as=alice', 'get', '--raw', '/version']), /gitVersion/);
  });

  it('a Role and RoleBinding grant exactly one verb on one resource, and resourceNames narrow it', async () => {
    await ok(['create', 'configmap', 'one', '-n', 'team', '--from-literal=a=b']);
    await ok(['create', 'configmap', 'two', '-n', 'team', '--from-literal=a=b']);
    await ok(['create', 'role', 'cm-reader', '-n', 'team', '--verb=get', '--resource=configmaps']);
    await ok(['create', 'rolebinding', 'alice-cm', '-n', 'team', '--role=cm-reader', '--user=alice']);
    await settled(async () => {
      assert.match(
        await ok(['--as=alice', 'get', 'configmap', 'one', '-n', 'team', '-o', 'name']),
        /configmap\/one/,
      );
    });
    await refused(['--as=alice', 'get', 'configmaps', '-n', 'team'], /cannot list resource "configmaps"/);
    // kubectl's columns
    const roles = await ok(['get', 'role', 'cm-reader', '-n', 'team']);
    assert.match(roles, /^NAME\s+CREATED AT\ncm-reader\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/);
    const bindings = await ok(['get', 'rolebinding', 'alice-cm', '-n', 'team', '-o', 'wide']);
    assert.match(
      bindings,
      /^NAME\s+ROLE\s+AGE\s+USERS\s+GROUPS\s+SERVICEACCOUNTS\nalice-cm\s+Role\/cm-reader\s+\S+\s+alice\s*\n$/,
    );
    await refused(
      ['--as=alice', 'delete', 'configmap', 'one', '-n', 'team'],
      /cannot delete resource "configmaps"/,
    );
    await refused(['--as=alice', 'get', 'secrets', '-n', 'team'], /cannot list resource "secrets"/);
    await refused(['--as=alice', 'get', 'configmap', 'one', '-n', 'default'], /in the namespace "default"/);

    await ok([
      'create',
      'role',
      'one-only',
      '-n',
      'team',
      '--verb=get,list',
      '--resource=configmaps',
      '--resource-name=one',
    ]);
    await ok(['create', 'rolebinding', 'bob-one', '-n', 'team', '--role=one-only', '--user=bob']);
    await settled(async () => {
      await ok(['--as=bob', 'get', 'configmap', 'one', '-n', 'team']);
    });
    await refused(['--as=bob', 'get', 'configmap', 'two', '-n', 'team'], /configmaps "two" is forbidden/);
    // a list is allowed by a name only when its field selector pins that name
    await refused(['--as=bob', 'get', 'configmaps', '-n', 'team'], /cannot list resource "configmaps"/);
    assert.match(
      await ok([
        '--as=bob',
        'get',
        'configmaps',
        '-n',
        'team',
        '--field-selector=metadata.name=one',
        '-o',
        'name',
      ]),
      /^configmap\/one$/m,
    );
  });

  it('a ClusterRole bound by a RoleBinding grants in that namespace only', async () => {
    await ok(['create', 'namespace', 'other']);
    await ok(['create', 'clusterrole', 'secret-reader', '--verb=get,list', '--resource=secrets']);
    await ok([
      'create',
      'rolebinding',
      'carol-secrets',
      '-n',
      'team',
      '--clusterrole=secret-reader',
      '--user=carol',
    ]);
    await settled(async () => {
      await ok(['--as=carol', 'get', 'secrets', '-n', 'team']);
    });
    await refused(['--as=carol', 'get', 'secrets', '-n', 'other'], /in the namespace "other"/);
    await refused(['--as=carol', 'get', 'secrets', '-A'], /at the cluster scope/);
  });

  it('aggregation: a labelled ClusterRole’s rules appear in view', async () => {
    await ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: {
          name: 'gadget-viewer',
          labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' },
        },
        rules: [{ apiGroups: ['example.com'], resources: ['gadgets'], verbs: ['get', 'list', 'watch'] }],
      }),
    );
    await settled(async () => {
      const view = await ok(['get', 'clusterrole', 'view', '-o', 'json']);
      assert.match(view, /gadgets/);
      assert.match(view, /"configmaps"/);
    });
  });

  it('escalation is refused, then allowed with escalate and bind; roleRef cannot change', async () => {
    await ok([
      'create',
      'role',
      'role-writer',
      '-n',
      'team',
      '--verb=create,get,update',
      '--resource=roles,rolebindings',
    ]);
    await ok(['create', 'rolebinding', 'dave-writer', '-n', 'team', '--role=role-writer', '--user=dave']);
    await settled(async () => {
      await ok(['--as=dave', 'get', 'roles', 'role-writer', '-n', 'team']);
    });
    await refused(
      ['--as=dave', 'create', 'role', 'secrets-all', '-n', 'team', '--verb=get', '--resource=secrets'],
      /roles\.rbac\.authorization\.k8s\.io "secrets-all" is forbidden: user "dave" \(groups=\["system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\[""\], Resources:\["secrets"\], Verbs:\["get"\]\}/,
    );
    // what dave holds he may grant
    await ok(['--as=dave', 'create', 'role', 'roles-get', '-n', 'team', '--verb=get', '--resource=roles']);
    await refused(
      [
        '--as=dave',
        'create',
        'rolebinding',
        'dave-admin',
        '-n',
        'team',
        '--clusterrole=admin',
        '--user=dave',
      ],
      /rolebindings\.rbac\.authorization\.k8s\.io "dave-admin" is forbidden: user "dave" .* is attempting to grant RBAC permissions not currently held/,
    );
    await ok([
      'create',
      'role',
      'escalator',
      '-n',
      'team',
      '--verb=escalate,bind',
      '--resource=roles,clusterroles',
    ]);
    await ok(['create', 'rolebinding', 'dave-escalator', '-n', 'team', '--role=escalator', '--user=dave']);
    await settled(async () => {
      await ok([
        '--as=dave',
        'create',
        'role',
        'secrets-all',
        '-n',
        'team',
        '--verb=get',
        '--resource=secrets',
      ]);
    });
    await ok([
      '--as=dave',
      'create',
      'rolebinding',
      'dave-admin',
      '-n',
      'team',
      '--clusterrole=admin',
      '--user=dave',
    ]);

    const binding = JSON.parse(await ok(['get', 'rolebinding', 'alice-cm', '-n', 'team', '-o', 'json']));
    binding.roleRef.name = 'one-only';
    const r = await run(['replace', '-f', '-'], JSON.stringify(binding));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /roleRef: Invalid value: .*: cannot change roleRef/);
  });

  it('kubectl auth reconcile creates and completes roles and bindings', async () => {
    const manifest = `
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reconciled, namespace: team}
rules:
- {apiGroups: [""], resources: [configmaps], verbs: [list]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: reconciled, namespace: team}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reconciled}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: erin}
`;
    await ok(['auth', 'reconcile', '-f', '-'], manifest);
    await settled(async () => {
      await ok(['--as=erin', 'get', 'configmaps', '-n', 'team']);
    });
    const out = await ok(['auth', 'reconcile', '-f', '-'], manifest);
    assert.match(out, /role\.rbac\.authorization\.k8s\.io\/reconciled reconciled/);
  });

  it('impersonation is allowed by an RBAC grant of impersonate, and refused without', async () => {
    await ok(['create', 'serviceaccount', 'frank', '-n', 'team']);
    const token = (await ok(['create', 'token', 'frank', '-n', 'team'])).trim();
    const asFrank = ['--token', token];
    await refused(
      [...asFrank, '--as=alice', 'get', 'configmap', 'one', '-n', 'team'],
      /users "alice" is forbidden: User "system:serviceaccount:team:frank" cannot impersonate resource "users" in API group "" at the cluster scope/,
    );
    await ok([
      'create',
      'clusterrole',
      'impersonate-alice',
      '--verb=impersonate',
      '--resource=users',
      '--resource-name=alice',
    ]);
    await ok([
      'create',
      'clusterrolebinding',
      'frank-impersonates',
      '--clusterrole=impersonate-alice',
      '--serviceaccount=team:frank',
    ]);
    await settled(async () => {
      await ok([...asFrank, '--as=alice', 'get', 'configmap', 'one', '-n', 'team']);
    });
    await refused(
      [...asFrank, '--as=bob', 'get', 'configmap', 'one', '-n', 'team'],
      /users "bob" is forbidden/,
    );
  });

  it('kubectl auth can-i answers from RBAC: verbs, names, namespaces, non-resource URLs, --list', async () => {
    await ok(['create', 'namespace', 'canis']);
    await ok(['create', 'role', 'cm-rw', '-n', 'canis', '--verb=get,list', '--resource=configmaps']);
    await ok([
      'create',
      'role',
      'one-secret',
      '-n',
      'canis',
      '--verb=get',
      '--resource=secrets',
      '--resource-name=s1',
    ]);
    await ok(['create', 'rolebinding', 'carol-cm', '-n', 'canis', '--role=cm-rw', '--user=carol']);
    await ok(['create', 'rolebinding', 'carol-s1', '-n', 'canis', '--role=one-secret', '--user=carol']);
    const canI = (...args: string[]) => run(['--as=carol', 'auth', 'can-i', ...args]);
    await settled(async () =>
      assert.equal((await canI('list', 'configmaps', '-n', 'canis')).stdout, 'yes\n'),
    );
    const answers: [string[], number, string][] = [
      [['get', 'configmaps', '-n', 'canis'], 0, 'yes'],
      [['delete', 'configmaps', '-n', 'canis'], 1, 'no'],
      [['list', 'configmaps', '-n', 'default'], 1, 'no'],
      [['get', 'secrets/s1', '-n', 'canis'], 0, 'yes'],
      [['get', 'secrets/s2', '-n', 'canis'], 1, 'no'],
      [['list', 'secrets', '-n', 'canis'], 1, 'no'],
      [['get', '/version'], 0, 'yes'],
      [['get', '/metrics'], 1, 'no'],
      [['create', 'selfsubjectreviews.authentication.k8s.io'], 0, 'yes'],
    ];
    for (const [args, code, answer] of answers) {
      const r = await canI(...args);
      assert.deepEqual([r.code, r.stdout.trim()], [code, answer], `can-i ${args.join(' ')}: ${r.stderr}`);
    }
    const list = await canI('--list', '-n', 'canis');
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/m);
    assert.match(list.stdout, /^configmaps\s+\[\]\s+\[\]\s+\[get list\]$/m);
    assert.match(list.stdout, /^secrets\s+\[\]\s+\[s1\]\s+\[get\]$/m);
    assert.match(list.stdout, /^selfsubjectreviews\.authentication\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/m);
    assert.match(list.stdout, /^\s+\[\/version\]\s+\[\]\s+\[get\]$/m);
    const elsewhere = await canI('--list', '-n', 'default');
    assert.doesNotMatch(elsewhere.stdout, /^configmaps/m);
  });

  it("Node: a node may write its own Lease and not another node's", async () => {
    const asNode = ['--as=system:node:n1', '--as-group=system:nodes'];
    const lease = (name: string) =>
      JSON.stringify({
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name, namespace: 'kube-node-lease' },
        spec: { holderIdentity: name, leaseDurationSeconds: 40 },
      });
    await ok([...asNode, 'create', '-f', '-'], lease('n1'));
    await ok([...asNode, 'get', 'lease', 'n1', '-n', 'kube-node-lease']);
    await ok(['create', '-f', '-'], lease('n2'));
    await refused(
      [...asNode, 'get', 'lease', 'n2', '-n', 'kube-node-lease'],
      /leases\.coordination\.k8s\.io "n2" is forbidden: User "system:node:n1" cannot get resource "leases" in API group "coordination\.k8s\.io" in the namespace "kube-node-lease": can only access node lease with the same name as the requesting node/,
    );
    // without the group it is no node
    await refused(['--as=system:node:n1', 'get', 'lease', 'n1', '-n', 'kube-node-lease'], /forbidden/);
  });

  it('default roles: an edit is undone at the next start; autoupdate "false" is left alone', async () => {
    const view = JSON.parse(await ok(['get', 'clusterrole', 'system:public-info-viewer', '-o', 'json']));
    view.rules = [{ verbs: ['get'], nonResourceURLs: ['/version'] }];
    await ok(['replace', '-f', '-'], JSON.stringify(view));
    const discovery = JSON.parse(await ok(['get', 'clusterrole', 'system:discovery', '-o', 'json']));
    discovery.rules = [{ verbs: ['get'], nonResourceURLs: ['/api'] }];
    discovery.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate'] = 'false';
    await ok(['replace', '-f', '-'], JSON.stringify(discovery));
    // a default binding made again with another role is made anew with its own
    await ok(['delete', 'clusterrolebinding', 'system:basic-user']);
    await ok([
      'create',
      'clusterrolebinding',
      'system:basic-user',
      '--clusterrole=view',
      '--group=system:authenticated',
    ]);
    await s.restart({ dataDir: s.dataDir });
    const basic = JSON.parse(await ok(['get', 'clusterrolebinding', 'system:basic-user', '-o', 'json']));
    assert.equal(basic.roleRef.name, 'system:basic-user');
    const after = JSON.parse(await ok(['get', 'clusterrole', 'system:public-info-viewer', '-o', 'json']));
    assert.ok(JSON.stringify(after.rules).includes('/healthz'), JSON.stringify(after.rules));
    const kept = JSON.parse(await ok(['get', 'clusterrole', 'system:discovery', '-o', 'json']));
    assert.deepEqual(kept.rules, [{ verbs: ['get'], nonResourceURLs: ['/api'] }]);
  });
});

describe('default policy with replicas starting together on one database', () => {
  it('both start, and each default exists once, as it should be', async () => {
    const db = await testDatabase();
    const servers = await Promise.all([
      startServer({ databaseUrl: db.url }),
      startServer({ databaseUrl: db.url }),
    ]);
    try {
      for (const s of servers) {
        const r = await s.request('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/system:discovery');
        assert.equal(r.status, 200, r.text);
        assert.ok(JSON.stringify(r.json.rules).includes('/openapi/*'));
      }
      const list = await servers[0].request('GET', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings');
      const names = list.json.items.map((b: { metadata: { name: string } }) => b.metadata.name);
      assert.equal(names.filter((n: string) => n === 'cluster-admin').length, 1);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await db.drop();
    }
  });
});
