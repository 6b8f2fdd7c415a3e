/**
 * core/v1 Service validation with kube v1.32's field paths and messages (ValidateService,
 * ValidateServiceUpdate, ValidateServiceStatusUpdate). The checks that need the cluster's service CIDRs
 * (ValidateConditionalService) are left out: pgkube serves services as data and allocates nothing. The cluster
 * IPs and IP families are service-cluster-ips.ts'.
 */
import { fieldError, type FieldError } from '../../api/index.js';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidCIDR,
  isValidIP,
  isValidPortNum,
  validateLabels,
  validateNonSpecialIP,
  validatePortNumOrName,
} from '../../validation/index.js';
import {
  isHeadless,
  specOf,
  typeOf,
  validateClusterIPsChange,
  validateClusterIPsRelatedFields,
  validateIPFamiliesChange,
} from './service-cluster-ips.js';
import { objAt, listAt, strAt, numAt, type Obj } from '../values.js';

export const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
export const portProtocols = ['SCTP', 'TCP', 'UDP'];
const sessionAffinities = ['ClientIP', 'None'];
const trafficPolicies = ['Cluster', 'Local'];
const loadBalancerIPModes = ['Proxy', 'VIP'];
export const maxClientIPAffinitySeconds = 86400;

/** Go's %#v of the ServicePort key kube reports a duplicate port with. */
function goServicePortKey(protocol: string, port: number): string {
  return (
    `core.ServicePort{Name:"", Protocol:${JSON.stringify(protocol)}, AppProtocol:(*string)(nil), Port:${port}, ` +
    'TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}'
  );
}

/** kube's ExternallyAccessible: reachable from outside through node ports, a load balancer or external IPs. */
export function externallyAccessible(svc: Obj): boolean {
  const type = typeOf(svc);
  return (
    type === 'LoadBalancer' ||
    type === 'NodePort' ||
    (type === 'ClusterIP' && listAt(specOf(svc).externalIPs).length > 0)
  );
}

export const needsHealthCheck = (svc: Obj): boolean =>
  typeOf(svc) === 'LoadBalancer' && specOf(svc).externalTrafficPolicy === 'Local';

const qualifiedName = (path: string, value: string): FieldError[] =>
  isQualifiedName(value).map((msg) => fieldError.invalid(path, value, msg));

export function validateService(svc: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const spec = specOf(svc);
  const type = strAt(spec.type);
  const ports = listAt(spec.ports);
  const headless = isHeadless(svc);
  const clusterIPs = listAt(spec.clusterIPs);

  if (ports.length === 0 && !headless && type !== 'ExternalName')
    errs.push(fieldError.required('spec.ports'));
  if ((type === 'LoadBalancer' || type === 'NodePort') && headless) {
    errs.push(
      fieldError.invalid(
        'spec.clusterIPs[0]',
        clusterIPs[0],
        `may not be set to 'None' for ${type} services`,
      ),
    );
  }
  if (type === 'ExternalName') {
    if (clusterIPs.length > 0)
      errs.push(fieldError.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    if (listAt(spec.ipFamilies).length > 0)
      errs.push(fieldError.forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
    if (spec.ipFamilyPolicy != null)
      errs.push(fieldError.forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
    // a CNAME may end in a dot to say it is fully qualified
    const cname = strAt(spec.externalName).replace(/\.$/, '');
    if (cname) {
      for (const msg of isDNS1123Subdomain(cname))
        errs.push(fieldError.invalid('spec.externalName', cname, msg));
    } else errs.push(fieldError.required('spec.externalName'));
  }

  const names = new Set<string>();
  ports.forEach((p, i) =>
    errs.push(...validateServicePort(objAt(p), ports.length > 1, names, `spec.ports[${i}]`)),
  );

  if (spec.selector != null) errs.push(...validateLabels(spec.selector, 'spec.selector'));
  errs.push(...validateSessionAffinity(spec));
  errs.push(...validateClusterIPsRelatedFields(svc));

  listAt(spec.externalIPs).forEach((ip, i) => {
    const path = `spec.externalIPs[${i}]`;
    const bad = isValidIP(path, strAt(ip));
    errs.push(...(bad.length > 0 ? bad : validateNonSpecialIP(path, strAt(ip))));
  });

  if (!type) errs.push(fieldError.required('spec.type'));
  else if (!serviceTypes.includes(type)) errs.push(fieldError.notSupported('spec.type', type, serviceTypes));

  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (numAt(objAt(p).nodePort) !== 0)
        errs.push(
          fieldError.forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"),
        );
    });
  }
  errs.push(...validateUniquePorts(ports));

  const ranges = listAt(spec.loadBalancerSourceRanges);
  if (ranges.length > 0) {
    // kube really spells this path with a capital L
    const path = 'spec.LoadBalancerSourceRanges';
    if (type !== 'LoadBalancer')
      errs.push(fieldError.forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    ranges.forEach((r, i) => errs.push(...isValidCIDR(`${path}[${i}]`, strAt(r).trim())));
  }
  if (spec.allocateLoadBalancerNodePorts != null && type !== 'LoadBalancer') {
    errs.push(
      fieldError.forbidden(
        'spec.allocateLoadBalancerNodePorts',
        "may only be used when `type` is 'LoadBalancer'",
      ),
    );
  }
  // kube's path has no "spec." here
  if (type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts == null)
    errs.push(fieldError.required('allocateLoadBalancerNodePorts'));

  errs.push(...validateLoadBalancerClass(undefined, svc));
  errs.push(...validateExternalTrafficPolicy(svc));
  errs.push(...validateInternalTrafficPolicy(spec));
  if (spec.trafficDistribution != null && spec.trafficDistribution !== 'PreferClose') {
    errs.push(fieldError.notSupported('spec.trafficDistribution', spec.trafficDistribution, ['PreferClose']));
  }
  return errs;
}

function validateServicePort(
  port: Obj,
  requireName: boolean,
  names: Set<string>,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const name = strAt(port.name);
  if (requireName && !name) errs.push(fieldError.required(`${path}.name`));
  else if (name) {
    for (const msg of isDNS1123Label(name)) errs.push(fieldError.invalid(`${path}.name`, name, msg));
    if (names.has(name)) errs.push(fieldError.duplicate(`${path}.name`, name));
    else names.add(name);
  }
  const num = numAt(port.port);
  for (const msg of isValidPortNum(num)) errs.push(fieldError.invalid(`${path}.port`, num, msg));
  const protocol = strAt(port.protocol);
  if (!protocol) errs.push(fieldError.required(`${path}.protocol`));
  else if (!portProtocols.includes(protocol))
    errs.push(fieldError.notSupported(`${path}.protocol`, protocol, portProtocols));
  errs.push(...validatePortNumOrName(`${path}.targetPort`, port.targetPort));
  if (port.appProtocol != null) errs.push(...qualifiedName(`${path}.appProtocol`, strAt(port.appProtocol)));
  return errs;
}

function validateUniquePorts(ports: unknown[]): FieldError[] {
  const errs: FieldError[] = [];
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    const port = objAt(p);
    const nodePort = numAt(port.nodePort);
    if (nodePort === 0) return;
    const key = `${strAt(port.protocol)}/${nodePort}`;
    if (nodePorts.has(key)) errs.push(fieldError.duplicate(`spec.ports[${i}].nodePort`, nodePort));
    nodePorts.add(key);
  });
  const seen = new Set<string>();
  ports.forEach((p, i) => {
    const port = objAt(p);
    const key = `${strAt(port.protocol)}/${numAt(port.port)}`;
    if (seen.has(key)) {
      errs.push({
        ...fieldError.duplicate(`spec.ports[${i}]`, key),
        valueText: goServicePortKey(strAt(port.protocol), numAt(port.port)),
      });
    }
    seen.add(key);
  });
  return errs;
}

function validateSessionAffinity(spec: Obj): FieldError[] {
  const affinity = strAt(spec.sessionAffinity);
  if (!affinity) return [fieldError.required('spec.sessionAffinity')];
  if (!sessionAffinities.includes(affinity))
    return [fieldError.notSupported('spec.sessionAffinity', affinity, sessionAffinities)];
  const path = 'spec.sessionAffinityConfig';
  if (affinity === 'None') {
    return spec.sessionAffinityConfig != null
      ? [fieldError.forbidden(path, 'must not be set when session affinity is None')]
      : [];
  }
  const when = 'when session affinity type is ClientIP';
  if (spec.sessionAffinityConfig == null) return [fieldError.required(path, when)];
  const clientIP = objAt(spec.sessionAffinityConfig).clientIP;
  if (clientIP == null) return [fieldError.required(`${path}.clientIP`, when)];
  const timeout = objAt(clientIP).timeoutSeconds;
  if (timeout == null) return [fieldError.required(`${path}.clientIP.timeoutSeconds`, when)];
  const seconds = numAt(timeout);
  if (seconds <= 0 || seconds > maxClientIPAffinitySeconds) {
    return [
      fieldError.invalid(
        `${path}.clientIP.timeoutSeconds`,
        seconds,
        `must be greater than 0 and less than ${maxClientIPAffinitySeconds}`,
      ),
    ];
  }
  return [];
}

function validateLoadBalancerClass(old: Obj | undefined, svc: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const path = 'spec.loadBalancerClass';
  const cls = specOf(svc).loadBalancerClass;
  if (old && typeOf(old) === 'LoadBalancer' && typeOf(svc) === 'LoadBalancer') {
    if ((specOf(old).loadBalancerClass ?? null) !== (cls ?? null))
      errs.push(fieldError.invalid(path, cls ?? null, 'may not change once set'));
  }
  if (typeOf(svc) === 'LoadBalancer') {
    if (cls != null) errs.push(...qualifiedName(path, strAt(cls)));
  } else if (cls != null) {
    errs.push(fieldError.forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
  }
  return errs;
}

function validateExternalTrafficPolicy(svc: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const spec = specOf(svc);
  const policy = strAt(spec.externalTrafficPolicy);
  if (!externallyAccessible(svc)) {
    if (policy) {
      errs.push(
        fieldError.invalid(
          'spec.externalTrafficPolicy',
          policy,
          'may only be set for externally-accessible services',
        ),
      );
    }
  } else if (!policy) errs.push(fieldError.required('spec.externalTrafficPolicy'));
  else if (!trafficPolicies.includes(policy))
    errs.push(fieldError.notSupported('spec.externalTrafficPolicy', policy, trafficPolicies));

  const hc = numAt(spec.healthCheckNodePort);
  if (!needsHealthCheck(svc)) {
    if (hc !== 0) {
      errs.push(
        fieldError.invalid(
          'spec.healthCheckNodePort',
          hc,
          "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
        ),
      );
    }
  } else if (hc === 0) errs.push(fieldError.required('spec.healthCheckNodePort'));
  else
    for (const msg of isValidPortNum(hc)) errs.push(fieldError.invalid('spec.healthCheckNodePort', hc, msg));
  return errs;
}

function validateInternalTrafficPolicy(spec: Obj): FieldError[] {
  const policy = spec.internalTrafficPolicy;
  if (policy == null) {
    // ExternalName services were never required to have one
    return ['ClusterIP', 'NodePort', 'LoadBalancer'].includes(strAt(spec.type))
      ? [fieldError.required('spec.internalTrafficPolicy')]
      : [];
  }
  return trafficPolicies.includes(strAt(policy))
    ? []
    : [fieldError.notSupported('spec.internalTrafficPolicy', policy, trafficPolicies)];
}

/** What an update may not change (kube's ValidateServiceUpdate, beyond validateService). */
export function validateServiceUpdate(svc: Obj, old: Obj): FieldError[] {
  return [
    ...validateClusterIPsChange(old, svc),
    ...validateIPFamiliesChange(old, svc),
    ...validateLoadBalancerClass(old, svc).filter((e) => e.detail === 'may not change once set'),
    ...(needsHealthCheck(old) &&
    needsHealthCheck(svc) &&
    numAt(specOf(old).healthCheckNodePort) !== numAt(specOf(svc).healthCheckNodePort)
      ? [fieldError.forbidden('spec.healthCheckNodePort', 'field is immutable')]
      : []),
  ];
}

/** services/status: the load balancer's ingress points (kube's ValidateLoadBalancerStatus). */
export function validateServiceStatus(svc: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const ingress = listAt(objAt(objAt(svc.status).loadBalancer).ingress);
  const path = 'status.loadBalancer.ingress';
  if (typeOf(svc) !== 'LoadBalancer' && ingress.length > 0)
    return [fieldError.forbidden(path, "may only be used when `spec.type` is 'LoadBalancer'")];
  ingress.forEach((item, i) => {
    const at = `${path}[${i}]`;
    const entry = objAt(item);
    const ip = strAt(entry.ip);
    if (ip) errs.push(...isValidIP(`${at}.ip`, ip));
    if (entry.ipMode == null) {
      if (ip) errs.push(fieldError.required(`${at}.ipMode`, 'must be specified when `ip` is set'));
    } else if (!ip)
      errs.push(fieldError.forbidden(`${at}.ipMode`, 'may not be specified when `ip` is not set'));
    else if (!loadBalancerIPModes.includes(strAt(entry.ipMode)))
      errs.push(fieldError.notSupported(`${at}.ipMode`, entry.ipMode, loadBalancerIPModes));
    const hostname = strAt(entry.hostname);
    if (hostname) {
      for (const msg of isDNS1123Subdomain(hostname))
        errs.push(fieldError.invalid(`${at}.hostname`, hostname, msg));
      if (isValidIP('', hostname).length === 0)
        errs.push(fieldError.invalid(`${at}.hostname`, hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}
