/** Keeps a NodeGraph in step with this replica's watch cache: an informer on pods. */
import { Informer, type WatchCache } from '../watch/index.js';
import { NodeGraph } from './node-graph.js';

export class NodeGraphInformer {
  readonly graph = new NodeGraph();
  private readonly informer: Informer;
  private started?: Promise<void>;

  constructor(cache: WatchCache) {
    this.informer = new Informer(cache, '/pods', (e) => {
      if (e.type === 'DELETED') this.graph.deletePod(e.object);
      else this.graph.setPod(e.object);
    });
  }

  /** Resolves once every stored pod is in the graph; the first call starts the informer. */
  start(): Promise<void> {
    this.started ??= this.informer.start();
    return this.started;
  }

  stop(): void {
    this.informer.stop();
  }
}
