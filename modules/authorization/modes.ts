/**
 * `--authorization-mode` and the flags that go with its modes, checked at parse time with kube's messages,
 * and the chain they make: system:masters first (kube's privileged-group authorizer), then each mode in the
 * order given. A mode is built by its factory from what the server has at start.
 */
import type { Attributes, Authorizer, Verdict } from './authorizer.js';
import { AuthorizerChain } from './chain.js';
import { PrivilegedGroupsAuthorizer } from './privileged-groups.js';
import { AlwaysAllowAuthorizer, AlwaysDenyAuthorizer } from './always.js';
import { NodeAuthorizer } from './node.js';

export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'RBAC', 'Node', 'Webhook'] as const;
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];

export interface AuthorizationFlags {
  /** --authorization-mode, as given; empty: not given */
  modes: string[];
  /** --authorization-policy-file (ABAC) */
  policyFile?: string;
  /** --authorization-webhook-config-file (Webhook) */
  webhookConfigFile?: string;
  /** --authorization-config (AuthorizationConfiguration); excludes the flags above */
  configFile?: string;
}

export class AuthorizationFlagError extends Error {}

/** kube's checks of the authorization flags (BuildAuthorizer's options validation), with its wording. */
export function checkAuthorizationFlags(f: AuthorizationFlags, given: ReadonlySet<string>): void {
  if (f.configFile !== undefined) {
    const legacy = [
      'authorization-mode',
      'authorization-policy-file',
      'authorization-webhook-config-file',
      'authorization-webhook-version',
      'authorization-webhook-cache-authorized-ttl',
      'authorization-webhook-cache-unauthorized-ttl',
      // pgkube's own: AuthorizationConfiguration gives each webhook its timeout
      'authorization-webhook-timeout',
    ].filter((flag) => given.has(flag));
    if (legacy.length > 0)
      throw new AuthorizationFlagError(
        `--authorization-config can not be specified when ${legacy.map((l) => `--${l}`).join(', ')} flags are set`,
      );
    return;
  }
  const seen = new Set<string>();
  for (const mode of f.modes) {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(mode))
      throw new AuthorizationFlagError(
        `--authorization-mode: authorization-mode "${mode}" is not a valid mode (valid: ${AUTHORIZATION_MODES.join(', ')})`,
      );
    if (seen.has(mode))
      throw new AuthorizationFlagError(`--authorization-mode: "${mode}" has mode specified more than once`);
    seen.add(mode);
  }
  if (given.has('authorization-mode') && f.modes.length === 0)
    throw new AuthorizationFlagError('--authorization-mode: at least one authorization-mode must be passed');
  if (seen.has('ABAC') && !f.policyFile)
    throw new AuthorizationFlagError(
      "--authorization-mode ABAC's authorization policy file not passed (--authorization-policy-file)",
    );
  if (!seen.has('ABAC') && f.policyFile)
    throw new AuthorizationFlagError('cannot specify --authorization-policy-file without mode ABAC');
  if (seen.has('Webhook') && !f.webhookConfigFile)
    throw new AuthorizationFlagError(
      "--authorization-mode Webhook's authorization config file not passed (--authorization-webhook-config-file)",
    );
  if (!seen.has('Webhook') && f.webhookConfigFile)
    throw new AuthorizationFlagError(
      'cannot specify --authorization-webhook-config-file without mode Webhook',
    );
}

/** Builds one mode's authorizer; a mode without a factory is refused at start. */
export type ModeFactory = () => Authorizer | Promise<Authorizer>;

/** the modes that need nothing from the server to be made */
export const builtinFactories: Partial<Record<AuthorizationMode, ModeFactory>> = {
  AlwaysAllow: () => new AlwaysAllowAuthorizer(),
  AlwaysDeny: () => new AlwaysDenyAuthorizer(),
  Node: () => new NodeAuthorizer(),
};

/** A terminal decision of a mode's authorizer, for apiserver_authorization_decisions_total */
export type DecisionObserver = (type: string, name: string, decision: 'allowed' | 'denied') => void;

/** kube's InstrumentedAuthorizer: counts the allows and denies of one mode (named as kube names it) */
export class Instrumented implements Authorizer {
  readonly rulesFor?: Authorizer['rulesFor'];

  constructor(
    private readonly inner: Authorizer,
    private readonly type: string,
    private readonly name: string,
    private readonly observe: DecisionObserver,
  ) {
    if (inner.rulesFor) this.rulesFor = (user, namespace) => inner.rulesFor!(user, namespace);
  }

  async authorize(a: Attributes): Promise<Verdict> {
    const verdict = await this.inner.authorize(a);
    if (verdict.decision !== 'noOpinion')
      this.observe(this.type, this.name, verdict.decision === 'allow' ? 'allowed' : 'denied');
    return verdict;
  }
}

/** kube's default --authorization-mode */
export const DEFAULT_AUTHORIZATION_MODES: readonly string[] = ['Node', 'RBAC'];

/**
 * The chain for `modes` (kube's default `Node,RBAC` when none is given). Each mode's allows and denies go to
 * `observe` (kube names a flag's mode by its lowercase type, and its webhook "webhook").
 */
export async function authorizerChain(
  modes: readonly string[],
  factories: Partial<Record<AuthorizationMode, ModeFactory>> = {},
  observe?: DecisionObserver,
): Promise<AuthorizerChain> {
  const privileged = new PrivilegedGroupsAuthorizer();
  if (modes.length === 0) modes = DEFAULT_AUTHORIZATION_MODES;
  const all = { ...builtinFactories, ...factories };
  const authorizers: Authorizer[] = [privileged];
  for (const mode of modes) {
    const factory = all[mode as AuthorizationMode];
    if (!factory) throw new AuthorizationFlagError(`--authorization-mode: ${mode} is not served yet`);
    const authorizer = await factory();
    authorizers.push(
      observe
        ? new Instrumented(authorizer, mode, mode === 'Webhook' ? 'webhook' : mode.toLowerCase(), observe)
        : authorizer,
    );
  }
  return new AuthorizerChain(authorizers);
}
