/**
 * POST /checkpoint/{namespace}/{pod}/{container}?timeout=N, as the kubelet answers it (spec part2 "Node-agent
 * checkpoint"): the Pod and a container of it (init and ephemeral ones too) must be on this node (else 404),
 * the runtime writes the archive where the kubelet would name it, and the answer is `{"items":["<path>"]}`.
 * `timeout` is in seconds (the last one given counts; text that is no integer is a 404, as the kubelet answers
 * it); the runtime gets at least runtimeRequestTimeout, as the kubelet's CRI client allows. A runtime that does
 * not support checkpointing (Unimplemented) and any other runtime failure are 500; one that does not find the
 * container (NotFound), like a container that has no runtime id, is the spec's 404.
 */
import { archivePath, ensureCheckpointsDir, restrictArchive } from './archive.js';
import type { PodsOnNode } from './pods.js';
import { GrpcCode, RuntimeError, type ContainerRuntime } from './runtime.js';

export interface CheckpointOptions {
  rootDir: string;
  pods: PodsOnNode;
  runtime: ContainerRuntime;
  /** KubeletConfiguration runtimeRequestTimeout */
  runtimeRequestTimeoutMs: number;
  now?: () => Date;
  log?: (message: string) => void;
}

export interface Answer {
  status: number;
  contentType: string;
  body: string;
}

const text = (status: number, body: string): Answer => ({
  status,
  contentType: 'text/plain; charset=utf-8',
  body,
});

export class CheckpointService {
  constructor(private readonly o: CheckpointOptions) {}

  async checkpoint(
    namespace: string,
    podName: string,
    containerName: string,
    timeouts: string[],
  ): Promise<Answer> {
    const pod = await this.o.pods.find(namespace, podName);
    if (!pod) return text(404, 'pod does not exist');
    const container = pod.containers.find((c) => c.name === containerName);
    if (!container) return text(404, `container ${containerName} does not exist`);
    let requested = 0;
    if (timeouts.length > 0) {
      const last = timeouts[timeouts.length - 1];
      if (!/^[+-]?\d+$/.test(last) || !Number.isSafeInteger(Number(last)))
        return text(404, 'cannot parse value of timeout parameter');
      requested = Number(last);
    }
    const failed = (why: string) =>
      `checkpointing of ${namespace}/${podName}/${containerName} failed (${why})`;
    if (requested < 0) return text(500, failed('CheckpointContainer requires the timeout value to be > 0'));
    if (!container.id) return text(404, failed(`container ${containerName} not found`));
    const timeoutSeconds = Math.max(requested, Math.floor(this.o.runtimeRequestTimeoutMs / 1000));
    const location = archivePath(
      this.o.rootDir,
      namespace,
      podName,
      containerName,
      (this.o.now ?? (() => new Date()))(),
    );
    try {
      await ensureCheckpointsDir(this.o.rootDir);
      await this.o.runtime.checkpointContainer({
        pod,
        container: { ...container, id: container.id },
        location,
        timeoutSeconds,
      });
      await restrictArchive(location);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.o.log?.(failed(message));
      if (e instanceof RuntimeError && e.code === GrpcCode.UNIMPLEMENTED)
        return text(500, failed(`the container runtime does not support checkpointing: ${message}`));
      if (e instanceof RuntimeError && e.code === GrpcCode.NOT_FOUND)
        return text(404, failed(`container ${containerName} not found by the container runtime: ${message}`));
      return text(500, failed(message));
    }
    return { status: 200, contentType: 'application/json', body: JSON.stringify({ items: [location] }) };
  }
}
