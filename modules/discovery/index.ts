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
