/**
 * Parts of the audit.k8s.io/v1 Event as kube writes it (auditor.ts writes the whole, in kube's field order):
 * its user and Status, MicroTime timestamps, the source IPs as kube reads them, and objects without
 * managedFields when the rule says so.
 */
import { isIP } from 'node:net';
import { isPlainObject, type UserInfo } from '../api/index.js';

export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** authentication/v1 UserInfo as kube serializes it (empty fields left out) */
export interface EventUser {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** metav1.Status as the event carries it (`metadata` is always there, empty) */
export interface ResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code?: number;
}

export function eventUser(user: UserInfo | undefined): EventUser {
  if (!user) return {};
  const out: EventUser = {};
  if (user.name) out.username = user.name;
  if (user.uid) out.uid = user.uid;
  if (user.groups.length) out.groups = user.groups;
  if (user.extra && Object.keys(user.extra).length) out.extra = user.extra;
  return out;
}

/** the RFC 3339 second of the last microTime, reused: most events of a second share it */
let second = NaN;
let secondText = '';

/** Now as a metav1.MicroTime: RFC 3339 in UTC with six fractional digits. */
export function microTime(epochMicros: number): string {
  const micros = Math.floor(epochMicros);
  const s = Math.floor(micros / 1_000_000);
  if (s !== second) {
    second = s;
    secondText = new Date(s * 1000).toISOString().slice(0, 19); // 2006-01-02T15:04:05
  }
  return `${secondText}.${String(micros - s * 1_000_000).padStart(6, '0')}Z`;
}

const origin = performance.timeOrigin * 1000;
/** microseconds since the epoch, finer than Date.now() */
export const nowMicros = () => Math.floor(origin + performance.now() * 1000);

/** Go's net.IP String(): an IPv4-mapped IPv6 address is written as IPv4 */
function ipString(s: string): string | undefined {
  const ip = s.trim();
  if (!isIP(ip)) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped ? mapped[1] : ip.toLowerCase();
}

let lastPeer: string | undefined;
let lastPeerIPs: readonly string[] = [];

/**
 * kube's SourceIPs: each valid X-Forwarded-For entry, X-Real-Ip when not among them, then the peer's address
 * unless it is already the last one.
 */
export function sourceIPs(
  forwardedFor: string | undefined,
  realIp: string | undefined,
  remote: string | undefined,
): readonly string[] {
  // a client without proxies in front: its address alone, as for its last request
  if (forwardedFor === undefined && realIp === undefined) {
    if (remote !== lastPeer) {
      lastPeer = remote;
      const peer = remote ? ipString(remote) : undefined;
      lastPeerIPs = peer ? [peer] : [];
    }
    return lastPeerIPs;
  }
  const ips: string[] = [];
  for (const part of forwardedFor?.split(',') ?? []) {
    const ip = ipString(part);
    if (ip) ips.push(ip);
  }
  const real = realIp ? ipString(realIp) : undefined;
  if (real && !ips.includes(real)) ips.push(real);
  const peer = remote ? ipString(remote) : undefined;
  if (peer && ips[ips.length - 1] !== peer) ips.push(peer);
  return ips;
}

/** kube's omitManagedFields: a copy of an object (or of each item of a list) without metadata.managedFields. */
export function withoutManagedFields(obj: unknown): unknown {
  if (!isPlainObject(obj)) return obj;
  const strip = (o: unknown): unknown => {
    if (!isPlainObject(o) || !isPlainObject(o.metadata) || !('managedFields' in o.metadata)) return o;
    const { managedFields: _omitted, ...metadata } = o.metadata;
    return { ...o, metadata };
  };
  if (Array.isArray(obj.items)) return { ...(strip(obj) as object), items: obj.items.map(strip) };
  return strip(obj);
}
