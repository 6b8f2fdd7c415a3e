export {
  forward,
  forwardedHeaders,
  unavailable,
  type ForwardedRequest,
  type ProxyResponse,
} from './forward.js';
export { UpstreamAgents, type Upstream } from './upstream.js';
export { fetchUpstream, type FetchedAnswer } from './fetch.js';
export { relayUpgrade, upgradeHead, type UpgradeRequest } from './upgrade.js';
