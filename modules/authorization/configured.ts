/**
 * The authorizers of an --authorization-config file, as one member of the chain that swaps them as a whole
 * when the file is reloaded: a request is judged by one configuration, never half of each. Reloads are
 * kube's: on a change of the file and every 60 s; an unchanged file is nothing to do; a file that does not
 * parse, does not validate or adds/removes a non-webhook authorizer keeps the old authorizers, and is
 * reported (log and metrics).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { followPath, type PathFollower, type UserInfo } from '../api/index.js';
import {
  parseAuthorizationConfiguration,
  refusedReload,
  type AuthorizationConfiguration,
  type MatchConditionCheck,
} from './authorization-config.js';
import type { Attributes, Authorizer, RulesAnswer, Verdict } from './authorizer.js';
import { AuthorizerChain } from './chain.js';
import { Instrumented, type DecisionObserver } from './modes.js';

/** One configured authorizer, with what kube's decision metric labels it by. */
export interface NamedAuthorizer {
  type: string;
  name: string;
  authorizer: Authorizer;
  /** lets go of what it holds (a webhook's connections), once no request can be using it */
  close?: () => void;
}

/** how long a replaced authorizer is kept open: a request that began with it may still be asking (30 s at most) */
const RETIRE_MS = 35_000;

export type ReloadStatus = 'success' | 'failure';

export interface ConfiguredOptions {
  file: string;
  /** compiles a match condition (modules/cel); a string is why it does not */
  check: MatchConditionCheck;
  /** the authorizers of a configuration (webhooks new each time; Node and RBAC may be the same objects) */
  build: (config: AuthorizationConfiguration) => Promise<NamedAuthorizer[]>;
  log: (message: string) => void;
  /** a reload happened (kube's apiserver_authorization_config_controller_automatic_reload* metrics) */
  onReload?: (status: ReloadStatus, hash: string) => void;
  /** a terminal decision (kube's apiserver_authorization_decisions_total) */
  onDecision?: DecisionObserver;
  /** kube polls every minute besides watching the file */
  pollMs?: number;
}

const sha256 = (bytes: string) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

export class ConfiguredAuthorizers implements Authorizer {
  private current: readonly NamedAuthorizer[] = [];
  private chain = new AuthorizerChain([]);
  private config?: AuthorizationConfiguration;
  private hash = '';
  private follower?: PathFollower;
  private reloading: Promise<void> = Promise.resolve();

  constructor(private readonly options: ConfiguredOptions) {}

  /** The first load: a file that does not work stops the server (thrown, naming the flag). */
  async start(): Promise<void> {
    const text = await this.read();
    const config = this.parse(text);
    this.swap(config, await this.options.build(config), sha256(text));
    this.follower = followPath(this.options.file, false, () => void this.reload(), this.options.pollMs);
  }

  stop(): void {
    this.follower?.stop();
    for (const a of this.current) a.close?.();
  }

  /** Reads the file again; one reload at a time. Resolves when done, whatever the outcome. */
  reload(): Promise<void> {
    this.reloading = this.reloading.then(() => this.reloadOnce());
    return this.reloading;
  }

  get configuration(): AuthorizationConfiguration | undefined {
    return this.config;
  }

  /** as the chain judges: the first allow or deny, else no opinion with the reasons and errors (a 500 if any) */
  authorize(attributes: Attributes): Promise<Verdict> {
    return this.chain.decide(attributes);
  }

  rulesFor(user: UserInfo, namespace: string): Promise<RulesAnswer> {
    return this.chain.rulesFor(user, namespace);
  }

  private async reloadOnce(): Promise<void> {
    let text: string;
    try {
      text = await this.read();
    } catch (e) {
      return this.failed((e as Error).message);
    }
    const hash = sha256(text);
    if (hash === this.hash) return;
    let config: AuthorizationConfiguration;
    try {
      config = this.parse(text);
    } catch (e) {
      return this.failed((e as Error).message, hash);
    }
    const refused = this.config && refusedReload(this.config, config);
    if (refused) return this.failed(refused, hash);
    let built: NamedAuthorizer[];
    try {
      built = await this.options.build(config);
    } catch (e) {
      return this.failed((e as Error).message, hash);
    }
    this.swap(config, built, hash);
    this.options.log(`--authorization-config: ${this.options.file} reloaded`);
    this.options.onReload?.('success', hash);
  }

  /** the file stays as it was; the hash is remembered so a broken file is reported once, not every minute */
  private failed(why: string, hash?: string): void {
    if (hash) this.hash = hash;
    this.options.log(
      `--authorization-config: ${this.options.file} not reloaded, the previous configuration stays: ${why}`,
    );
    this.options.onReload?.('failure', hash ?? this.hash);
  }

  private swap(config: AuthorizationConfiguration, authorizers: NamedAuthorizer[], hash: string): void {
    const retired = this.current.filter((old) => !authorizers.some((a) => a.authorizer === old.authorizer));
    this.config = config;
    this.current = authorizers;
    const observe = this.options.onDecision;
    this.chain = new AuthorizerChain(
      authorizers.map((a) =>
        observe ? new Instrumented(a.authorizer, a.type, a.name, observe) : a.authorizer,
      ),
    );
    this.hash = hash;
    if (retired.some((a) => a.close))
      setTimeout(() => retired.forEach((a) => a.close?.()), RETIRE_MS).unref();
  }

  private async read(): Promise<string> {
    try {
      return await readFile(this.options.file, 'utf8');
    } catch (e) {
      throw new Error(`--authorization-config: ${(e as Error).message}`);
    }
  }

  private parse(text: string): AuthorizationConfiguration {
    try {
      return parseAuthorizationConfiguration(text, this.options.file, this.options.check);
    } catch (e) {
      throw new Error(`--authorization-config: ${(e as Error).message}`);
    }
  }
}
