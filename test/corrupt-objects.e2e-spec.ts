/**
 * Corrupt rows (issue 21 item 3; spec part1 "Deletion of an object" rules 2-6, KEP-3926) against the real
 * server and PostgreSQL. Two ConfigMap rows are changed behind the server's back by SQL: one body becomes a
 * JSON string (jsonb cannot hold invalid JSON text, so a string, not an object, stands for "invalid JSON"),
 * the other a Secret's body. Reads from PostgreSQL see it at once; the watch cache sees it at the next start.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import postgres from 'postgres';
import { kubectl as runKubectl, kubectlOf } from './support/kubectl.js';
import { grant, user } from './support/rbac.js';
import { useServer } from './support/use-server.js';
import { openWatch, type WatchStream } from './support/watch-client.js';

const NS = 'corrupt';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const GATE_ON = '--feature-gates=AllowUnsafeMalformedObjectDeletion=true';
const OPTION = 'ignoreStoreReadErrorWithClusterBreakingPotential';

/** the next event whose object is named `name` */
async function eventFor(w: WatchStream, name: string): Promise<{ type: string; object: any }> {
  for (;;) {
    const e = await w.next(10_000);
    if (e.object?.metadata?.name === name) return e;
  }
}

describe('corrupt objects', () => {
  const s = useServer();
  const kubectl = kubectlOf(s);
  const run = (args: string[]) => runKubectl(args, { kubeconfig: s.kubeconfig });
  const bob = { 'Impersonate-User': 'bob' };

  async function sql<T>(run: (db: postgres.Sql) => Promise<T>): Promise<T> {
    const db = postgres(s.db.url, { max: 1, onnotice: () => undefined });
    try {
      return await run(db);
    } finally {
      await db.end();
    }
  }

  const deleteWith = (name: string, body: object, headers?: Record<string, string>) =>
    s.request('DELETE', `${CM}/${name}`, {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', ...body },
      headers,
    });

  it('a row changed by SQL reads as an error naming it, from PostgreSQL at once', async () => {
    await kubectl.ok(['create', 'namespace', NS]);
    for (const name of ['healthy', 'as-string', 'as-secret']) {
      const r = await s.request('POST', CM, {
        body: { metadata: { name, finalizers: ['example.com/hold'] }, data: { k: name } },
      });
      assert.equal(r.status, 201, r.text);
    }
    await sql(async (db) => {
      const at = (name: string) =>
        db`(SELECT rv FROM objects WHERE resource = '/configmaps' AND namespace = ${NS} AND name = ${name})`;
      await db`UPDATE changes SET body = to_jsonb('{"not": json'::text) WHERE rv = ${at('as-string')}`;
      await db`UPDATE changes SET body = jsonb_build_object('apiVersion', 'v1', 'kind', 'Secret',
        'metadata', body->'metadata', 'data', jsonb_build_object('k', 'dmFsdWU=')) WHERE rv = ${at('as-secret')}`;
    });
    // a most-recent get reads PostgreSQL: no restart needed
    const got = await s.request('GET', `${CM}/as-string`);
    assert.equal(got.status, 500, got.text);
    assert.equal(got.json.reason, 'InternalError');
    assert.match(
      got.json.message,
      /^Internal error occurred: StorageError: corrupt object, Code: 7, Key: \/configmaps\/corrupt\/as-string, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=\d+: the stored body is a JSON string, not an object$/,
    );
  });

  it('after a restart, get and list (PostgreSQL and the watch cache) name the corrupt objects', async () => {
    await s.restart();
    const secret = await s.request('GET', `${CM}/as-secret`);
    assert.equal(secret.status, 500, secret.text);
    assert.match(
      secret.json.message,
      /Key: \/configmaps\/corrupt\/as-secret, .*Kind=Secret, expected \/v1, Kind=ConfigMap/,
    );
    // from the watch cache (resourceVersion=0) the same answer
    const cached = await s.request('GET', `${CM}/as-string?resourceVersion=0`);
    assert.equal(cached.status, 500, cached.text);
    assert.match(
      cached.json.message,
      /StorageError: corrupt object, .*Key: \/configmaps\/corrupt\/as-string,/,
    );
    assert.equal((await s.request('GET', `${CM}/healthy?resourceVersion=0`)).status, 200);

    // kube v1.32's list: 500 StorageReadError, one cause per corrupt key, no items
    for (const query of ['', '?limit=500', '?resourceVersion=0']) {
      const list = await s.request('GET', `${CM}${query}`);
      assert.equal(list.status, 500, `${query}: ${list.text}`);
      assert.equal(list.json.reason, 'StorageReadError');
      assert.equal(list.json.message, 'failed to read one or more configmaps from the storage');
      assert.equal(list.json.details.kind, 'configmaps');
      assert.equal(list.json.details.name, 'list');
      assert.deepEqual(
        list.json.details.causes.map((c: any) => [c.reason, c.field]),
        [
          ['UnexpectedServerResponse', '/configmaps/corrupt/as-secret'],
          ['UnexpectedServerResponse', '/configmaps/corrupt/as-string'],
        ],
      );
      assert.match(list.json.details.causes[1].message, /^StorageError: corrupt object, Code: 7, /);
    }
    // another namespace's list is untouched
    assert.equal((await s.request('GET', '/api/v1/namespaces/default/configmaps')).status, 200);

    // kubectl shows the errors
    const r = await run(['get', 'configmaps', '-n', NS]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /failed to read one or more configmaps from the storage/);
    const one = await run(['get', 'configmap', 'as-string', '-n', NS]);
    assert.notEqual(one.code, 0);
    assert.match(
      one.stderr,
      /Error from server \(InternalError\): Internal error occurred: StorageError: corrupt object/,
    );
  });

  it('a watch on configmaps keeps delivering the other objects', async () => {
    const w = await openWatch(s, `${CM}?watch=1`);
    try {
      assert.equal(w.status, 200);
      const first = await w.next(10_000);
      assert.deepEqual([first.type, first.object.metadata.name], ['ADDED', 'healthy']);
      await s.request('POST', CM, { body: { metadata: { name: 'later' } } });
      const later = await eventFor(w, 'later');
      assert.equal(later.type, 'ADDED');
      assert.ok(!w.events.some((e) => /^as-/.test(e.object?.metadata?.name)), 'a corrupt object was sent');
    } finally {
      w.close();
    }
  });

  it('gate off: the option is dropped, so the delete fails on the corrupt object as a normal one does', async () => {
    const plain = await s.request('DELETE', `${CM}/as-string`);
    assert.equal(plain.status, 500, plain.text);
    assert.match(plain.json.message, /StorageError: corrupt object, .*as-string/);
    // the option, even with fields it forbids, is not looked at
    const ignored = await deleteWith('as-string', { [OPTION]: true, gracePeriodSeconds: 0 });
    assert.equal(ignored.status, 500, ignored.text);
    assert.match(ignored.json.message, /StorageError: corrupt object/);
  });

  it('gate on: forbidden fields are 422, a healthy object is refused, the permission is needed', async () => {
    await s.restart({ args: [GATE_ON] });
    const fields = await deleteWith('as-string', {
      [OPTION]: true,
      dryRun: ['All'],
      propagationPolicy: 'Background',
      gracePeriodSeconds: 0,
      preconditions: { uid: 'x' },
    });
    assert.equal(fields.status, 422, fields.text);
    assert.equal(
      fields.json.message,
      `DeleteOptions.meta.k8s.io "" is invalid: [${[
        'dryRun',
        'propagationPolicy',
        'gracePeriodSeconds',
        'preconditions',
      ]
        .map((f) => `${OPTION}: Invalid value: true: cannot be set together with .${f}`)
        .join(', ')}]`,
    );
    const query = await s.request('DELETE', `${CM}/as-string?${OPTION}=true&orphanDependents=false`);
    assert.equal(query.status, 422, query.text);
    assert.match(query.json.message, /cannot be set together with \.orphanDependents/);

    const healthy = await deleteWith('healthy', { [OPTION]: true });
    assert.equal(healthy.status, 422, healthy.text);
    assert.equal(
      healthy.json.message,
      `configmaps "healthy" is invalid: ${OPTION}: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option`,
    );
    assert.equal((await s.request('GET', `${CM}/healthy`)).status, 200);

    const collection = await s.request('DELETE', `${CM}?${OPTION}=true`);
    assert.equal(collection.status, 422, collection.text);
    assert.match(collection.json.message, /is not allowed with DELETECOLLECTION/);

    // bob may delete configmaps, and nothing more
    await grant(
      s,
      'bob-deletes',
      [user('bob')],
      [{ verbs: ['delete'], apiGroups: [''], resources: ['configmaps'] }],
      NS,
    );
    const refused = await deleteWith('as-string', { [OPTION]: true }, bob);
    assert.equal(refused.status, 403, refused.text);
    assert.equal(
      refused.json.message,
      'configmaps "as-string" is forbidden: not permitted to do "unsafe-delete-ignore-read-errors", reason: ',
    );
    assert.deepEqual(refused.json.details, { name: 'as-string', kind: 'configmaps' });
    // without the option bob meets the corrupt object, as anyone would
    const normal = await s.request('DELETE', `${CM}/as-string`, { headers: bob });
    assert.equal(normal.status, 500, normal.text);
  });

  it('with delete and unsafe-delete-ignore-read-errors the rows go, finalizers ignored, and watchers see DELETED', async () => {
    await grant(
      s,
      'bob-unsafe',
      [user('bob')],
      [{ verbs: ['unsafe-delete-ignore-read-errors'], apiGroups: [''], resources: ['configmaps'] }],
      NS,
    );
    const w = await openWatch(s, `${CM}?watch=1&resourceVersion=0`);
    try {
      for (const name of ['as-string', 'as-secret']) {
        const r = await deleteWith(name, { [OPTION]: true }, bob);
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(r.json, {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Success',
          code: 200,
          details: { name, kind: 'ConfigMap' },
        });
        const gone = await eventFor(w, name);
        assert.equal(gone.type, 'DELETED');
        assert.deepEqual(
          [gone.object.apiVersion, gone.object.kind, gone.object.metadata.namespace],
          ['v1', 'ConfigMap', NS],
        );
        assert.match(gone.object.metadata.resourceVersion, /^\d+$/);
        assert.equal((await s.request('GET', `${CM}/${name}`)).status, 404);
      }
    } finally {
      w.close();
    }
    // the list works again, from PostgreSQL and from the cache
    for (const query of ['', '?limit=500']) {
      const list = await s.request('GET', `${CM}${query}`);
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(
        list.json.items.map((i: any) => i.metadata.name).filter((n: string) => n !== 'kube-root-ca.crt'),
        ['healthy', 'later'],
      );
    }
    assert.match(await kubectl.ok(['get', 'configmaps', '-n', NS, '-o', 'name']), /configmap\/healthy/);
    // and after a restart nothing corrupt is left
    await s.restart({ args: [GATE_ON] });
    assert.equal((await s.request('GET', `${CM}?resourceVersion=0`)).status, 200);
  });
});
