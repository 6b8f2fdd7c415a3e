/**
 * `--api-definitions` followed while the server runs: when its files change, they are read and applied again
 * (server-side apply by `pgkube`, as at start). A file that no longer reads, or a CRD the server refuses, is
 * logged once and leaves what was applied before in place. A definition removed from the files is not deleted
 * from the server: its objects stay until someone deletes the CRD.
 */
import { stat } from 'node:fs/promises';
import { followPath, type PathFollower } from '../api/index.js';
import type { GenericStore, ResourceDefinition } from '../registry/index.js';
import { applyApiDefinitions, readApiDefinitions, type ApiDefinition } from './definitions.js';

const fingerprint = (definitions: readonly ApiDefinition[]) => JSON.stringify(definitions);

export class DefinitionsFollower {
  private follower?: PathFollower;
  private applied = '';
  private reloading: Promise<void> = Promise.resolve();

  constructor(
    private readonly target: string,
    private readonly generic: GenericStore,
    private readonly kind: ResourceDefinition,
    private readonly log: (message: string) => void,
    private readonly pollMs?: number,
  ) {}

  /** `applied`: what the start applied (read from the same files) */
  async start(applied: readonly ApiDefinition[]): Promise<void> {
    this.applied = fingerprint(applied);
    const directory = (await stat(this.target).catch(() => undefined))?.isDirectory() ?? false;
    this.follower = followPath(this.target, directory, () => void this.reload(), this.pollMs);
  }

  stop(): void {
    this.follower?.stop();
  }

  /** Reads and applies the files again if they changed; one at a time; resolves when done. */
  reload(): Promise<void> {
    this.reloading = this.reloading.then(() => this.reloadOnce());
    return this.reloading;
  }

  private async reloadOnce(): Promise<void> {
    let definitions: ApiDefinition[];
    try {
      definitions = await readApiDefinitions(this.target);
    } catch (e) {
      return this.failed((e as Error).message, `unreadable:${(e as Error).message}`);
    }
    const now = fingerprint(definitions);
    if (now === this.applied) return;
    try {
      await applyApiDefinitions(this.generic, this.kind, definitions);
    } catch (e) {
      return this.failed((e as Error).message, now);
    }
    this.applied = now;
    this.log(`--api-definitions: ${this.target} applied again (${definitions.length} definitions)`);
  }

  /** reported once per broken content, not at every poll; what was applied stays */
  private failed(why: string, content: string): void {
    if (content === this.applied) return;
    this.applied = content;
    this.log(`${why}; the definitions applied before stay`);
  }
}
