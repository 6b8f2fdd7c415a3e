/**
 * Service defaulting as kube v1.32 does it (core/v1 SetDefaults_Service), and the linked-field upkeep of its
 * service REST storage (clusterIP <-> clusterIPs, values an update omitted, fields a type change leaves
 * behind). kube's allocator would pick a clusterIP, node ports and the IP families here; pgkube allocates
 * nothing, so an unset clusterIP stays unset and only a clusterIP the client gave gets its families.
 */
import { isDeepStrictEqual as deepEqual } from 'node:util';
import { isPlainObject, type KubeObject } from '../../api/index.js';
import { isIPv6String } from '../../validation/index.js';
import { isHeadless } from './service-cluster-ips.js';
import { externallyAccessible, needsHealthCheck } from './service-validation.js';
import { listAt, type Obj } from '../values.js';

export const defaultClientIPAffinitySeconds = 10800;

function specRecord(obj: KubeObject): Obj {
  if (!isPlainObject(obj.spec)) obj.spec = {};
  return obj.spec as Obj;
}

const spec = (obj: KubeObject): Obj => (isPlainObject(obj.spec) ? obj.spec : {});

export function defaultService(obj: KubeObject): void {
  const s = specRecord(obj);
  if (!s.sessionAffinity) s.sessionAffinity = 'None';
  if (s.sessionAffinity === 'None') delete s.sessionAffinityConfig;
  if (s.sessionAffinity === 'ClientIP') {
    const config = isPlainObject(s.sessionAffinityConfig) ? s.sessionAffinityConfig : {};
    const clientIP = isPlainObject(config.clientIP) ? config.clientIP : {};
    if (clientIP.timeoutSeconds == null)
      s.sessionAffinityConfig = { clientIP: { timeoutSeconds: defaultClientIPAffinitySeconds } };
  }
  if (!s.type) s.type = 'ClusterIP';
  for (const item of listAt(s.ports)) {
    if (!isPlainObject(item)) continue;
    if (!item.protocol) item.protocol = 'TCP';
    if (
      item.targetPort === undefined ||
      item.targetPort === null ||
      item.targetPort === 0 ||
      item.targetPort === ''
    )
      item.targetPort = item.port ?? 0;
  }
  if (externallyAccessible(obj) && !s.externalTrafficPolicy) s.externalTrafficPolicy = 'Cluster';
  if (s.internalTrafficPolicy == null && ['ClusterIP', 'NodePort', 'LoadBalancer'].includes(String(s.type)))
    s.internalTrafficPolicy = 'Cluster';
  if (s.type === 'LoadBalancer') {
    if (s.allocateLoadBalancerNodePorts == null) s.allocateLoadBalancerNodePorts = true;
    const lb =
      isPlainObject(obj.status) && isPlainObject(obj.status.loadBalancer) ? obj.status.loadBalancer : {};
    for (const entry of listAt(lb.ingress)) {
      if (isPlainObject(entry) && entry.ip && entry.ipMode == null) entry.ipMode = 'VIP';
    }
  }
}

const needsClusterIP = (svc: KubeObject): boolean => spec(svc).type !== 'ExternalName';
const needsNodePort = (svc: KubeObject): boolean =>
  ['NodePort', 'LoadBalancer'].includes(String(spec(svc).type));
/** Go's zero values: an absent list is an empty one, an absent string or number its zero */
const zeroed = (v: unknown): unknown =>
  v === undefined || v === null ? null : Array.isArray(v) && v.length === 0 ? null : v;
const same = (a: KubeObject, b: KubeObject, field: string): boolean =>
  deepEqual(zeroed(spec(a)[field]), zeroed(spec(b)[field]));

/** On create: clusterIPs follows a clusterIP given alone; families follow a given clusterIP. */
export function fillCreatedService(obj: KubeObject): void {
  const s = specRecord(obj);
  if (s.clusterIP && listAt(s.clusterIPs).length === 0) s.clusterIPs = [s.clusterIP];
  defaultIPFamilies(obj);
}

/** On update: patch back what the client omitted, keep clusterIP/clusterIPs in step, drop stale type fields. */
export function fillUpdatedService(obj: KubeObject, old: KubeObject): void {
  patchOmittedValues(obj, old);
  normalizeClusterIPsOnUpdate(obj, old);
  dropTypeDependentFields(obj, old);
  defaultIPFamilies(obj);
}

/**
 * What kube's allocator would settle for a service whose clusterIP is set: ipFamilyPolicy (SingleStack; for
 * a headless service without selector PreferDualStack) and ipFamilies (the families of clusterIPs; IPv4 for
 * a headless one, as on a single-stack IPv4 cluster). A service without clusterIP is left alone.
 */
function defaultIPFamilies(obj: KubeObject): void {
  const s = specRecord(obj);
  const clusterIPs = listAt(s.clusterIPs).map(String);
  if (!needsClusterIP(obj) || clusterIPs.length === 0) return;
  const families = listAt(s.ipFamilies);
  if (s.ipFamilyPolicy == null && families.length === 2) s.ipFamilyPolicy = 'RequireDualStack';
  if (isHeadless(obj)) {
    const selector = isPlainObject(s.selector) ? Object.keys(s.selector).length : 0;
    if (s.ipFamilyPolicy == null)
      s.ipFamilyPolicy = selector === 0 && families.length !== 1 ? 'PreferDualStack' : 'SingleStack';
    if (families.length === 0) s.ipFamilies = ['IPv4'];
    return;
  }
  if (s.ipFamilyPolicy == null)
    s.ipFamilyPolicy = clusterIPs.length === 2 ? 'RequireDualStack' : 'SingleStack';
  if (families.length === 0) s.ipFamilies = clusterIPs.map((ip) => (isIPv6String(ip) ? 'IPv6' : 'IPv4'));
}

/** A replace that omits the clusterIP, node ports or health check port keeps the stored ones. */
function patchOmittedValues(obj: KubeObject, old: KubeObject): void {
  const s = specRecord(obj);
  const o = spec(old);
  if (needsClusterIP(old) && needsClusterIP(obj)) {
    if (!s.clusterIP && o.clusterIP) s.clusterIP = o.clusterIP;
    if (listAt(s.clusterIPs).length === 0 && listAt(o.clusterIPs).length > 0)
      s.clusterIPs = structuredClone(o.clusterIPs);
  }
  if (needsNodePort(old) && needsNodePort(obj)) {
    const used = (svc: Obj): Set<number> =>
      new Set(
        listAt(svc.ports)
          .map((p) => (isPlainObject(p) ? Number(p.nodePort ?? 0) : 0))
          .filter((n) => n > 0),
      );
    const oldUsed = used(o);
    const taken = new Set([...used(s)].filter((n) => oldUsed.has(n)));
    const byName = new Map<string, number>();
    for (const p of listAt(o.ports))
      if (isPlainObject(p)) byName.set(String(p.name ?? ''), Number(p.nodePort ?? 0));
    for (const p of listAt(s.ports)) {
      if (!isPlainObject(p) || Number(p.nodePort ?? 0) !== 0) continue;
      const before = byName.get(String(p.name ?? '')) ?? 0;
      if (before > 0 && !taken.has(before)) p.nodePort = before;
    }
  }
  if (needsHealthCheck(old) && needsHealthCheck(obj) && !s.healthCheckNodePort && o.healthCheckNodePort)
    s.healthCheckNodePort = o.healthCheckNodePort;
}

/** kube's normalizeClusterIPs for updates: old clients send only clusterIP. */
function normalizeClusterIPsOnUpdate(obj: KubeObject, old: KubeObject): void {
  const s = specRecord(obj);
  const o = spec(old);
  if (
    listAt(o.clusterIPs).length > 0 &&
    listAt(s.clusterIPs).length === 0 &&
    (o.clusterIP ?? '') === (s.clusterIP ?? '')
  )
    s.clusterIPs = structuredClone(o.clusterIPs);
  if ((o.clusterIP ?? '') === (s.clusterIP ?? '')) return;
  if (o.clusterIP && !s.clusterIP) {
    if (same(obj, old, 'clusterIPs')) delete s.clusterIPs;
  } else if (same(obj, old, 'clusterIPs')) s.clusterIPs = [s.clusterIP];
}

/** Fields a type change makes meaningless are wiped, unless the client changed them itself. */
function dropTypeDependentFields(obj: KubeObject, old: KubeObject): void {
  const s = specRecord(obj);
  if (needsClusterIP(old) && !needsClusterIP(obj)) {
    if (same(obj, old, 'clusterIP') && same(obj, old, 'clusterIPs')) {
      delete s.clusterIP;
      delete s.clusterIPs;
    }
    if (same(obj, old, 'ipFamilies')) delete s.ipFamilies;
    if (same(obj, old, 'ipFamilyPolicy')) delete s.ipFamilyPolicy;
  }
  // the client may add, drop or edit ports, but no node port the old object did not have
  const nodePorts = (svc: KubeObject): number[] =>
    listAt(spec(svc).ports)
      .map((p) => (isPlainObject(p) ? Number(p.nodePort ?? 0) : 0))
      .filter((n) => n !== 0);
  const oldNodePorts = new Set(nodePorts(old));
  if (needsNodePort(old) && !needsNodePort(obj) && nodePorts(obj).every((n) => oldNodePorts.has(n))) {
    for (const p of listAt(s.ports)) if (isPlainObject(p)) delete p.nodePort;
  }
  if (needsHealthCheck(old) && !needsHealthCheck(obj) && same(obj, old, 'healthCheckNodePort'))
    delete s.healthCheckNodePort;
  const wasLB = spec(old).type === 'LoadBalancer';
  if (wasLB && s.type !== 'LoadBalancer') {
    if (same(obj, old, 'allocateLoadBalancerNodePorts')) delete s.allocateLoadBalancerNodePorts;
    if (same(obj, old, 'loadBalancerClass')) delete s.loadBalancerClass;
  }
  if (externallyAccessible(old) && !externallyAccessible(obj) && same(obj, old, 'externalTrafficPolicy'))
    delete s.externalTrafficPolicy;
  if (s.type !== 'LoadBalancer' && isPlainObject(obj.status)) obj.status.loadBalancer = {};
}
