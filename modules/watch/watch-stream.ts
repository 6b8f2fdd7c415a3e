/**
 * Watch, first slice: each watcher tails the change log from its start revision. Correct (the table is the
 * truth) but one poll loop per watcher; the watch cache (one feed per replica) replaces this loop.
 */
import type { ServerResponse } from 'node:http';
import type { KubeObject } from '../api/object.js';
import type { Change, Store } from '../storage/store.js';

export interface WatchSpec {
  resource: string;
  /** '' watches every namespace */
  namespace: string;
  /** revision to start after; undefined: send the current state first */
  startRv?: number;
  matches(obj: KubeObject): boolean;
  timeoutMs: number;
  /** the current objects as a snapshot at a revision, for the initial ADDED events */
  initial(): Promise<{ rv: number; items: KubeObject[] }>;
  /** the object as the client asked for it (apiVersion of the request) */
  present(obj: KubeObject): KubeObject;
}

const POLL_MS = 50;
const PAGE = 500;

export async function streamWatch(store: Store, spec: WatchSpec, res: ServerResponse): Promise<void> {
  let open = true;
  res.on('close', () => (open = false));
  const timer = setTimeout(() => (open = false), spec.timeoutMs);
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
  res.flushHeaders();
  const send = (type: string, object: KubeObject) => {
    res.write(JSON.stringify({ type, object: spec.present(object) }) + '\n');
  };
  try {
    let last = spec.startRv;
    if (last === undefined) {
      const snapshot = await spec.initial();
      for (const item of snapshot.items) send('ADDED', item);
      last = snapshot.rv;
    }
    while (open) {
      const changes: Change[] = await store.changes(last, PAGE);
      for (const change of changes) {
        last = change.rv;
        if (change.resource !== spec.resource) continue;
        if (spec.namespace && change.namespace !== spec.namespace) continue;
        if (!spec.matches(change.object)) continue;
        send(change.type, change.object);
      }
      if (changes.length < PAGE) await new Promise((r) => setTimeout(r, POLL_MS));
    }
  } catch {
    // the database went away: end the stream; the client re-watches from its last revision
  } finally {
    clearTimeout(timer);
    res.end();
  }
}
