/**
 * The feature gates this server knows, with the stage and default Kubernetes v1.32 gives them (spec part2
 * "Versioning", feature gates). Alpha gates default off, beta on; GA gates are non-operational and locked to
 * true; a deprecated gate still works but warns when set. A gate that no code asks about yet is still listed:
 * clusters pass kube-apiserver's flags, and an unknown gate stops the server.
 */

export type Stage = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

export interface FeatureSpec {
  stage: Stage;
  default: boolean;
  /** the value cannot be changed from the default */
  lockToDefault?: boolean;
  /** gates that must be enabled while this one is */
  requires?: readonly string[];
  /** what the gate switches */
  description: string;
}

export const kubeFeatures = {
  // spec part1 "Deletion" rule 2
  AllowUnsafeMalformedObjectDeletion: {
    stage: 'ALPHA',
    default: false,
    description:
      'delete option ignoreStoreReadErrorWithClusterBreakingPotential removes objects that cannot be read',
  },
  // spec part1 "Media types" rule 5
  APIResponseCompression: {
    stage: 'BETA',
    default: true,
    description: 'gzip GET and list responses for clients sending Accept-Encoding: gzip',
  },
  // kube 1.28 made it GA and 1.30 dropped the gate; kept here, locked, so flags naming it still parse
  APISelfSubjectReview: {
    stage: 'GA',
    default: true,
    lockToDefault: true,
    description: 'authentication.k8s.io SelfSubjectReview',
  },
  AnonymousAuthConfigurableEndpoints: {
    stage: 'BETA',
    default: true,
    description: 'anonymous access limited to the paths an AuthenticationConfiguration lists',
  },
  AuthorizeNodeWithSelectors: {
    stage: 'BETA',
    default: true,
    requires: ['AuthorizeWithSelectors'],
    description: 'the Node authorizer limits node reads by field and label selectors',
  },
  AuthorizeWithSelectors: {
    stage: 'BETA',
    default: true,
    description: 'authorizers see the field and label selectors of list and watch requests',
  },
  // spec part1 "Media types": application/cbor
  CBORServingAndStorage: {
    stage: 'ALPHA',
    default: false,
    description: 'CBOR request and response bodies (application/cbor)',
  },
  ConsistentListFromCache: {
    stage: 'BETA',
    default: true,
    description: 'consistent lists are served from the watch cache once it has caught up',
  },
  // spec part2 "Node-agent checkpoint"
  ContainerCheckpoint: {
    stage: 'BETA',
    default: true,
    description: 'node agent endpoint POST /checkpoint/{namespace}/{pod}/{container}',
  },
  KMSv1: {
    stage: 'DEPRECATED',
    default: false,
    description: 'KMS v1 encryption providers for data at rest',
  },
  // --requestheader-uid-headers
  RemoteRequestHeaderUID: {
    stage: 'ALPHA',
    default: false,
    description: 'an authenticating proxy may name the user ID in a header (X-Remote-Uid)',
  },
  StorageVersionHash: {
    stage: 'BETA',
    default: true,
    description: 'discovery lists storageVersionHash for each resource',
  },
  StructuredAuthenticationConfiguration: {
    stage: 'BETA',
    default: true,
    description: 'authentication from an AuthenticationConfiguration file',
  },
  StructuredAuthorizationConfiguration: {
    stage: 'GA',
    default: true,
    lockToDefault: true,
    description: 'authorization from an AuthorizationConfiguration file (--authorization-config)',
  },
  // spec part1 watch option sendInitialEvents
  WatchList: {
    stage: 'BETA',
    default: true,
    description: 'watch with sendInitialEvents=true streams the current objects first',
  },
} as const satisfies Record<string, FeatureSpec>;

export type FeatureName = keyof typeof kubeFeatures;

/** kube's switches for every alpha or every beta gate at once; a gate named on its own wins. */
export const ALL_ALPHA = 'AllAlpha';
export const ALL_BETA = 'AllBeta';
