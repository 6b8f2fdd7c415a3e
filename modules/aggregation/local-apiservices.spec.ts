/**
 * Local APIServices over real PostgreSQL and real watch caches, with two replicas on one database: the
 * served group/versions get their APIServices once, CRD ones follow the registry, users' APIServices are left
 * alone, and leftovers of group/versions no longer served are removed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type postgres from 'postgres';
import { eventually } from '../../test/support/eventually.js';
import { testDatabase, type TestDatabase } from '../../test/support/database.js';
import { kindSchema, systemContext } from '../api/index.js';
import { apiServiceDefinition, builtinDefinitions, type APIService } from '../kinds/index.js';
import { everything, GenericStore, Registry, type ResourceDefinition } from '../registry/index.js';
import { connect, migrate, PostgresStore } from '../storage/index.js';
import { WatchCache } from '../watch/index.js';
import { LocalApiServices } from './local-apiservices.js';

const LABEL = 'kube-aggregator.kubernetes.io/automanaged';

/** a kind as a CRD makes it */
function crdKind(group: string, versions: string[]): ResourceDefinition {
  return {
    group,
    versions,
    storageVersion: versions[0],
    resource: 'widgets',
    singular: 'widget',
    kind: 'Widget',
    listKind: 'WidgetList',
    scope: 'Namespaced',
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    nameRule: 'dns1123Subdomain',
    schema: kindSchema({ description: 'A test-only kind.', properties: {} }),
    description: 'A test-only kind.',
    strategy: {},
    declaredServing: true,
  };
}

interface Replica {
  sql: postgres.Sql;
  cache: WatchCache;
  registry: Registry;
  generic: GenericStore;
  local: LocalApiServices;
  logged: string[];
}

describe('LocalApiServices on two replicas', () => {
  let db: TestDatabase;
  const replicas: Replica[] = [];

  async function replica(): Promise<Replica> {
    const sql = connect(db.url, 4);
    const store = new PostgresStore(sql);
    const generic = new GenericStore(store);
    const cache = new WatchCache(store, { retentionMs: 60_000 });
    await cache.start();
    const registry = new Registry();
    for (const def of builtinDefinitions) registry.register(def);
    const logged: string[] = [];
    const local = new LocalApiServices(registry, generic, cache, (m) => logged.push(m));
    const r = { sql, cache, registry, generic, local, logged };
    replicas.push(r);
    return r;
  }

  const get = (name: string) =>
    replicas[0].generic.get(apiServiceDefinition, '', name).then(
      (o) => o as APIService,
      () => undefined,
    );
  const names = async () =>
    (await replicas[0].generic.list(apiServiceDefinition, '', everything, 'v1')).items
      .map((o) => o.metadata.name!)
      .sort();
  const idle = () => Promise.all(replicas.map((r) => r.local.idle()));
  const create = (obj: APIService) =>
    replicas[0].generic.create(systemContext(), apiServiceDefinition, '', obj, {}) as Promise<APIService>;

  before(async () => {
    db = await testDatabase();
    await migrate(db.url);
  });

  after(async () => {
    for (const r of replicas) {
      await r.local.stop();
      await r.cache.stop();
      await r.sql.end();
    }
    await db?.drop();
  });

  it('a leftover of a group/version no longer served is removed at start; a user one is kept', async () => {
    const first = await replica();
    const leftover = (name: string, group: string, label: string): APIService => ({
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name, labels: { [LABEL]: label } },
      spec: { group, version: 'v1', groupPriorityMinimum: 100, versionPriority: 10 },
    });
    await create(leftover('v1.gone.example.com', 'gone.example.com', 'true'));
    await create(leftover('v1.old.k8s.io', 'old.k8s.io', 'onstart'));
    await create({
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1.remote.example.com' },
      spec: {
        group: 'remote.example.com',
        version: 'v1',
        groupPriorityMinimum: 100,
        versionPriority: 10,
        service: { namespace: 'ns', name: 'remote', port: 443 },
      },
    });
    await first.local.start();
    const want = [
      'v1.',
      'v1.authentication.k8s.io',
      'v1.authorization.k8s.io',
      'v1.coordination.k8s.io',
      'v1.discovery.k8s.io',
      'v1.events.k8s.io',
      'v1.rbac.authorization.k8s.io',
      'v1.remote.example.com',
    ];
    await eventually(async () => JSON.stringify(await names()) === JSON.stringify(want), 'local set', 5000);
    const core = (await get('v1.'))!;
    assert.deepEqual(core.metadata.labels, { [LABEL]: 'onstart' });
    assert.deepEqual(core.spec, {
      group: '',
      version: 'v1',
      groupPriorityMinimum: 18000,
      versionPriority: 1,
    });
    const [available] = core.status!.conditions!;
    assert.equal(available.type, 'Available');
    assert.equal(available.status, 'True');
    assert.equal(available.reason, 'Local');
    assert.equal(available.message, 'Local APIServices are always available');
    assert.equal((await get('v1.remote.example.com'))!.status?.conditions, undefined);
  });

  it('a second replica starting on the same database writes nothing', async () => {
    const before = (await get('v1.'))!.metadata.resourceVersion;
    const second = await replica();
    await second.local.start();
    await idle();
    assert.equal((await get('v1.'))!.metadata.resourceVersion, before);
    assert.deepEqual(
      replicas.flatMap((r) => r.logged),
      [],
    );
  });

  it('a CRD group/version registered on every replica gets one APIService; unregistered, it goes', async () => {
    for (const r of replicas) r.registry.register(crdKind('stable.example.com', ['v1', 'v2beta1']));
    await eventually(
      async () => (await get('v2beta1.stable.example.com')) !== undefined,
      'crd apiservice',
      5000,
    );
    const v1 = (await get('v1.stable.example.com'))!;
    assert.deepEqual(v1.metadata.labels, { [LABEL]: 'true' });
    assert.deepEqual(v1.spec, {
      group: 'stable.example.com',
      version: 'v1',
      groupPriorityMinimum: 1000,
      versionPriority: 100,
    });
    await idle();
    for (const r of replicas) r.registry.register(crdKind('stable.example.com', ['v1']));
    await eventually(
      async () => (await get('v2beta1.stable.example.com')) === undefined,
      'version dropped',
      5000,
    );
    for (const r of replicas) r.registry.unregister('stable.example.com', 'widgets');
    await eventually(async () => (await get('v1.stable.example.com')) === undefined, 'crd gone', 5000);
    await idle();
    assert.deepEqual(
      replicas.flatMap((r) => r.logged),
      [],
    );
  });

  it('one deleted by a user comes back; a changed status is made Available again', async () => {
    const { generic } = replicas[1];
    await generic.delete(systemContext(), apiServiceDefinition, '', 'v1.rbac.authorization.k8s.io', {});
    await eventually(
      async () => (await get('v1.rbac.authorization.k8s.io')) !== undefined,
      'recreated',
      5000,
    );
    await generic.update(
      systemContext(),
      apiServiceDefinition,
      '',
      'v1.',
      (stored) => ({
        ...stored!,
        status: { conditions: [{ type: 'Available', status: 'False', reason: 'Broken' }] },
      }),
      { subresource: 'status' },
    );
    await eventually(
      async () => (await get('v1.'))!.status!.conditions![0].reason === 'Local',
      'available again',
      5000,
    );
  });

  it('one a user took over (label removed) is left as the user made it', async () => {
    const { generic } = replicas[0];
    await generic.update(
      systemContext(),
      apiServiceDefinition,
      '',
      'v1.coordination.k8s.io',
      (stored) => {
        const next = structuredClone(stored!) as APIService;
        next.metadata.labels = {};
        next.spec!.versionPriority = 7;
        return next;
      },
      {},
    );
    for (const r of replicas) r.registry.register(crdKind('other.example.com', ['v1']));
    await eventually(async () => (await get('v1.other.example.com')) !== undefined, 'refreshed', 5000);
    await idle();
    assert.equal((await get('v1.coordination.k8s.io'))!.spec!.versionPriority, 7);
  });
});
