/**
 * A kind registered, changed and removed while the server runs, through Registry.register (the API CRDs will
 * use): discovery (legacy and aggregated), OpenAPI, CRUD, Table and open watches follow each change. Version
 * enablement applies to it as to a built-in kind, and each version serves its own schema, columns and
 * subresources.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { field, kindSchema, str } from '../modules/api/index.js';
import { ageColumn, nameColumn } from '../modules/kinds/index.js';
import { Registry, type ResourceDefinition } from '../modules/registry/index.js';
import { testDatabase, type TestDatabase } from './support/database.js';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';
import { openWatch } from './support/watch-client.js';

const GROUP = 'dynamic.pgkube.io';
const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const gadgets = (version: string) => `/apis/${GROUP}/${version}/namespaces/default/gadgets`;

const spec = (properties: Record<string, ReturnType<typeof str>>) =>
  kindSchema({
    description: 'A gadget registered at run time.',
    properties: { spec: field(2, { type: 'object', properties }), status: field(3, { type: 'object' }) },
  });

/** v2 knows spec.size, has a status subresource and a Size column; v1 has neither; v1beta1 is off (beta) */
const gadgetDefinition: ResourceDefinition = {
  group: GROUP,
  versions: ['v2', 'v1', 'v1beta1'],
  storageVersion: 'v2',
  resource: 'gadgets',
  singular: 'gadget',
  kind: 'Gadget',
  listKind: 'GadgetList',
  scope: 'Namespaced',
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  nameRule: 'dns1123Subdomain',
  schema: spec({ color: str(1) }),
  description: 'A gadget registered at run time.',
  printerColumns: [nameColumn, ageColumn],
  strategy: {},
  perVersion: {
    v2: {
      schema: spec({ color: str(1), size: str(2) }),
      subresources: ['status'],
      printerColumns: [
        nameColumn,
        { name: 'Size', type: 'string', description: 'Its size.', priority: 0, jsonPath: '.spec.size' },
      ],
    },
  },
};

/** `<group>/<version>` of every named group, from /apis and from aggregated discovery */
async function discovered(s: InProcessServer): Promise<{ legacy: string[]; aggregated: string[] }> {
  const legacy = await s.request('GET', '/apis');
  const aggregated = await s.request('GET', '/apis', { headers: { accept: AGGREGATED } });
  return {
    legacy: legacy.json.groups.flatMap((g: any) => g.versions.map((v: any) => v.groupVersion)),
    aggregated: aggregated.json.items.flatMap((g: any) =>
      g.versions.map((v: any) => `${g.metadata.name}/${v.version}`),
    ),
  };
}

const ours = (gvs: string[]) => gvs.filter((gv) => gv.startsWith(`${GROUP}/`));

describe('a kind registered and unregistered at run time', () => {
  let db: TestDatabase;
  let s: InProcessServer;
  let registry: Registry;

  before(async () => {
    db = await testDatabase();
    s = await startInProcess(db.url);
    registry = s.app.get(Registry);
  });
  after(async () => {
    await s?.stop();
    await db?.drop();
  });

  it('is unknown before it is registered', async () => {
    const { legacy, aggregated } = await discovered(s);
    assert.deepEqual([ours(legacy), ours(aggregated)], [[], []]);
    assert.equal((await s.request('GET', `/apis/${GROUP}/v2`)).status, 404);
    assert.equal((await s.request('GET', gadgets('v2'))).status, 404);
  });

  it('shows in legacy and aggregated discovery once registered, its disabled beta version left out', async () => {
    registry.register(gadgetDefinition);
    const { legacy, aggregated } = await discovered(s);
    assert.deepEqual(ours(legacy), [`${GROUP}/v2`, `${GROUP}/v1`]);
    assert.deepEqual(ours(aggregated), [`${GROUP}/v2`, `${GROUP}/v1`]);
    const group = await s.request('GET', `/apis/${GROUP}`);
    assert.equal(group.json.preferredVersion.version, 'v2');
    assert.equal((await s.request('GET', `/apis/${GROUP}/v1beta1`)).status, 404);
    assert.equal((await s.request('GET', gadgets('v1beta1'))).status, 404);
  });

  it("lists each version's own subresources", async () => {
    const names = async (v: string) =>
      (await s.request('GET', `/apis/${GROUP}/${v}`)).json.resources.map((r: any) => r.name);
    assert.deepEqual(await names('v2'), ['gadgets', 'gadgets/status']);
    assert.deepEqual(await names('v1'), ['gadgets']);
    const aggregated = await s.request('GET', '/apis', { headers: { accept: AGGREGATED } });
    const item = aggregated.json.items.find((g: any) => g.metadata.name === GROUP);
    assert.deepEqual(
      item.versions.map((v: any) => [v.version, v.resources[0].subresources?.length ?? 0]),
      [
        ['v2', 1],
        ['v1', 0],
      ],
    );
  });

  it("publishes each version's own schema in OpenAPI v3", async () => {
    const index = await s.request('GET', '/openapi/v3');
    const keys = Object.keys(index.json.paths).filter((k) => k.includes(GROUP));
    assert.deepEqual(keys, [`apis/${GROUP}`, `apis/${GROUP}/v1`, `apis/${GROUP}/v2`]);
    const specOf = async (v: string) => {
      const doc = await s.request('GET', index.json.paths[`apis/${GROUP}/${v}`].serverRelativeURL);
      return Object.keys(
        doc.json.components.schemas[`io.pgkube.dynamic.${v}.Gadget`].properties.spec.properties,
      );
    };
    assert.deepEqual(await specOf('v2'), ['color', 'size']);
    assert.deepEqual(await specOf('v1'), ['color']);
  });

  it("serves CRUD, each version decoding with its own schema, Table with the version's columns", async () => {
    const created = await s.request('POST', gadgets('v2'), {
      body: { apiVersion: `${GROUP}/v2`, kind: 'Gadget', metadata: { name: 'g' }, spec: { size: 'L' } },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.spec.size, 'L');
    const fromV1 = await s.request('POST', gadgets('v1'), {
      body: { apiVersion: `${GROUP}/v1`, kind: 'Gadget', metadata: { name: 'h' }, spec: { size: 'S' } },
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(fromV1.status, 201, fromV1.text);
    assert.equal(fromV1.json.spec?.size, undefined, 'v1 has no spec.size: pruned');

    const table = await s.request('GET', gadgets('v2'), { headers: { accept: TABLE } });
    assert.deepEqual(
      table.json.columnDefinitions.map((c: any) => c.name),
      ['Name', 'Size'],
    );
    assert.deepEqual(table.json.rows[0].cells, ['g', 'L']);
    const tableV1 = await s.request('GET', gadgets('v1'), { headers: { accept: TABLE } });
    assert.deepEqual(
      tableV1.json.columnDefinitions.map((c: any) => c.name),
      ['Name', 'Age'],
    );

    const status = await s.request('GET', `${gadgets('v2')}/g/status`);
    assert.equal(status.status, 200);
    assert.equal((await s.request('GET', `${gadgets('v1')}/g/status`)).status, 404);

    const updated = await s.request('PUT', `${gadgets('v2')}/g`, {
      body: { ...created.json, spec: { size: 'XL' } },
    });
    assert.equal(updated.status, 200, updated.text);
    const list = await s.request('GET', gadgets('v2'));
    assert.deepEqual(
      list.json.items.map((o: any) => o.metadata.name),
      ['g', 'h'],
    );
    assert.equal((await s.request('DELETE', `${gadgets('v2')}/h`)).status, 200);
  });

  it('follows a replaced definition at once', async () => {
    registry.register({ ...gadgetDefinition, shortNames: ['gd'] });
    const v2 = await s.request('GET', `/apis/${GROUP}/v2`);
    assert.deepEqual(v2.json.resources[0].shortNames, ['gd']);
    assert.equal((await s.request('GET', `${gadgets('v2')}/g`)).json.spec.size, 'XL');
  });

  it('ends open watches when unregistered, then answers 404 and leaves discovery and OpenAPI', async () => {
    const watch = await openWatch(s, `${gadgets('v2')}?watch=1&resourceVersion=0`);
    assert.equal(watch.status, 200);
    assert.equal((await watch.next()).type, 'ADDED');
    const namespaces = await openWatch(s, '/api/v1/namespaces?watch=1');

    registry.unregister(GROUP, 'gadgets');
    const late = new Promise((_, reject) =>
      setTimeout(() => reject(new Error('watch still open')), 5000).unref(),
    );
    await Promise.race([watch.ended, late]);
    assert.ok(watch.finished());
    assert.equal(namespaces.finished(), false, 'watches of other kinds stay open');
    namespaces.close();

    const { legacy, aggregated } = await discovered(s);
    assert.deepEqual([ours(legacy), ours(aggregated)], [[], []]);
    assert.equal((await s.request('GET', `/apis/${GROUP}`)).status, 404);
    assert.equal((await s.request('GET', `/apis/${GROUP}/v2`)).status, 404);
    const index = await s.request('GET', '/openapi/v3');
    assert.deepEqual(
      Object.keys(index.json.paths).filter((k) => k.includes(GROUP)),
      [],
    );
    const get = await s.request('GET', `${gadgets('v2')}/g`);
    assert.equal(get.status, 404);
    assert.equal(get.json.kind, 'Status');
  });
});
