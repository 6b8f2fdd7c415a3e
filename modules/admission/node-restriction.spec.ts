/**
 * NodeRestriction through the generic store over a real PostgresStore: each rule lets node n1 write its own
 * objects and refuses n2's with kube's 403 and message; other users are not its concern.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type postgres from 'postgres';
import { testDatabase, type TestDatabase } from '../../test/support/database.js';
import {
  ApiError,
  parseRequestInfo,
  requestContext,
  systemUser,
  type KubeObject,
  type RequestContext,
  type UserInfo,
} from '../api/index.js';
import { leaseDefinition, nodeDefinition, podDefinition, serviceAccountDefinition } from '../kinds/index.js';
import { GenericStore } from '../registry/index.js';
import { connect, migrate, PostgresStore } from '../storage/index.js';
import { AdmissionChain } from './chain.js';
import { NodeRestriction } from './node-restriction.js';

const n1: UserInfo = { name: 'system:node:n1', uid: '', groups: ['system:nodes', 'system:authenticated'] };
const admin = (): RequestContext => requestContext(parseRequestInfo('POST', '/api/v1/pods', {}), systemUser);
const asNode = (user: UserInfo = n1): RequestContext =>
  requestContext(parseRequestInfo('POST', '/api/v1/pods', {}), user);

const node = (name: string, extra: Partial<KubeObject> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  spec: {},
  ...extra,
});
const pod = (name: string, nodeName: string, spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'ns' },
  spec: { nodeName, containers: [{ name: 'c', image: 'i' }], ...spec },
});
const lease = (name: string, namespace = 'kube-node-lease'): KubeObject => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name, namespace },
  spec: { holderIdentity: name },
});

async function refused(write: Promise<unknown>, message: string, code = 403): Promise<void> {
  await assert.rejects(write, (e: unknown) => {
    assert.ok(e instanceof ApiError, String(e));
    assert.equal(e.code, code);
    assert.equal(e.message, message);
    return true;
  });
}

describe('NodeRestriction', () => {
  let db: TestDatabase;
  let sql: postgres.Sql;
  let generic: GenericStore;
  let n1Uid = '';

  before(async () => {
    db = await testDatabase();
    await migrate(db.url);
    sql = connect(db.url, 4);
    const store = new PostgresStore(sql);
    generic = new GenericStore(store, new AdmissionChain([new NodeRestriction(store)]));
    n1Uid = (await generic.create(admin(), nodeDefinition, '', node('n1'), {})).metadata.uid!;
    await generic.create(admin(), nodeDefinition, '', node('n2'), {});
    await generic.create(admin(), podDefinition, 'ns', pod('mine', 'n1'), {});
    await generic.create(admin(), podDefinition, 'ns', pod('theirs', 'n2'), {});
    await generic.create(admin(), leaseDefinition, 'kube-node-lease', lease('n2'), {});
  });

  after(async () => {
    await sql?.end();
    await db?.drop();
  });

  describe('pods', () => {
    const mirror = (name: string, nodeName = 'n1', spec: Record<string, unknown> = {}): KubeObject => {
      const p = pod(name, nodeName, spec);
      p.metadata.annotations = { 'kubernetes.io/config.mirror': 'hash' };
      p.metadata.ownerReferences = [
        { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: n1Uid, controller: true },
      ];
      return p;
    };

    it('a mirror pod bound to itself, owned by its Node, is created', async () => {
      await generic.create(asNode(), podDefinition, 'ns', mirror('static'), {});
    });

    it('a pod without the mirror annotation is refused', async () => {
      await refused(
        generic.create(asNode(), podDefinition, 'ns', pod('plain', 'n1'), {}),
        'pods "plain" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods',
      );
    });

    it('a mirror pod bound to another node, or not owned by its Node, is refused', async () => {
      await refused(
        generic.create(asNode(), podDefinition, 'ns', mirror('m2', 'n2'), {}),
        'pods "m2" is forbidden: node "n1" can only create pods with spec.nodeName set to itself',
      );
      const unowned = mirror('m3');
      delete unowned.metadata.ownerReferences;
      await refused(
        generic.create(asNode(), podDefinition, 'ns', unowned, {}),
        'pods "m3" is forbidden: node "n1" can only create pods with an owner reference set to itself',
      );
      const wrongUid = mirror('m4');
      wrongUid.metadata.ownerReferences![0].uid = 'other';
      await refused(
        generic.create(asNode(), podDefinition, 'ns', wrongUid, {}),
        `pods "m4" is forbidden: node n1 UID mismatch: expected other got ${n1Uid}`,
      );
    });

    it('a mirror pod that names a secret, configmap, account or claim is refused', async () => {
      const env = (valueFrom: Record<string, unknown>) => ({
        containers: [{ name: 'c', image: 'i', env: [{ name: 'E', valueFrom }] }],
      });
      const cases: [Record<string, unknown>, string][] = [
        [{ serviceAccountName: 'robot' }, 'reference a service account'],
        [env({ secretKeyRef: { name: 's', key: 'k' } }), 'reference secrets'],
        [env({ configMapKeyRef: { name: 'c', key: 'k' } }), 'reference configmaps'],
        [
          {
            volumes: [
              { name: 'v', projected: { sources: [{ clusterTrustBundle: { name: 'b', path: 'p' } }] } },
            ],
          },
          'reference clustertrustbundles',
        ],
        [
          { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }] },
          'reference persistentvolumeclaims',
        ],
      ];
      for (const [spec, what] of cases)
        await refused(
          generic.create(asNode(), podDefinition, 'ns', mirror('m5', 'n1', spec), {}),
          `pods "m5" is forbidden: node "n1" can not create pods that ${what}`,
        );
    });

    it('a pod is updated by no node, deleted only when bound to itself', async () => {
      await refused(
        generic.update(
          asNode(),
          podDefinition,
          'ns',
          'mine',
          (p) => ({ ...p!, metadata: { ...p!.metadata, labels: { a: 'b' } } }),
          {},
        ),
        'pods "mine" is forbidden: unexpected operation "UPDATE", node "n1" can only create and delete mirror pods',
      );
      await refused(
        generic.delete(asNode(), podDefinition, 'ns', 'theirs', {}),
        'pods "theirs" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself',
      );
      await generic.delete(asNode(), podDefinition, 'ns', 'static', {});
    });

    it('pod status: only of pods bound to itself, and no label changes through it', async () => {
      const status = (p: KubeObject | undefined) => ({ ...p!, status: { phase: 'Running' } });
      await generic.update(asNode(), podDefinition, 'ns', 'mine', status, { subresource: 'status' });
      await refused(
        generic.update(asNode(), podDefinition, 'ns', 'theirs', status, { subresource: 'status' }),
        'pods "theirs" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself',
      );
      await refused(
        generic.update(
          asNode(),
          podDefinition,
          'ns',
          'mine',
          (p) => ({ ...status(p), metadata: { ...p!.metadata, labels: { x: 'y' } } }),
          { subresource: 'status' },
        ),
        'pods "mine" is forbidden: node "n1" cannot update labels through pod status',
      );
    });

    it('eviction: only of pods bound to itself; 404 for a pod that does not exist', async () => {
      const eviction = (name: string): KubeObject => ({
        apiVersion: 'policy/v1',
        kind: 'Eviction',
        metadata: { name, namespace: 'ns' },
      });
      await generic.admitSubresourceCreate(
        asNode(),
        podDefinition,
        'ns',
        'mine',
        'eviction',
        eviction('mine'),
      );
      await refused(
        generic.admitSubresourceCreate(
          asNode(),
          podDefinition,
          'ns',
          'theirs',
          'eviction',
          eviction('theirs'),
        ),
        'pods "theirs" is forbidden: node n1 can only evict pods with spec.nodeName set to itself',
      );
      await refused(
        generic.admitSubresourceCreate(asNode(), podDefinition, 'ns', 'gone', 'eviction', eviction('gone')),
        'pods "gone" not found',
        404,
      );
    });

    it('any other pod subresource is refused', async () => {
      await refused(
        generic.admitSubresourceCreate(asNode(), podDefinition, 'ns', 'mine', 'binding', pod('mine', 'n1')),
        `pods "mine" is forbidden: unexpected pod subresource "binding", only 'status' and 'eviction' are allowed`,
      );
    });
  });

  describe('nodes', () => {
    const relabel = (labels: Record<string, string>) => (n: KubeObject | undefined) => ({
      ...n!,
      metadata: { ...n!.metadata, labels: { ...n!.metadata.labels, ...labels } },
    });

    it('its own Node and its status are written; another is refused', async () => {
      await generic.update(asNode(), nodeDefinition, '', 'n1', relabel({ 'example.com/rack': 'r1' }), {});
      await generic.update(
        asNode(),
        nodeDefinition,
        '',
        'n1',
        (n) => ({ ...n!, status: { phase: 'Running' } }),
        {
          subresource: 'status',
        },
      );
      await refused(
        generic.update(asNode(), nodeDefinition, '', 'n2', relabel({ a: 'b' }), {}),
        'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
      );
      await refused(
        generic.update(asNode(), nodeDefinition, '', 'n2', (n) => n!, { subresource: 'status' }),
        'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
      );
      await refused(
        generic.create(asNode(), nodeDefinition, '', node('n3'), {}),
        'nodes "n3" is forbidden: node "n1" is not allowed to modify node "n3"',
      );
    });

    it('its taints are not its own to change', async () => {
      await refused(
        generic.update(
          asNode(),
          nodeDefinition,
          '',
          'n1',
          (n) => ({ ...n!, spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } }),
          {},
        ),
        'nodes "n1" is forbidden: node "n1" is not allowed to modify taints',
      );
    });

    it('kubelet labels are its own; node-restriction and other kubernetes.io labels are not', async () => {
      await generic.update(
        asNode(),
        nodeDefinition,
        '',
        'n1',
        relabel({
          'topology.kubernetes.io/zone': 'z',
          'node.kubernetes.io/instance-type': 't',
          'kubelet.kubernetes.io/x': 'y',
        }),
        {},
      );
      await refused(
        generic.update(
          asNode(),
          nodeDefinition,
          '',
          'n1',
          relabel({
            'node-restriction.kubernetes.io/pool': 'gold',
            'node-role.kubernetes.io/control-plane': '',
          }),
          {},
        ),
        'nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/pool, node-role.kubernetes.io/control-plane',
      );
    });

    it('a Node registered with a restricted label is refused', async () => {
      await generic.delete(admin(), nodeDefinition, '', 'n1', {});
      await refused(
        generic.create(
          asNode(),
          nodeDefinition,
          '',
          node('n1', { metadata: { name: 'n1', labels: { 'example.k8s.io/gpu': 'yes' } } }),
          {},
        ),
        'nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: example.k8s.io/gpu',
      );
      await generic.create(asNode(), nodeDefinition, '', node('n1'), {});
    });
  });

  describe('leases', () => {
    it('its own Lease in kube-node-lease, created and renewed; not another', async () => {
      await generic.create(asNode(), leaseDefinition, 'kube-node-lease', lease('n1'), {});
      await generic.update(asNode(), leaseDefinition, 'kube-node-lease', 'n1', (l) => l!, {});
      await refused(
        generic.create(asNode(), leaseDefinition, 'kube-node-lease', lease('n3'), {}),
        'leases.coordination.k8s.io "n3" is forbidden: can only access node lease with the same name as the requesting node',
      );
      await refused(
        generic.update(asNode(), leaseDefinition, 'kube-node-lease', 'n2', (l) => l!, {}),
        'leases.coordination.k8s.io "n2" is forbidden: can only access node lease with the same name as the requesting node',
      );
      await refused(
        generic.create(asNode(), leaseDefinition, 'default', lease('n1', 'default'), {}),
        'leases.coordination.k8s.io "n1" is forbidden: can only access leases in the "kube-node-lease" system namespace',
      );
    });
  });

  describe('serviceaccounts/token', () => {
    const request = (ref?: Record<string, unknown>): KubeObject => ({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: {},
      spec: { audiences: [], boundObjectRef: ref },
    });
    const token = (ref?: Record<string, unknown>) =>
      generic.admitSubresourceCreate(
        asNode(),
        serviceAccountDefinition,
        'ns',
        'default',
        'token',
        request(ref),
      );

    it('only bound to a pod on the node, with its uid', async () => {
      const mine = await generic.get(podDefinition, 'ns', 'mine');
      const theirs = await generic.get(podDefinition, 'ns', 'theirs');
      await token({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: mine.metadata.uid });
      const forbidden = (why: string) => `serviceaccounts "default" is forbidden: ${why}`;
      await refused(token(), forbidden('node requested token not bound to a pod'));
      await refused(
        token({ apiVersion: 'v1', kind: 'Secret', name: 's', uid: 'u' }),
        forbidden('node requested token not bound to a pod'),
      );
      await refused(
        token({ apiVersion: 'v1', kind: 'Pod', name: 'mine' }),
        forbidden('node requested token with a pod binding without a uid'),
      );
      await refused(
        token({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'stale' }),
        forbidden(
          'the UID in the bound object reference (stale) does not match the UID in record. The object might have been deleted and then recreated',
        ),
      );
      await refused(
        token({ apiVersion: 'v1', kind: 'Pod', name: 'theirs', uid: theirs.metadata.uid }),
        forbidden('node requested token bound to a pod scheduled on a different node'),
      );
    });
  });

  it('requests of other users, and of a node without a name, are its concern only as kube has it', async () => {
    const alice: UserInfo = { name: 'alice', uid: '', groups: ['system:nodes'] };
    await generic.create(asNode(alice), podDefinition, 'ns', pod('by-alice', 'n2'), {});
    await refused(
      generic.update(asNode({ ...n1, name: 'system:node:' }), nodeDefinition, '', 'n1', (n) => n!, {}),
      'nodes "n1" is forbidden: could not determine node from user "system:node:"',
    );
  });
});
