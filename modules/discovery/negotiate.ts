/**
 * Picks the discovery form from an Accept header as kube does: clauses by preference (q, then concrete types
 * before wildcards, otherwise header order); the first clause a supported media type satisfies wins. A clause
 * asking for a conversion (`as=`) is only satisfiable when it names apidiscovery.k8s.io v2/v2beta1
 * APIGroupDiscoveryList; other `as=` forms (Table, ...) are skipped, as are stream forms other than watch.
 */
import type { DiscoveryVersion } from './aggregated.js';

export interface DiscoveryNegotiation {
  /** the aggregated form requested; undefined means the unaggregated (legacy) documents */
  aggregated?: DiscoveryVersion;
  /** the base media type to encode with, e.g. application/json */
  mediaType: string;
  /** the Content-Type to answer with: kube echoes the conversion parameters (g, v, as) */
  contentType: string;
}

interface Clause {
  type: string;
  subType: string;
  q: number;
  params: Map<string, string>;
}

function parseAccept(header: string): Clause[] {
  const clauses: Clause[] = [];
  for (const part of header.split(',')) {
    const [range, ...rawParams] = part.split(';');
    const [type, subType, extra] = range.trim().split('/');
    if (extra !== undefined) continue;
    const clause: Clause = { type: type.trim(), subType: (subType ?? '').trim(), q: 1, params: new Map() };
    if (subType === undefined) {
      if (clause.type !== '*') continue;
      clause.subType = '*';
    }
    if (!clause.type || !clause.subType) continue;
    for (const raw of rawParams) {
      const eq = raw.indexOf('=');
      if (eq < 0) continue;
      const key = raw.slice(0, eq).trim();
      const value = raw.slice(eq + 1).trim();
      if (key === 'q') {
        const q = Number.parseFloat(value);
        clause.q = Number.isNaN(q) ? 0 : q;
      } else clause.params.set(key, value);
    }
    clauses.push(clause);
  }
  // Array.prototype.sort is stable: equal clauses keep header order
  return clauses.sort((a, b) => {
    if (a.q !== b.q) return b.q - a.q;
    const wa = (a.type === '*' ? 2 : 0) + (a.subType === '*' ? 1 : 0);
    const wb = (b.type === '*' ? 2 : 0) + (b.subType === '*' ? 1 : 0);
    return wa - wb;
  });
}

/** What the clause's parameters ask for; undefined when this endpoint cannot honour them. */
function clauseTarget(params: Map<string, string>): { aggregated?: DiscoveryVersion } | undefined {
  const g = params.get('g');
  const v = params.get('v');
  const as = params.get('as');
  const stream = params.get('stream');
  if (stream !== undefined && stream !== '' && stream !== 'watch') return undefined;
  const sv = params.get('sv');
  if (sv !== undefined && sv !== '') return undefined;
  if (g === undefined && v === undefined && as === undefined) return {};
  if (g === 'apidiscovery.k8s.io' && (v === 'v2' || v === 'v2beta1') && as === 'APIGroupDiscoveryList') {
    return { aggregated: v };
  }
  return undefined;
}

/**
 * `supported`: the media types this server encodes discovery in, preferred first (default JSON only).
 * Returns undefined when nothing acceptable can be produced (kube answers 406 Not Acceptable).
 */
export function negotiateDiscovery(
  accept: string | undefined,
  supported: readonly string[] = ['application/json'],
): DiscoveryNegotiation | undefined {
  if (supported.length === 0) return undefined;
  if (!accept || accept.trim() === '') return { mediaType: supported[0], contentType: supported[0] };
  for (const clause of parseAccept(accept)) {
    for (const mediaType of supported) {
      const [type, subType] = mediaType.split('/');
      const matches =
        (clause.type === type && (clause.subType === subType || clause.subType === '*')) ||
        (clause.type === '*' && clause.subType === '*');
      if (!matches) continue;
      const target = clauseTarget(clause.params);
      if (!target) continue;
      if (!target.aggregated) return { mediaType, contentType: mediaType };
      const contentType = `${mediaType};g=apidiscovery.k8s.io;v=${target.aggregated};as=APIGroupDiscoveryList`;
      return { aggregated: target.aggregated, mediaType, contentType };
    }
  }
  return undefined;
}
