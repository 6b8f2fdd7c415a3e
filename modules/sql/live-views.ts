/**
 * Keeps schema `k8s` in step with the Registry: synced at start (after the stored CRDs are served: see
 * sql.module.ts) and again whenever a kind is added, changed or removed. Syncs never overlap; changes that
 * arrive during one are taken by one more. A failed sync (database away, a view held by a long reader) is
 * tried again, sooner at first.
 */
import type postgres from 'postgres';
import type { Registry } from '../registry/index.js';
import { baseSchema, syncViews, type SyncResult } from './view-sync.js';
import { viewSpecs } from './view-specs.js';

export interface LiveViewsOptions {
  /** --sql-expose-secret-data */
  exposeSecretData: boolean;
  /** --history-retention */
  retentionMs: number;
}

const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 60_000;

export class LiveViews {
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  private unsubscribe?: () => void;
  private retryTimer?: NodeJS.Timeout;
  private retryMs = RETRY_FIRST_MS;
  private base?: string;
  private lastSkipped = '';

  constructor(
    private readonly sql: postgres.Sql,
    private readonly registry: Registry,
    private readonly options: LiveViewsOptions,
    private readonly log: { info(m: string): void; warn(m: string): void },
  ) {}

  /** Follows the registry from now on; resolves once the first sync ended (well or not). */
  async start(): Promise<void> {
    this.unsubscribe = this.registry.subscribe(() => void this.kick());
    await this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.retryTimer);
    await this.running;
  }

  /** Syncs soon; the promise ends with a sync that began after this call. */
  kick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.loop().finally(() => (this.running = undefined));
    return this.running;
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      if (this.stopped) return;
      clearTimeout(this.retryTimer);
      try {
        this.report(await this.syncOnce());
        this.retryMs = RETRY_FIRST_MS;
      } catch (e) {
        this.log.warn(`SQL views not synced (next try in ${this.retryMs / 1000}s): ${(e as Error).message}`);
        this.retryTimer = setTimeout(() => void this.kick(), this.retryMs);
        this.retryTimer.unref();
        this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
      }
    } while (this.again);
  }

  private async syncOnce(): Promise<SyncResult> {
    this.base ??= await baseSchema(this.sql);
    const specs = viewSpecs(this.registry.stored, { ...this.options, base: this.base });
    return syncViews(this.sql, specs);
  }

  private report(result: SyncResult): void {
    const changed = [
      ...result.created.map((v) => `+${v}`),
      ...result.replaced.map((v) => `~${v}`),
      ...result.dropped.map((v) => `-${v}`),
    ];
    if (changed.length > 0) this.log.info(`SQL views in schema k8s: ${changed.join(' ')}`);
    const skipped = result.skipped.join('; ');
    if (skipped && skipped !== this.lastSkipped) this.log.warn(`SQL views left as they are: ${skipped}`);
    this.lastSkipped = skipped;
  }
}
