/**
 * kube's path authorizer (--authorization-always-allow-paths of a delegating server): non-resource requests
 * to these paths are allowed for anyone, the anonymous user included, so the host's health probes need no
 * credentials and no review. A path ending in `*` allows every path it prefixes; the leading `/` is optional.
 */
import { allow, noOpinion, type Attributes, type Authorizer, type Verdict } from './authorizer.js';

/** kube's delegating default */
export const DEFAULT_ALWAYS_ALLOW_PATHS: readonly string[] = ['/healthz', '/readyz', '/livez'];

/** Why `paths` cannot be used (kube's words), or undefined. */
export function alwaysAllowPathsError(paths: readonly string[]): string | undefined {
  for (const p of paths.map((p) => p.replace(/^\//, ''))) {
    if (p.slice(0, -1).includes('*')) return `only trailing * allowed in "${p}"`;
  }
  return undefined;
}

export class AlwaysAllowPathsAuthorizer implements Authorizer {
  private readonly exact = new Set<string>();
  private readonly prefixes: string[] = [];

  constructor(paths: readonly string[]) {
    const error = alwaysAllowPathsError(paths);
    if (error) throw new Error(error);
    for (const p of paths.map((p) => p.replace(/^\//, ''))) {
      if (p.endsWith('*')) this.prefixes.push(p.slice(0, -1));
      else this.exact.add(p);
    }
  }

  async authorize(a: Attributes): Promise<Verdict> {
    if (a.isResourceRequest) return noOpinion;
    const path = a.path.replace(/^\//, '');
    if (this.exact.has(path) || this.prefixes.some((p) => path.startsWith(p))) return allow;
    return noOpinion;
  }
}
