/** The core/v1 Service schema: kube v1.32's fields, protobuf numbers and list markers. */
import type { Schema } from '../../registry/index.js';
import {
  bool,
  conditionSchema,
  field,
  int32,
  intOrStringSchema,
  kindSchema,
  pointer,
  str,
} from '../../api/index.js';

const coreV1 = 'io.k8s.api.core.v1';

const atomicStrings = (n: number, description: string): Schema =>
  field(n, { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' }, description);

const servicePortSchema: Schema = {
  type: 'object',
  description: 'One port the service exposes and where it sends the traffic.',
  properties: {
    appProtocol: pointer(str(6, 'Application protocol of the port (an IANA name or a prefixed name).')),
    name: str(1, 'Name of the port; a DNS label, required and unique when the service has several ports.'),
    nodePort: int32(5, 'Port on every node for NodePort and LoadBalancer services.'),
    port: int32(3, 'Port the service exposes.'),
    // the default lets server-side apply key a port that omits its protocol, as kube's OpenAPI does
    protocol: { ...str(2, 'IP protocol of the port: TCP (the default), UDP or SCTP.'), default: 'TCP' },
    targetPort: field(4, intOrStringSchema),
  },
  required: ['port'],
  'x-pgkube-ref': `${coreV1}.ServicePort`,
};

const sessionAffinityConfigSchema: Schema = {
  type: 'object',
  description: 'Settings of session affinity.',
  properties: {
    clientIP: pointer(
      field(1, {
        type: 'object',
        description: 'Settings of ClientIP session affinity.',
        properties: {
          timeoutSeconds: pointer(
            int32(1, 'Seconds a client sticks to one backend: 1 to 86400, 10800 by default.'),
          ),
        },
        'x-pgkube-ref': `${coreV1}.ClientIPConfig`,
      }),
    ),
  },
  'x-pgkube-ref': `${coreV1}.SessionAffinityConfig`,
};

const serviceSpecSchema: Schema = {
  type: 'object',
  description: 'What the service exposes and how.',
  properties: {
    allocateLoadBalancerNodePorts: pointer(
      bool(20, 'Whether node ports are allocated for a LoadBalancer service (true by default).'),
    ),
    clusterIP: str(
      3,
      'Address of the service; "None" for a headless service. pgkube allocates none: it stays as the client set it.',
    ),
    clusterIPs: atomicStrings(
      18,
      'Addresses of the service, at most one per IP family; the first is clusterIP.',
    ),
    externalIPs: atomicStrings(5, 'Addresses outside the cluster at which the service is also reachable.'),
    externalName: str(10, 'DNS name an ExternalName service is an alias (CNAME) of.'),
    externalTrafficPolicy: str(
      11,
      'How traffic from outside the cluster is routed: Cluster or Local (NodePort and LoadBalancer only).',
    ),
    healthCheckNodePort: int32(12, 'Health check node port of a LoadBalancer service with the Local policy.'),
    internalTrafficPolicy: pointer(
      str(22, 'How traffic from inside the cluster is routed: Cluster or Local.'),
    ),
    ipFamilies: atomicStrings(19, 'IP families of the service: IPv4, IPv6 or both.'),
    ipFamilyPolicy: pointer(str(17, 'SingleStack, PreferDualStack or RequireDualStack.')),
    loadBalancerClass: pointer(
      str(21, 'Class of the load balancer implementation that handles the service.'),
    ),
    loadBalancerIP: str(8, 'Deprecated: an address asked of the load balancer.'),
    loadBalancerSourceRanges: atomicStrings(9, 'CIDRs of the clients a load balancer lets in.'),
    ports: field(1, {
      type: 'array',
      description: 'Ports the service exposes.',
      items: servicePortSchema,
      'x-kubernetes-list-map-keys': ['port', 'protocol'],
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-patch-merge-key': 'port',
      'x-kubernetes-patch-strategy': 'merge',
    }),
    publishNotReadyAddresses: bool(
      13,
      'Whether addresses of endpoints that are not ready are published too.',
    ),
    selector: field(
      2,
      { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'atomic' },
      'Labels of the pods traffic goes to; without it endpoints are managed by hand.',
    ),
    sessionAffinity: str(7, 'Session affinity: None (the default) or ClientIP.'),
    sessionAffinityConfig: pointer(field(14, sessionAffinityConfigSchema)),
    trafficDistribution: pointer(str(23, 'How traffic is spread over endpoints: PreferClose.')),
    type: str(4, 'ClusterIP (the default), NodePort, LoadBalancer or ExternalName.'),
  },
  'x-pgkube-ref': `${coreV1}.ServiceSpec`,
};

const loadBalancerIngressSchema: Schema = {
  type: 'object',
  description: 'An ingress point of a load balancer.',
  properties: {
    hostname: str(2, 'DNS name of the ingress point.'),
    ip: str(1, 'Address of the ingress point.'),
    ipMode: pointer(str(3, 'How the load balancer behaves: VIP or Proxy.')),
    ports: field(4, {
      type: 'array',
      description: 'Status of the service ports at this ingress point.',
      items: {
        type: 'object',
        description: 'Status of one service port.',
        properties: {
          error: pointer(str(3, 'Why the port failed, in CamelCase; empty when it works.')),
          port: int32(1, 'Port number of the service port.'),
          protocol: str(2, 'Protocol of the service port.'),
        },
        required: ['port', 'protocol'],
        'x-pgkube-ref': `${coreV1}.PortStatus`,
      },
      'x-kubernetes-list-type': 'atomic',
    }),
  },
  'x-pgkube-ref': `${coreV1}.LoadBalancerIngress`,
};

const serviceStatusSchema: Schema = {
  type: 'object',
  description: 'The observed state of the service; written through services/status.',
  properties: {
    conditions: field(2, {
      type: 'array',
      description: 'The current conditions of the service.',
      items: conditionSchema,
      'x-kubernetes-list-map-keys': ['type'],
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-patch-merge-key': 'type',
      'x-kubernetes-patch-strategy': 'merge',
    }),
    loadBalancer: field(1, {
      type: 'object',
      description: 'The load balancer of the service, if any.',
      properties: {
        ingress: field(1, {
          type: 'array',
          description: 'Ingress points of the load balancer.',
          items: loadBalancerIngressSchema,
          'x-kubernetes-list-type': 'atomic',
        }),
      },
      'x-pgkube-ref': `${coreV1}.LoadBalancerStatus`,
    }),
  },
  'x-pgkube-ref': `${coreV1}.ServiceStatus`,
};

export const serviceSchema = kindSchema({
  description:
    'A named abstraction of a network service: ports, and the backends (by selector, Endpoints or an external name) they lead to.',
  properties: {
    spec: field(2, serviceSpecSchema),
    status: field(3, serviceStatusSchema),
  },
});
