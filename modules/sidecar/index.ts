export { SidecarModule, type SidecarOptions } from './sidecar.module.js';
export { readUpstream, SERVICE_ACCOUNT_DIR, type UpstreamSource } from './upstream-source.js';
export { servedLocally, forwardedAs } from './local-requests.js';
export { impersonationOf } from './impersonation-headers.js';
export { upstreamGroups, upstreamGroupVersions, type UpstreamGroup } from './upstream-groups.js';
