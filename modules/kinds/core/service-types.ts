/**
 * TypeScript shapes of core/v1 Service and Endpoints as stored and served (JSON field names, kube v1.32), for
 * code that reads these objects (the aggregation layer resolving an APIService's service). Every field is
 * optional: stored objects passed validation, but readers should still not trust what they did not check.
 */
import type { ObjectMeta } from '../../api/index.js';

export type ServiceType = 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';
export type PortProtocol = 'TCP' | 'UDP' | 'SCTP';

export interface ServicePort {
  name?: string;
  protocol?: PortProtocol;
  appProtocol?: string;
  port: number;
  /** a number or the name of a container port */
  targetPort?: number | string;
  nodePort?: number;
}

export interface ServiceSpec {
  ports?: ServicePort[];
  selector?: Record<string, string>;
  /** absent until set by the client: pgkube allocates no addresses; 'None' for headless services */
  clusterIP?: string;
  clusterIPs?: string[];
  type?: ServiceType;
  externalIPs?: string[];
  sessionAffinity?: 'None' | 'ClientIP';
  sessionAffinityConfig?: { clientIP?: { timeoutSeconds?: number } };
  loadBalancerIP?: string;
  loadBalancerSourceRanges?: string[];
  externalName?: string;
  externalTrafficPolicy?: 'Cluster' | 'Local';
  healthCheckNodePort?: number;
  publishNotReadyAddresses?: boolean;
  ipFamilies?: ('IPv4' | 'IPv6')[];
  ipFamilyPolicy?: 'SingleStack' | 'PreferDualStack' | 'RequireDualStack';
  allocateLoadBalancerNodePorts?: boolean;
  loadBalancerClass?: string;
  internalTrafficPolicy?: 'Cluster' | 'Local';
  trafficDistribution?: string;
}

export interface LoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ipMode?: 'VIP' | 'Proxy';
  ports?: { port: number; protocol: PortProtocol; error?: string }[];
}

export interface Service {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: ServiceSpec;
  status?: {
    loadBalancer?: { ingress?: LoadBalancerIngress[] };
    conditions?: {
      type: string;
      status: string;
      observedGeneration?: number;
      lastTransitionTime?: string;
      reason?: string;
      message?: string;
    }[];
  };
}

export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: ObjectReference;
}

export interface EndpointPort {
  name?: string;
  port: number;
  protocol?: PortProtocol;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

export interface Endpoints {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  subsets?: EndpointSubset[];
}
