/** Watch and reads by resourceVersion against the real server (watch cache on PostgreSQL). */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { useServer } from './support/use-server.js';
import { openWatch } from './support/watch-client.js';

const base = '/api/v1/namespaces/default/configmaps';
const cm = (
  name: string,
  labels: Record<string, string> = {},
  data: Record<string, string> = { a: '1' },
) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels },
  data,
});

describe('watch', () => {
  const s = useServer({ args: ['--history-retention=3s'] });

  const listRv = async () => (await s.request('GET', base)).json.metadata.resourceVersion as string;

  it('streams ADDED, MODIFIED, DELETED after a resourceVersion, in order', async () => {
    const rv = await listRv();
    const w = await openWatch(s, `${base}?watch=1&resourceVersion=${rv}`);
    assert.equal(w.status, 200);
    const created = (await s.request('POST', base, { body: cm('w1') })).json;
    await s.request('PUT', `${base}/w1`, { body: { ...created, data: { a: '2' } } });
    await s.request('DELETE', `${base}/w1`);
    const events = [await w.next(), await w.next(), await w.next()];
    w.close();
    assert.deepEqual(
      events.map((e) => e.type),
      ['ADDED', 'MODIFIED', 'DELETED'],
    );
    assert.equal(events[1].object.data.a, '2');
    const rvs = events.map((e) => Number(e.object.metadata.resourceVersion));
    assert.ok(rvs[0] > Number(rv) && rvs[0] < rvs[1] && rvs[1] < rvs[2], `increasing: ${rvs}`);
  });

  it('without a resourceVersion sends the current objects first', async () => {
    await s.request('POST', base, { body: cm('initial-1') });
    const w = await openWatch(s, `${base}?watch=1&fieldSelector=metadata.name%3Dinitial-1`);
    const first = await w.next();
    w.close();
    assert.equal(first.type, 'ADDED');
    assert.equal(first.object.metadata.name, 'initial-1');
  });

  it('an object leaving a label selector is DELETED, one entering it is ADDED', async () => {
    const rv = await listRv();
    const w = await openWatch(s, `${base}?watch=1&resourceVersion=${rv}&labelSelector=tier%3Dweb`);
    const created = (await s.request('POST', base, { body: cm('sel', { tier: 'web' }) })).json;
    const moved = (
      await s.request('PUT', `${base}/sel`, {
        body: { ...created, metadata: { ...created.metadata, labels: { tier: 'db' } } },
      })
    ).json;
    await s.request('PUT', `${base}/sel`, {
      body: { ...moved, metadata: { ...moved.metadata, labels: { tier: 'web' } } },
    });
    const types = [(await w.next()).type, (await w.next()).type, (await w.next()).type];
    w.close();
    assert.deepEqual(types, ['ADDED', 'DELETED', 'ADDED']);
  });

  it('sendInitialEvents ends the initial state with an annotated bookmark; bad combinations are 400', async () => {
    await s.request('POST', base, { body: cm('sie') });
    const w = await openWatch(
      s,
      `${base}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&fieldSelector=metadata.name%3Dsie`,
    );
    const added = await w.next();
    const bookmark = await w.next();
    w.close();
    assert.equal(added.type, 'ADDED');
    assert.equal(bookmark.type, 'BOOKMARK');
    assert.equal(bookmark.object.metadata.annotations['k8s.io/initial-events-end'], 'true');
    assert.equal(bookmark.object.kind, 'ConfigMap');
    const bad = await s.request('GET', `${base}?watch=1&sendInitialEvents=true&allowWatchBookmarks=true`);
    assert.equal(bad.status, 400);
    const bad2 = await s.request(
      'GET',
      `${base}?watch=1&resourceVersionMatch=NotOlderThan&resourceVersion=1`,
    );
    assert.equal(bad2.status, 400);
  });

  it('an empty sendInitialEvents is true, as kube converts a present *bool query parameter', async () => {
    await s.request('POST', base, { body: cm('sie-empty') });
    for (const param of ['sendInitialEvents=', 'sendInitialEvents']) {
      const w = await openWatch(
        s,
        `${base}?watch=1&${param}&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&fieldSelector=metadata.name%3Dsie-empty`,
      );
      assert.equal(w.status, 200, param);
      const added = await w.next();
      const bookmark = await w.next();
      w.close();
      assert.equal(added.type, 'ADDED', param);
      assert.equal(added.object.metadata.name, 'sie-empty');
      assert.equal(bookmark.type, 'BOOKMARK', param);
      assert.equal(bookmark.object.metadata.annotations['k8s.io/initial-events-end'], 'true');
    }
    // set, it needs resourceVersionMatch as `true` does (unset, a watch would start: it ends after 1 s)
    const alone = await s.request('GET', `${base}?watch=1&sendInitialEvents=&timeoutSeconds=1`);
    assert.equal(alone.status, 400);
    assert.equal(
      alone.json.message,
      'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    );
  });

  it('timeoutSeconds ends the stream', async () => {
    const w = await openWatch(s, `${base}?watch=1&timeoutSeconds=1&resourceVersion=${await listRv()}`);
    const started = Date.now();
    await w.ended;
    assert.ok(Date.now() - started < 3000);
  });

  it('a resourceVersion older than the history window gets an ERROR event with 410 Expired', async () => {
    const old = await listRv();
    await s.request('POST', base, { body: cm('aging') });
    await new Promise((r) => setTimeout(r, 5000));
    await s.request('POST', base, { body: cm('aging-2') });
    const w = await openWatch(s, `${base}?watch=1&resourceVersion=${old}`);
    const e = await w.next();
    await w.ended;
    assert.equal(e.type, 'ERROR');
    assert.equal(e.object.kind, 'Status');
    assert.equal(e.object.code, 410);
    assert.equal(e.object.reason, 'Expired');
    const exact = await s.request('GET', `${base}?resourceVersion=${old}&resourceVersionMatch=Exact`);
    assert.equal(exact.status, 410);
  });
});

describe('reads by resourceVersion', () => {
  const s = useServer();

  it('get and list with "0" (any), not-older-than and exact', async () => {
    const created = (await s.request('POST', base, { body: cm('r1', {}, { v: 'one' }) })).json;
    const v1 = created.metadata.resourceVersion;
    const updated = (await s.request('PUT', `${base}/r1`, { body: { ...created, data: { v: 'two' } } })).json;
    const v2 = updated.metadata.resourceVersion;
    const notOlder = await s.request('GET', `${base}/r1?resourceVersion=${v2}`);
    assert.equal(notOlder.json.data.v, 'two');
    // "Any" may be stale in general; the cache has reached v2 by now
    const any = await s.request('GET', `${base}/r1?resourceVersion=0`);
    assert.equal(any.status, 200);
    const exact = await s.request('GET', `${base}?resourceVersion=${v1}&resourceVersionMatch=Exact`);
    assert.equal(exact.status, 200);
    assert.equal(exact.json.metadata.resourceVersion, v1);
    assert.equal(exact.json.items.find((i: any) => i.metadata.name === 'r1').data.v, 'one');
    const limited = await s.request('GET', `${base}?resourceVersion=${v1}&limit=10`);
    assert.equal(limited.json.metadata.resourceVersion, v1, 'limit with a resourceVersion reads exactly');
    const newer = await s.request('GET', `${base}?resourceVersion=${v2}&resourceVersionMatch=NotOlderThan`);
    assert.ok(Number(newer.json.metadata.resourceVersion) >= Number(v2));
  });

  it('invalid combinations are 400', async () => {
    for (const q of [
      'resourceVersionMatch=Exact',
      'resourceVersion=0&resourceVersionMatch=Exact',
      'resourceVersionMatch=NotOlderThan',
      'resourceVersion=5&limit=1&continue=abc',
      'resourceVersion=abc',
      'resourceVersion=5&resourceVersionMatch=Sometimes',
    ]) {
      const r = await s.request('GET', `${base}?${q}`);
      assert.equal(r.status, 400, q);
      assert.equal(r.json.kind, 'Status', q);
    }
  });

  it('a resourceVersion newer than anything known waits, then answers 504 with Retry-After', async () => {
    const started = Date.now();
    const r = await s.request('GET', `${base}?resourceVersion=99999999`);
    assert.equal(r.status, 504);
    assert.equal(r.headers['retry-after'], '1');
    assert.match(r.json.message, /Too large resource version/);
    assert.ok(Date.now() - started >= 2500);
  });
});

describe('chunked lists', () => {
  // counts every ConfigMap of its namespace: without the one root-ca-cert-publisher adds to each namespace
  const s = useServer({ args: ['--history-retention=3s', '--controllers=*,-root-ca-cert-publisher'] });
  const ns = '/api/v1/namespaces/chunks/configmaps';

  before(async () => {
    await s.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'chunks' } },
    });
    for (const name of ['a', 'b', 'c', 'd', 'e'])
      await s.request('POST', ns, { body: cm(name, {}, { v: '1' }) });
  });

  it('pages stay consistent at the first page’s revision while writers change the collection', async () => {
    const first = await s.request('GET', `${ns}?limit=2`);
    assert.deepEqual(
      first.json.items.map((i: any) => i.metadata.name),
      ['a', 'b'],
    );
    assert.equal(first.json.metadata.remainingItemCount, 3);
    const token = first.json.metadata.continue;
    assert.ok(token);
    // change the collection behind the reader's back
    const c = (await s.request('GET', `${ns}/c`)).json;
    await s.request('PUT', `${ns}/c`, { body: { ...c, data: { v: '2' } } });
    await s.request('DELETE', `${ns}/d`);
    await s.request('POST', ns, { body: cm('bb') });
    const second = await s.request('GET', `${ns}?limit=2&continue=${encodeURIComponent(token)}`);
    assert.equal(second.status, 200);
    assert.equal(second.json.metadata.resourceVersion, first.json.metadata.resourceVersion);
    assert.deepEqual(
      second.json.items.map((i: any) => [i.metadata.name, i.data.v]),
      [
        ['c', '1'],
        ['d', '1'],
      ],
    );
    const third = await s.request(
      'GET',
      `${ns}?limit=2&continue=${encodeURIComponent(second.json.metadata.continue)}`,
    );
    assert.deepEqual(
      third.json.items.map((i: any) => i.metadata.name),
      ['e'],
    );
    assert.equal(third.json.metadata.continue, undefined);
    const withSelector = await s.request('GET', `${ns}?limit=1&labelSelector=x!%3Dy`);
    assert.equal(withSelector.json.metadata.remainingItemCount, undefined, 'omitted with selectors');
    assert.ok(withSelector.json.metadata.continue);
  });

  it('a bad token is 400; a token older than the history window is 410', async () => {
    assert.equal((await s.request('GET', `${ns}?limit=1&continue=garbage`)).status, 400);
    const first = await s.request('GET', `${ns}?limit=1`);
    await s.request('POST', ns, { body: cm('later') });
    await new Promise((r) => setTimeout(r, 5000));
    await s.request('POST', ns, { body: cm('later-2') });
    const expired = await s.request(
      'GET',
      `${ns}?limit=1&continue=${encodeURIComponent(first.json.metadata.continue)}`,
    );
    assert.equal(expired.status, 410);
    assert.equal(expired.json.reason, 'Expired');
  });
});
