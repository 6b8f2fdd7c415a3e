/**
 * Graceful deletion of Pods on the real server, driven by the real kubectl: an unbound pod goes at once; a
 * bound one turns Terminating for its grace period (no node agent runs here, so the test deletes it with
 * grace 0 as the agent would), which a later delete may shorten but never lengthen; watchers see each step;
 * dryRun, preconditions, eviction, finalizers and namespace deletion take the same path.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventually } from './support/eventually.js';
import { kubectl as run } from './support/kubectl.js';
import { useServer } from './support/use-server.js';
import { openWatch, type WatchStream } from './support/watch-client.js';

const pods = (ns = 'default') => `/api/v1/namespaces/${ns}/pods`;

const podBody = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, ...extra },
  spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] },
});

describe('graceful deletion of Pods', () => {
  // pods are bound by hand: no scheduler, and no node lifecycle to mark them
  const s = useServer({ args: ['--controllers=*,-scheduler,-taint-eviction-controller,-nodelifecycle'] });
  const k = async (args: string[]) => {
    const r = await run(args, { kubeconfig: s.kubeconfig });
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}:\n${r.stderr}`);
    return r.stdout;
  };
  const create = async (name: string, ns = 'default', meta: Record<string, unknown> = {}) => {
    const r = await s.request('POST', pods(ns), { body: podBody(name, meta) });
    assert.equal(r.status, 201, r.text);
    return r.json;
  };
  /** bound to a node, as the scheduler binds: the pod now runs somewhere and must be stopped first */
  const bind = async (name: string, ns = 'default') => {
    const r = await s.request('POST', `${pods(ns)}/${name}/binding`, {
      body: { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { kind: 'Node', name: 'n1' } },
    });
    assert.equal(r.status, 201, r.text);
  };
  const get = async (name: string, ns = 'default') => s.request('GET', `${pods(ns)}/${name}`);
  const watchPod = async (name: string, rv: string): Promise<WatchStream> => {
    const w = await openWatch(
      s,
      `${pods()}?watch=true&fieldSelector=metadata.name%3D${name}&resourceVersion=${rv}`,
    );
    assert.equal(w.status, 200);
    return w;
  };
  const seconds = (stamp: string) => Date.parse(stamp) / 1000;

  it('kubectl delete of an unbound pod removes it at once (grace 0: written, then removed)', async () => {
    const pod = await create('u1');
    const w = await watchPod('u1', pod.metadata.resourceVersion);
    try {
      const out = await k(['delete', 'pod', 'u1', '--timeout=10s']);
      assert.equal(out.trim(), 'pod "u1" deleted');
      assert.equal((await get('u1')).status, 404);
      const modified = await w.next(5000);
      assert.equal(modified.type, 'MODIFIED');
      assert.equal(modified.object.metadata.deletionGracePeriodSeconds, 0);
      assert.ok(modified.object.metadata.deletionTimestamp);
      const deleted = await w.next(5000);
      assert.equal(deleted.type, 'DELETED');
    } finally {
      w.close();
    }
  });

  it('a bound pod turns Terminating; a shorter grace period shortens it, a longer one does not; --force removes it', async () => {
    await create('b1');
    await bind('b1');
    const w = await watchPod('b1', (await get('b1')).json.metadata.resourceVersion);
    try {
      // kubectl delete waits for the pod to go, which only a delete with grace 0 does
      const waiting = run(['delete', 'pod', 'b1', '--timeout=60s'], {
        kubeconfig: s.kubeconfig,
        timeoutMs: 60_000,
      });
      const first = await w.next(10_000);
      assert.equal(first.type, 'MODIFIED');
      const meta = first.object.metadata;
      assert.equal(meta.deletionGracePeriodSeconds, 30);
      const due = seconds(meta.deletionTimestamp) - Date.now() / 1000;
      assert.ok(due > 25 && due <= 31, `deletionTimestamp ${meta.deletionTimestamp} is about 30 s away`);
      const table = (await k(['get', 'pod', 'b1', '--no-headers'])).trim().split(/\s+/);
      assert.equal(table[2], 'Terminating');

      // a delete that gives a longer period, or none, changes nothing and answers the pod
      const longer = await s.request('DELETE', `${pods()}/b1`, { body: { gracePeriodSeconds: 60 } });
      assert.equal(longer.status, 200, longer.text);
      assert.equal(longer.json.kind, 'Pod');
      assert.equal(longer.json.metadata.deletionGracePeriodSeconds, 30);
      assert.equal(longer.json.metadata.resourceVersion, meta.resourceVersion);

      await k(['delete', 'pod', 'b1', '--grace-period=5', '--wait=false']);
      const shortened = await w.next(5000);
      assert.equal(shortened.type, 'MODIFIED');
      assert.equal(shortened.object.metadata.deletionGracePeriodSeconds, 5);
      assert.equal(
        seconds(shortened.object.metadata.deletionTimestamp),
        seconds(meta.deletionTimestamp) - 25,
        'the deletionTimestamp moves back by the difference',
      );

      // the node agent's status writes during the grace period leave the pod in place
      const status = await s.request('PATCH', `${pods()}/b1/status`, {
        raw: JSON.stringify({ status: { phase: 'Running' } }),
        headers: { 'Content-Type': 'application/merge-patch+json' },
      });
      assert.equal(status.status, 200, status.text);
      assert.equal((await w.next(5000)).type, 'MODIFIED');
      assert.equal((await get('b1')).status, 200);

      const forced = await run(['delete', 'pod', 'b1', '--grace-period=0', '--force'], {
        kubeconfig: s.kubeconfig,
      });
      assert.equal(forced.code, 0, forced.stderr);
      assert.match(forced.stderr, /Immediate deletion does not wait/);
      assert.equal((await get('b1')).status, 404);
      const cut = await w.next(5000);
      assert.equal(cut.type, 'MODIFIED');
      assert.equal(cut.object.metadata.deletionGracePeriodSeconds, 0);
      assert.equal((await w.next(5000)).type, 'DELETED');

      const done = await waiting;
      assert.equal(done.code, 0, done.stderr);
      assert.equal(done.stdout.trim(), 'pod "b1" deleted');
    } finally {
      w.close();
    }
  });

  it('dryRun leaves a bound pod untouched and answers what the delete would do', async () => {
    await create('d1');
    await bind('d1');
    const before = (await get('d1')).json;
    const dry = await s.request('DELETE', `${pods()}/d1?dryRun=All`);
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.json.metadata.deletionGracePeriodSeconds, 30);
    await k(['delete', 'pod', 'd1', '--dry-run=server']);
    const after = (await get('d1')).json;
    assert.deepEqual(after, before);
    assert.equal(after.metadata.deletionTimestamp, undefined);
  });

  it('preconditions are checked: another uid or revision is 409 and the pod stays as it was', async () => {
    const pod = (await get('d1')).json;
    const wrongUid = await s.request('DELETE', `${pods()}/d1`, {
      body: { preconditions: { uid: 'not-the-uid' } },
    });
    assert.equal(wrongUid.status, 409, wrongUid.text);
    assert.equal(
      wrongUid.json.message,
      `Operation cannot be fulfilled on Pod "d1": the UID in the precondition (not-the-uid) does not match the UID in record (${pod.metadata.uid}). The object might have been deleted and then recreated`,
    );
    const wrongRv = await s.request('DELETE', `${pods()}/d1`, {
      body: { preconditions: { resourceVersion: '1' } },
    });
    assert.equal(wrongRv.status, 409, wrongRv.text);
    assert.equal((await get('d1')).json.metadata.deletionTimestamp, undefined);
    const right = await s.request('DELETE', `${pods()}/d1`, {
      body: {
        gracePeriodSeconds: 0,
        preconditions: { uid: pod.metadata.uid, resourceVersion: pod.metadata.resourceVersion },
      },
    });
    assert.equal(right.status, 200, right.text);
    // kube's pods answer with the pod as it was removed, not a Status
    assert.equal(right.json.kind, 'Pod');
    assert.equal(right.json.metadata.deletionGracePeriodSeconds, 0);
    assert.equal((await get('d1')).status, 404);
  });

  it('eviction of a bound pod makes it Terminating through the same graceful path', async () => {
    await create('e1');
    await bind('e1');
    const r = await s.request('POST', `${pods()}/e1/eviction`, {
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'e1' } },
    });
    assert.equal(r.status, 201, r.text);
    const pod = (await get('e1')).json;
    assert.equal(pod.metadata.deletionGracePeriodSeconds, 30);
    assert.ok(pod.metadata.deletionTimestamp);
    const shorter = await s.request('POST', `${pods()}/e1/eviction`, {
      body: {
        apiVersion: 'policy/v1',
        kind: 'Eviction',
        metadata: { name: 'e1' },
        deleteOptions: { gracePeriodSeconds: 0 },
      },
    });
    assert.equal(shorter.status, 201, shorter.text);
    assert.equal((await get('e1')).status, 404);
  });

  it('a finalizer holds a pod whose grace period is cut to 0 until it goes', async () => {
    await create('f1', 'default', { finalizers: ['example.com/hold'] });
    await bind('f1');
    await k(['delete', 'pod', 'f1', '--grace-period=0', '--force', '--wait=false']);
    const held = (await get('f1')).json;
    assert.equal(held.metadata.deletionGracePeriodSeconds, 0);
    const r = await s.request('PATCH', `${pods()}/f1`, {
      raw: JSON.stringify({ metadata: { finalizers: null } }),
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal((await get('f1')).status, 404);
  });

  it('a deleted namespace removes its unbound pods at once and waits for its bound ones', async () => {
    await k(['create', 'namespace', 'gone']);
    await create('loose', 'gone');
    await create('running', 'gone');
    await bind('running', 'gone');
    await k(['delete', 'namespace', 'gone', '--wait=false']);
    await eventually(async () => (await get('loose', 'gone')).status === 404, 'unbound pod removed');
    const running = (await get('running', 'gone')).json;
    assert.equal(running.metadata.deletionGracePeriodSeconds, 30);
    assert.equal((await s.request('GET', '/api/v1/namespaces/gone')).json.status.phase, 'Terminating');
    // what the node agent does once the containers stopped
    await k(['delete', 'pod', 'running', '-n', 'gone', '--grace-period=0', '--force']);
    await eventually(
      async () => (await s.request('GET', '/api/v1/namespaces/gone')).status === 404,
      'namespace removed',
      30_000,
    );
  });
});
