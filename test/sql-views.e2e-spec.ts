/**
 * The SQL views as their users meet them: objects written through the API (HTTP and kubectl), read back with a
 * SQL client logged in as a user granted pgkube_reader. Rows and columns follow creates, updates and deletes
 * (a Terminating object shows its deleted_at), a CRD's view comes when it is Established and goes with it,
 * k8s.changes lists the changes in order, and the reader can read the views and nothing else, nor write.
 * Secret data is hidden unless --sql-expose-secret-data, also from a reader's own function in a WHERE clause.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { eventually } from './support/eventually.js';
import { kubectlOf } from './support/kubectl.js';
import { useServer, type UsedServer } from './support/use-server.js';

const NS = '/api/v1/namespaces/default';
const SECRET_VALUE = 's3cr3t-value-do-not-show';
const b64 = (s: string) => Buffer.from(s).toString('base64');

const widgetsCrd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: { plural: widgets, singular: widget, kind: Widget }
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: { type: object, properties: { size: { type: integer } } }
          status: { type: object, x-kubernetes-preserve-unknown-fields: true }
`;

const appliedSecret = `apiVersion: v1
kind: Secret
metadata:
  name: applied
  namespace: default
  labels: { team: a }
  annotations: { note: applied-secret-marker }
stringData:
  password: ${SECRET_VALUE}
`;

/** A login role granted pgkube_reader (cluster-wide, like every role), and a connection as it. */
function readerLogin(s: UsedServer) {
  const name = `reader_${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  let admin: postgres.Sql;
  let reader: postgres.Sql;
  const notices: string[] = [];
  before(async () => {
    admin = postgres(s.db.url, { max: 1, onnotice: () => undefined });
    await admin.unsafe(`CREATE ROLE ${name} LOGIN PASSWORD '${password}'`);
    await admin.unsafe(`GRANT pgkube_reader TO ${name}`);
    const url = new URL(s.db.url);
    url.username = name;
    url.password = password;
    // one connection: a session's settings and temporary functions stay with it
    reader = postgres(url.toString(), { max: 1, onnotice: (n) => notices.push(String(n.message)) });
  });
  // useServer's after() may have dropped the database by now: the role goes through another database
  after(async () => {
    await reader.end();
    await admin.end();
    const url = new URL(s.db.url);
    url.pathname = '/postgres';
    const cluster = postgres(url.toString(), { max: 1, onnotice: () => undefined });
    await cluster.unsafe(`DROP ROLE IF EXISTS ${name}`);
    await cluster.end();
  });
  return {
    get sql() {
      return reader;
    },
    notices,
  };
}

async function refused(query: Promise<unknown>, code = '42501'): Promise<void> {
  await assert.rejects(query, (e: { code?: string; message?: string }) => {
    assert.equal(e.code, code, e.message);
    return true;
  });
}

describe('SQL views (secret data hidden)', () => {
  const s = useServer();
  const alice = readerLogin(s);
  const kubectl = kubectlOf(s);
  const row = async (view: string, name: string) =>
    (
      await alice.sql.unsafe(`SELECT * FROM k8s."${view}" WHERE namespace = 'default' AND name = $1`, [name])
    )[0];

  it('a ConfigMap: its row follows create and update, and goes with delete', async () => {
    const created = await s.request('POST', `${NS}/configmaps`, {
      body: { metadata: { name: 'cm1', labels: { team: 'a' } }, data: { k: 'v1' } },
    });
    assert.equal(created.status, 201);
    let r = await row('configmaps', 'cm1');
    assert.equal(String(r.resource_version), created.json.metadata.resourceVersion);
    assert.equal(r.uid, created.json.metadata.uid);
    assert.deepEqual(r.labels, { team: 'a' });
    assert.deepEqual(r.data, { k: 'v1' });
    assert.equal(r.deleted_at, null);
    assert.equal(r.created_at.toISOString().replace('.000Z', 'Z'), created.json.metadata.creationTimestamp);
    // `object` is the object as the API serves it
    assert.deepEqual(r.object, (await s.request('GET', `${NS}/configmaps/cm1`)).json);

    const updated = await s.request('PUT', `${NS}/configmaps/cm1`, {
      body: {
        ...created.json,
        metadata: { ...created.json.metadata, labels: { team: 'b' } },
        data: { k: 'v2' },
      },
    });
    assert.equal(updated.status, 200);
    r = await row('configmaps', 'cm1');
    assert.equal(String(r.resource_version), updated.json.metadata.resourceVersion);
    assert.deepEqual(r.labels, { team: 'b' });
    assert.deepEqual(r.data, { k: 'v2' });
    assert.equal(r.object.metadata.resourceVersion, updated.json.metadata.resourceVersion);
    // the label query the labels index serves
    const byLabel =
      await alice.sql`SELECT name FROM k8s.configmaps WHERE labels @> ${alice.sql.json({ team: 'b' })}`;
    assert.deepEqual(
      byLabel.map((x) => x.name),
      ['cm1'],
    );

    assert.equal((await s.request('DELETE', `${NS}/configmaps/cm1`)).status, 200);
    assert.equal(await row('configmaps', 'cm1'), undefined);

    const changes = await alice.sql`
      SELECT rv, type, kind, api_group, resource, namespace, name, object FROM k8s.changes
      WHERE resource = 'configmaps' AND name = 'cm1' ORDER BY rv`;
    assert.deepEqual(
      changes.map((c) => [c.type, c.kind, c.api_group, c.resource, c.namespace]),
      [
        ['ADDED', 'ConfigMap', '', 'configmaps', 'default'],
        ['MODIFIED', 'ConfigMap', '', 'configmaps', 'default'],
        ['DELETED', 'ConfigMap', '', 'configmaps', 'default'],
      ],
    );
    assert.equal(String(changes[0].rv), created.json.metadata.resourceVersion);
    assert.equal(String(changes[1].rv), updated.json.metadata.resourceVersion);
    assert.ok(Number(changes[2].rv) > Number(changes[1].rv));
    assert.deepEqual(changes[1].object.data, { k: 'v2' });
    assert.equal(changes[2].object.metadata.resourceVersion, String(changes[2].rv));
  });

  it('an object Terminating behind a finalizer shows deleted_at until it goes', async () => {
    await s.request('POST', `${NS}/configmaps`, {
      body: { metadata: { name: 'held', finalizers: ['example.com/hold'] } },
    });
    const deleting = await s.request('DELETE', `${NS}/configmaps/held`);
    assert.equal(deleting.status, 200);
    assert.ok(deleting.json.metadata.deletionTimestamp);
    const r = await row('configmaps', 'held');
    assert.equal(r.deleted_at.toISOString().replace('.000Z', 'Z'), deleting.json.metadata.deletionTimestamp);
    assert.equal(String(r.resource_version), deleting.json.metadata.resourceVersion);
    await s.request('PATCH', `${NS}/configmaps/held`, {
      body: { metadata: { finalizers: null } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(await row('configmaps', 'held'), undefined);
  });

  it("hides a Secret's data, stringData and kubectl's last-applied copy, in its view and in k8s.changes", async () => {
    await kubectl.ok(['apply', '-f', '-'], appliedSecret);
    const api = (await s.request('GET', `${NS}/secrets/applied`)).json;
    assert.equal(api.data.password, b64(SECRET_VALUE));
    assert.ok(
      api.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'].includes(SECRET_VALUE),
    );
    const r = await row('secrets', 'applied');
    assert.equal(r.data, null);
    assert.equal(r.string_data, null);
    assert.equal(r.type, 'Opaque');
    assert.deepEqual(r.annotations, { note: 'applied-secret-marker' });
    assert.equal(String(r.resource_version), api.metadata.resourceVersion);
    const { data: _data, ...withoutData } = api;
    const { 'kubectl.kubernetes.io/last-applied-configuration': _applied, ...annotations } =
      api.metadata.annotations;
    assert.deepEqual(r.object, { ...withoutData, metadata: { ...api.metadata, annotations } });
    const everything = JSON.stringify(await alice.sql`SELECT * FROM k8s.secrets`);
    const history = JSON.stringify(await alice.sql`SELECT * FROM k8s.changes`);
    for (const text of [everything, history]) {
      assert.ok(!text.includes(SECRET_VALUE) && !text.includes(b64(SECRET_VALUE)));
    }
    assert.ok(history.includes('applied-secret-marker'), 'the Secret is in k8s.changes');
  });

  it("a reader's own function in a WHERE clause sees no secret data, even on rows of every kind", async () => {
    await s.request('POST', `${NS}/configmaps`, { body: { metadata: { name: 'plain' }, data: { a: 'b' } } });
    await alice.sql.begin(async (tx) => {
      // what an attacker would do: scans that show every row of `changes` to the cheapest qual first
      await tx`SET LOCAL enable_indexscan = off`;
      await tx`SET LOCAL enable_bitmapscan = off`;
      await tx.unsafe(`CREATE FUNCTION pg_temp.leak(x jsonb) RETURNS boolean LANGUAGE plpgsql COST 0.0000001
        AS $$ BEGIN RAISE NOTICE 'seen: %', x; RETURN true; END $$`);
      await tx.unsafe(
        `SELECT name FROM k8s.configmaps WHERE pg_temp.leak(annotations) AND pg_temp.leak(data)`,
      );
      await tx.unsafe(`SELECT name FROM k8s.leases WHERE pg_temp.leak(object)`);
      await tx.unsafe(`SELECT name FROM k8s.changes WHERE pg_temp.leak(object)`);
    });
    const seen = alice.notices.join('\n');
    assert.match(seen, /"a": "b"/);
    // the function was shown the Secret's rows (k8s.changes has every kind's): what it saw had no values
    assert.match(seen, /applied-secret-marker/);
    assert.ok(!seen.includes(SECRET_VALUE) && !seen.includes(b64(SECRET_VALUE)), seen);
  });

  it('the reader reads the views, and cannot read the tables, write anything, or make objects in k8s', async () => {
    const sql = alice.sql;
    assert.ok((await sql`SELECT count(*) FROM k8s.namespaces`)[0].count > 0);
    for (const table of ['objects', 'changes', 'revision'])
      await refused(sql.unsafe(`SELECT * FROM public.${table}`));
    await refused(
      sql`INSERT INTO public.objects VALUES ('/configmaps', 'default', 'x', gen_random_uuid(), 1)`,
    );
    await refused(sql`UPDATE public.revision SET rv = rv + 1`);
    await refused(sql`DELETE FROM public.changes`);
    await refused(sql`TRUNCATE public.changes`);
    await refused(sql`DELETE FROM k8s.changes`);
    await refused(sql`UPDATE k8s.changes SET name = 'x'`);
    // a view over a join is not updatable at all: refused before privileges are looked at
    await refused(sql`DELETE FROM k8s.configmaps`, '55000');
    await refused(sql`CREATE VIEW k8s.mine AS SELECT 1`);
    await refused(sql`CREATE TABLE k8s.mine (x int)`);
    await refused(sql`CREATE TABLE public.mine (x int)`);
    await refused(sql`DROP VIEW k8s.configmaps`);
    await refused(sql`ALTER VIEW k8s.configmaps RENAME TO x`);
  });

  it("a CRD's view appears when it is Established, follows its objects, and goes with the CRD", async () => {
    const exists = async () =>
      (await alice.sql`SELECT to_regclass('k8s."widgets.example.com"') AS v`)[0].v !== null;
    assert.equal(await exists(), false);
    await kubectl.ok(['apply', '-f', '-'], widgetsCrd);
    await kubectl.ok(['wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=20s']);
    await eventually(exists, 'the view of widgets.example.com');
    const created = await s.request('POST', '/apis/example.com/v1/namespaces/default/widgets', {
      body: {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w1', labels: { team: 'a' } },
        spec: { size: 3 },
      },
    });
    assert.equal(created.status, 201);
    const r = await row('widgets.example.com', 'w1');
    assert.deepEqual(r.spec, { size: 3 });
    assert.equal(r.status, null);
    assert.equal(r.generation, '1');
    assert.equal(String(r.resource_version), created.json.metadata.resourceVersion);
    assert.deepEqual(r.object, created.json);
    // a CRD's objects joined with a table of the reader's own (a temporary one: it may not create others)
    await alice.sql.begin(async (tx) => {
      await tx`CREATE TEMP TABLE teams (name text, lead text) ON COMMIT DROP`;
      await tx`INSERT INTO teams VALUES ('a', 'alice')`;
      const joined = await tx`
        SELECT w.name, t.lead FROM k8s."widgets.example.com" w JOIN teams t ON w.labels ->> 'team' = t.name`;
      assert.deepEqual([...joined], [{ name: 'w1', lead: 'alice' }]);
    });

    await kubectl.ok(['delete', 'crd', 'widgets.example.com', '--timeout=30s']);
    await eventually(async () => !(await exists()), 'the view of widgets.example.com dropped');
  });
});

describe('SQL views (--sql-expose-secret-data)', () => {
  const s = useServer({ args: ['--sql-expose-secret-data'] });
  const alice = readerLogin(s);

  it("shows a Secret's data in its view and in k8s.changes", async () => {
    await s.request('POST', `${NS}/secrets`, {
      body: { metadata: { name: 'shown' }, data: { password: b64(SECRET_VALUE) } },
    });
    const [r] =
      await alice.sql`SELECT data, object FROM k8s.secrets WHERE namespace = 'default' AND name = 'shown'`;
    assert.deepEqual(r.data, { password: b64(SECRET_VALUE) });
    assert.deepEqual(r.object.data, { password: b64(SECRET_VALUE) });
    const [c] = await alice.sql`SELECT object FROM k8s.changes WHERE resource = 'secrets' AND name = 'shown'`;
    assert.deepEqual(c.object.data, { password: b64(SECRET_VALUE) });
  });
});
