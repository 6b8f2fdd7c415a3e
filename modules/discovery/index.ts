export { apiVersions, apiGroupList, apiGroup, apiResourceList } from './legacy.js';
export type {
  APIVersions,
  APIGroup,
  APIGroupList,
  APIResourceList,
  GroupVersionForDiscovery,
  ServerAddressByClientCIDR,
} from './legacy.js';
export { aggregatedDiscovery, aggregatedDiscoveryResponse, discoveryETag } from './aggregated.js';
export type {
  APIGroupDiscoveryList,
  APIGroupDiscovery,
  APIVersionDiscovery,
  APIResourceDiscovery,
  APISubresourceDiscovery,
  DiscoveryResponse,
  DiscoveryVersion,
} from './aggregated.js';
export { negotiateDiscovery } from './negotiate.js';
export type { DiscoveryNegotiation } from './negotiate.js';
export { storageVersionHash, subresourceInfo, subresourceKind, apiResources } from './resources.js';
export type { APIResource, GroupVersionKind, SubresourceInfo } from './resources.js';
export { compareKubeAwareVersions, groupVersions, orderedGroups } from './versions.js';
export { definitionsServing } from './resources.js';
export { memo } from './memo.js';
export { REMOTE_APIS } from './remote-apis.js';
export type { RemoteApis, RemoteGroupVersion, RemoteResponse } from './remote-apis.js';
export { RemoteCache } from './remote-cache.js';
export type {
  RemoteCacheOptions,
  RemoteEntry,
  RemoteFetch,
  RemoteFetched,
  RemoteSnapshot,
} from './remote-cache.js';
export { remoteDiscovery, fetchVersionDiscovery, AGGREGATED_DISCOVERY_ACCEPT } from './remote-discovery.js';
export type { RemoteDiscovery } from './remote-discovery.js';
export {
  mergedApiGroupList,
  mergedApiGroup,
  mergedAggregatedDiscovery,
  mergedAggregatedDiscoveryResponse,
} from './merged.js';
export type { RemoteDiscoverySnapshot } from './merged.js';
export { pairKey } from './memo.js';
export { orderByGroupPriority, orderByApiService } from './versions.js';
export type { PrioritizedGroupVersion, PrioritizedGroup } from './versions.js';
