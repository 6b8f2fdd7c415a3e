/** The container runtime over CRI (--container-runtime-endpoint, a unix socket). */
import { CHECKPOINT_CONTAINER, encodeCheckpointContainerRequest } from './cri-messages.js';
import { grpcUnary } from './grpc.js';
import type { CheckpointRequest, ContainerRuntime } from './runtime.js';

/**
 * The socket of an endpoint as the kubelet takes it on Linux: `unix:///path`, or a bare path (the kubelet's
 * deprecated fallback to unix). Any other protocol is refused.
 */
export function unixSocketPath(endpoint: string): string {
  if (endpoint.startsWith('/')) return endpoint;
  const m = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(endpoint);
  if (!m) throw new Error(`container runtime endpoint ${JSON.stringify(endpoint)}: not a unix socket`);
  if (m[1].toLowerCase() !== 'unix')
    throw new Error(
      `container runtime endpoint ${JSON.stringify(endpoint)}: protocol "${m[1]}" not supported`,
    );
  if (!m[2].startsWith('/'))
    throw new Error(
      `container runtime endpoint ${JSON.stringify(endpoint)}: the socket path must be absolute`,
    );
  return m[2];
}

export class CriRuntime implements ContainerRuntime {
  readonly socketPath: string;

  constructor(endpoint: string) {
    this.socketPath = unixSocketPath(endpoint);
  }

  async checkpointContainer(r: CheckpointRequest): Promise<void> {
    const request = encodeCheckpointContainerRequest({
      containerId: r.container.id,
      location: r.location,
      timeout: r.timeoutSeconds,
    });
    await grpcUnary(this.socketPath, CHECKPOINT_CONTAINER, request, r.timeoutSeconds * 1000);
  }
}
