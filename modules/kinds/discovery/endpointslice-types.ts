/** TypeScript shape of discovery.k8s.io/v1 EndpointSlice as stored and served (JSON field names, kube v1.32). */
import type { ObjectMeta } from '../../api/index.js';
import type { ObjectReference, PortProtocol } from '../core/service-types.js';

export type AddressType = 'IPv4' | 'IPv6' | 'FQDN';

export interface EndpointSliceEndpoint {
  /** 1 to 100 addresses of the addressType; consumers use the first */
  addresses: string[];
  conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean };
  hostname?: string;
  targetRef?: ObjectReference;
  deprecatedTopology?: Record<string, string>;
  nodeName?: string;
  zone?: string;
  hints?: { forZones?: { name: string }[] };
}

export interface EndpointSlicePort {
  /** '' when unnamed (the default) */
  name?: string;
  protocol?: PortProtocol;
  /** absent: all ports */
  port?: number;
  appProtocol?: string;
}

export interface EndpointSlice {
  apiVersion?: string;
  kind?: string;
  /** labels[kubernetes.io/service-name] names the Service the slice belongs to */
  metadata: ObjectMeta;
  addressType: AddressType;
  endpoints?: EndpointSliceEndpoint[];
  ports?: EndpointSlicePort[];
}

/** label that ties an EndpointSlice to its Service */
export const labelServiceName = 'kubernetes.io/service-name';
