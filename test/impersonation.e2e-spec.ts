/**
 * Impersonation with the real kubectl 1.32 (`--as`, `--as-group`) against the real server: the admin may act
 * as another user with groups, and the impersonated user is the one authorized (system:anonymous is refused).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kubectl } from './support/kubectl.js';
import { grant, group } from './support/rbac.js';
import { useServer } from './support/use-server.js';

describe('kubectl --as / --as-group', () => {
  const s = useServer();
  const run = (args: string[]) => kubectl(args, { kubeconfig: s.kubeconfig, timeoutMs: 60_000 });
  const ok = async (args: string[]) => {
    const r = await run(args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed:\n${r.stderr}\n${r.stdout}`);
    return r.stdout;
  };

  it('the admin, plainly and as another user with groups, lists configmaps', async () => {
    // the impersonated groups are what the request is authorized as: dev may list configmaps in default
    await grant(
      s,
      'dev-configmaps',
      [group('dev')],
      [{ verbs: ['list'], apiGroups: [''], resources: ['configmaps'] }],
      'default',
    );
    await ok(['create', 'configmap', 'seen', '-n', 'default', '--from-literal=a=b']);
    // (default also holds kube-root-ca.crt)
    assert.match(await ok(['get', 'configmaps', '-n', 'default', '-o', 'name']), /^configmap\/seen$/m);
    const as = await ok([
      '--as=alice',
      '--as-group=dev',
      '--as-group=qa',
      'get',
      'configmaps',
      '-n',
      'default',
      '-o',
      'name',
    ]);
    assert.match(as, /^configmap\/seen$/m);
  });

  it('as system:anonymous it is Forbidden, unless the impersonated groups allow it', async () => {
    const r = await run(['--as=system:anonymous', 'get', 'configmaps', '-n', 'default', '-o', 'name']);
    assert.notEqual(r.code, 0, r.stdout);
    assert.match(
      r.stderr,
      /Error from server \(Forbidden\): configmaps is forbidden: User "system:anonymous" cannot list resource "configmaps" in API group "" in the namespace "default"/,
    );
    // the same user with the impersonated group system:masters: the groups are the impersonated ones
    const masters = await ok([
      '--as=system:anonymous',
      '--as-group=system:masters',
      'get',
      'configmaps',
      '-n',
      'default',
      '-o',
      'name',
    ]);
    assert.match(masters, /^configmap\/seen$/m);
  });
});
