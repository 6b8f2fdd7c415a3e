/**
 * The rules of this server until RBAC arrives: anyone may read the health and version paths (kube's
 * system:public-info-viewer), and every authenticated user may do everything else. Nothing else is allowed.
 */
import { allow, noOpinion, type Attributes, type Authorizer, type Verdict } from './authorizer.js';

const PUBLIC_PATHS = new Set(['/version', '/version/', '/healthz', '/livez', '/readyz']);
const HEALTH_CHECK = /^\/(healthz|livez|readyz)\//;

export function isPublicPath(a: Attributes): boolean {
  return (
    !a.isResourceRequest &&
    (a.verb === 'get' || a.verb === 'head') &&
    (PUBLIC_PATHS.has(a.path) || HEALTH_CHECK.test(a.path))
  );
}

export class PublicInfoAuthorizer implements Authorizer {
  async authorize(a: Attributes): Promise<Verdict> {
    return isPublicPath(a) ? allow : noOpinion;
  }
}

export class AuthenticatedUsersAuthorizer implements Authorizer {
  async authorize(a: Attributes): Promise<Verdict> {
    return a.user.groups.includes('system:authenticated') ? allow : noOpinion;
  }
}
