// kube's authorizer library (since 1.27, selectors since 1.31): authorizer.group(g).resource(r)...check(verb),
// authorizer.path(p).check(verb), authorizer.serviceAccount(ns, name), and the Decision accessors. Checks
// are answered synchronously by the caller's callback, so the library has no tie to modules/authorization.
import type { Environment } from '@marcbachmann/cel-js';

export interface CelAuthzUser {
  name: string;
  groups: string[];
}

/** What one check asks: kube's authorizer.Attributes, as the library fills them. */
export interface CelAuthzAttributes {
  user: CelAuthzUser;
  verb: string;
  resourceRequest: boolean;
  path?: string;
  apiGroup?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  fieldSelector?: string;
  labelSelector?: string;
}

export interface CelAuthzDecision {
  decision: 'allow' | 'deny' | 'noOpinion';
  reason?: string;
  /** set when the authorizer failed: errored() is then true and error() says this */
  error?: string;
}

export type CelAuthorize = (attributes: CelAuthzAttributes) => CelAuthzDecision;

/** The `authorizer` variable's value: the requester, and how to ask about it. */
export class CelAuthorizer {
  constructor(
    readonly user: CelAuthzUser,
    readonly authorize: CelAuthorize,
  ) {}
}

export class PathCheck {
  constructor(
    readonly authz: CelAuthorizer,
    readonly path: string,
  ) {}
}

export class GroupCheck {
  constructor(
    readonly authz: CelAuthorizer,
    readonly group: string,
  ) {}
}

type ResourceFields = Omit<CelAuthzAttributes, 'user' | 'verb' | 'resourceRequest' | 'path'>;

export class ResourceCheck {
  constructor(
    readonly authz: CelAuthorizer,
    readonly fields: ResourceFields,
  ) {}
  with(change: ResourceFields): ResourceCheck {
    return new ResourceCheck(this.authz, { ...this.fields, ...change });
  }
}

export class Decision {
  constructor(readonly answer: CelAuthzDecision) {}
}

function ask(authz: CelAuthorizer, attrs: Omit<CelAuthzAttributes, 'user'>): Decision {
  try {
    return new Decision(authz.authorize({ user: authz.user, ...attrs }));
  } catch (e) {
    return new Decision({ decision: 'noOpinion', error: (e as Error).message });
  }
}

export function registerAuthorizer(env: Environment): void {
  const A = 'kubernetes.authorization.Authorizer';
  const P = 'kubernetes.authorization.PathCheck';
  const G = 'kubernetes.authorization.GroupCheck';
  const R = 'kubernetes.authorization.ResourceCheck';
  const D = 'kubernetes.authorization.Decision';
  env.registerType(A, CelAuthorizer);
  env.registerType(P, PathCheck);
  env.registerType(G, GroupCheck);
  env.registerType(R, ResourceCheck);
  env.registerType(D, Decision);
  env.registerFunction(`${A}.path(string): ${P}`, (a: CelAuthorizer, p: string) => new PathCheck(a, p));
  env.registerFunction(`${A}.group(string): ${G}`, (a: CelAuthorizer, g: string) => new GroupCheck(a, g));
  env.registerFunction(
    `${A}.serviceAccount(string, string): ${A}`,
    (a: CelAuthorizer, ns: string, name: string) =>
      new CelAuthorizer(
        {
          name: `system:serviceaccount:${ns}:${name}`,
          groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`],
        },
        a.authorize,
      ),
  );
  env.registerFunction(
    `${G}.resource(string): ${R}`,
    (g: GroupCheck, r: string) => new ResourceCheck(g.authz, { apiGroup: g.group, resource: r }),
  );
  for (const field of ['subresource', 'namespace', 'name', 'fieldSelector', 'labelSelector'] as const) {
    env.registerFunction(`${R}.${field}(string): ${R}`, (r: ResourceCheck, v: string) =>
      r.with({ [field]: v }),
    );
  }
  env.registerFunction(`${P}.check(string): ${D}`, (p: PathCheck, verb: string) =>
    ask(p.authz, { verb, resourceRequest: false, path: p.path }),
  );
  env.registerFunction(`${R}.check(string): ${D}`, (r: ResourceCheck, verb: string) =>
    ask(r.authz, { verb, resourceRequest: true, ...r.fields }),
  );
  env.registerFunction(`${D}.allowed(): bool`, (d: Decision) => d.answer.decision === 'allow');
  env.registerFunction(`${D}.reason(): string`, (d: Decision) => d.answer.reason ?? '');
  env.registerFunction(`${D}.errored(): bool`, (d: Decision) => d.answer.error !== undefined);
  env.registerFunction(`${D}.error(): string`, (d: Decision) => d.answer.error ?? '');
}
