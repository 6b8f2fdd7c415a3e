/**
 * The collector over real PostgreSQL and a real watch cache, with kinds that join the registry after it
 * started (as CRDs do): their objects are collected like any, and dependents naming an owner of a kind not
 * known yet wait for it instead of being deleted.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type postgres from 'postgres';
import { eventually } from '../../test/support/eventually.js';
import { testDatabase, type TestDatabase } from '../../test/support/database.js';
import { kindSchema, systemContext, type KubeObject, type OwnerReference } from '../api/index.js';
import { configMapDefinition } from '../kinds/index.js';
import { GenericStore, Registry, type ResourceDefinition } from '../registry/index.js';
import { connect, migrate, PostgresStore } from '../storage/index.js';
import { WatchCache } from '../watch/index.js';
import { GarbageCollector } from './garbage-collector.js';

const GROUP = 'example.com';
const NS = 'default';

/** a namespaced test kind, as a CRD would make it */
function testKind(kind: string, resource: string): ResourceDefinition {
  return {
    group: GROUP,
    versions: ['v1'],
    storageVersion: 'v1',
    resource,
    singular: kind.toLowerCase(),
    kind,
    listKind: `${kind}List`,
    scope: 'Namespaced',
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    nameRule: 'dns1123Subdomain',
    schema: kindSchema({ description: 'A test-only kind.', properties: {} }),
    description: 'A test-only kind.',
    strategy: {},
  };
}
const widgets = testKind('Widget', 'widgets');
const gizmos = testKind('Gizmo', 'gizmos');

const refTo = (o: KubeObject): OwnerReference => ({
  apiVersion: o.apiVersion!,
  kind: o.kind!,
  name: o.metadata.name!,
  uid: o.metadata.uid!,
});

describe('GarbageCollector with kinds registered at run time', () => {
  let db: TestDatabase;
  let sql: postgres.Sql;
  let cache: WatchCache;
  let generic: GenericStore;
  let gc: GarbageCollector;
  const registry = new Registry();
  const logged: string[] = [];

  const create = (def: ResourceDefinition, name: string, owners: OwnerReference[] = []) =>
    generic.create(
      systemContext(),
      def,
      NS,
      {
        apiVersion: def.group ? `${def.group}/v1` : 'v1',
        kind: def.kind,
        metadata: { name, ...(owners.length ? { ownerReferences: owners } : {}) },
      },
      {},
    );
  const exists = async (def: ResourceDefinition, name: string) =>
    generic.get(def, NS, name).then(
      () => true,
      () => false,
    );

  before(async () => {
    db = await testDatabase();
    await migrate(db.url);
    sql = connect(db.url, 4);
    const store = new PostgresStore(sql);
    generic = new GenericStore(store);
    cache = new WatchCache(store, { retentionMs: 60_000 });
    await cache.start();
    registry.register(configMapDefinition);
    gc = new GarbageCollector(cache, registry, generic, (m) => logged.push(m));
    gc.start();
  });

  after(async () => {
    await gc?.stop();
    await cache?.stop();
    await sql?.end();
    await db?.drop();
  });

  it('follows a kind registered after it started: its objects are collected with their owner', async () => {
    registry.register(widgets);
    const owner = await create(configMapDefinition, 'widget-owner');
    await create(widgets, 'w1', [refTo(owner)]);
    await generic.delete(systemContext(), configMapDefinition, NS, 'widget-owner', {});
    await eventually(async () => !(await exists(widgets, 'w1')), 'widget collected', 2000);
  });

  it('a dependent naming an owner of an unknown kind waits; once the kind is known it is judged', async () => {
    // objects of a kind stored before its kind is served, as a CRD's objects are around its registration
    const real = await create(gizmos, 'g1');
    await create(configMapDefinition, 'of-g1', [refTo(real)]);
    await create(configMapDefinition, 'of-ghost', [{ ...refTo(real), name: 'ghost', uid: randomUUID() }]);
    await new Promise((r) => setTimeout(r, 300));
    await gc.idle();
    assert.ok(await exists(configMapDefinition, 'of-ghost'), 'an unknown kind is not an absent owner');
    registry.register(gizmos);
    await eventually(
      async () => !(await exists(configMapDefinition, 'of-ghost')),
      'of-ghost collected',
      2000,
    );
    await gc.idle();
    assert.ok(await exists(configMapDefinition, 'of-g1'), 'its gizmo is there');
    await generic.delete(systemContext(), gizmos, NS, 'g1', {});
    await eventually(async () => !(await exists(configMapDefinition, 'of-g1')), 'of-g1 collected', 2000);
  });

  it('a kind removed from the registry is no longer followed, and nothing of it is deleted then', async () => {
    const owner = await create(configMapDefinition, 'owner-2');
    await create(widgets, 'w2', [refTo(owner)]);
    registry.unregister(GROUP, 'widgets');
    await generic.delete(systemContext(), configMapDefinition, NS, 'owner-2', {});
    await new Promise((r) => setTimeout(r, 300));
    await gc.idle();
    assert.ok(await exists(widgets, 'w2'));
    assert.deepEqual(logged, []);
  });
});
