/**
 * The pods bound to this process's nodes, listed then watched (relisted when the watch ends or expires), and
 * handed to the node each is bound to. One agent watches `spec.nodeName=<node>`; a process simulating many
 * nodes shares one watch of every pod.
 */
import type { ApiClient } from './api-client.js';

export type PodHandler = (pod: any, deleted: boolean) => void;

const RELIST_PAUSE_MS = 1_000;

export class PodFeed {
  private readonly handlers = new Map<string, PodHandler>();
  private stopped = false;
  private stopWatch = () => {};

  constructor(
    private readonly api: ApiClient,
    /** the one node watched, or undefined for every pod */
    private readonly node?: string,
  ) {}

  subscribe(node: string, handler: PodHandler): void {
    this.handlers.set(node, handler);
  }

  unsubscribe(node: string): void {
    this.handlers.delete(node);
  }

  start(): void {
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    this.stopWatch();
  }

  private dispatch(pod: any, deleted: boolean): void {
    const node = pod?.spec?.nodeName;
    if (node) this.handlers.get(node)?.(pod, deleted);
  }

  private async run(): Promise<void> {
    const selector = this.node ? `fieldSelector=${encodeURIComponent(`spec.nodeName=${this.node}`)}` : '';
    const known = new Map<string, any>();
    while (!this.stopped) {
      const list = await this.api.request('GET', `/api/v1/pods?${selector}`).catch(() => undefined);
      if (list?.status !== 200) {
        await pause(RELIST_PAUSE_MS);
        continue;
      }
      const seen = new Set<string>();
      for (const pod of list.body.items ?? []) {
        pod.apiVersion = 'v1';
        pod.kind = 'Pod';
        seen.add(pod.metadata.uid);
        known.set(pod.metadata.uid, pod);
        this.dispatch(pod, false);
      }
      for (const [uid, pod] of known)
        if (!seen.has(uid)) {
          known.delete(uid);
          this.dispatch(pod, true);
        }
      const rv = list.body.metadata.resourceVersion;
      const path = `/api/v1/pods?watch=true&allowWatchBookmarks=true&resourceVersion=${rv}${selector ? `&${selector}` : ''}`;
      const watch = this.api.watch(path, (e) => {
        if (e.type === 'ERROR' || e.type === 'BOOKMARK') return;
        if (e.type === 'DELETED') known.delete(e.object.metadata.uid);
        else known.set(e.object.metadata.uid, e.object);
        this.dispatch(e.object, e.type === 'DELETED');
      });
      this.stopWatch = watch.stop;
      await watch.ended;
      if (!this.stopped) await pause(RELIST_PAUSE_MS);
    }
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
