/**
 * The simulated runtime's checkpoint (no --container-runtime-endpoint): the containers run no process, so the
 * archive holds what there is, the container's state as the agent knows it, as JSON in a small ustar archive,
 * written 0600.
 */
import { chmod, writeFile } from 'node:fs/promises';
import type { CheckpointRequest, ContainerRuntime } from './runtime.js';
import { tarArchive } from './tar.js';

export class SimulatedRuntime implements ContainerRuntime {
  constructor(private readonly now: () => Date = () => new Date()) {}

  async checkpointContainer(r: CheckpointRequest): Promise<void> {
    const checkpointedAt = this.now();
    const state = {
      pod: { namespace: r.pod.namespace, name: r.pod.name, uid: r.pod.uid },
      container: { name: r.container.name, id: r.container.id, image: r.container.image },
      state: r.container.state ?? null,
      checkpointedAt: checkpointedAt.toISOString(),
      runtime: 'pgkube-simulated',
    };
    const archive = tarArchive([
      {
        name: 'container.json',
        data: Buffer.from(`${JSON.stringify(state, null, 2)}\n`),
        mtime: checkpointedAt,
      },
    ]);
    await writeFile(r.location, archive, { mode: 0o600, flag: 'wx' });
    // the umask may have narrowed it; say it exactly
    await chmod(r.location, 0o600);
  }
}
