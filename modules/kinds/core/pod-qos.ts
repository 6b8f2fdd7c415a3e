/** A pod's quality of service class, as kube v1.32 computes it (GetPodQOS, without pod-level resources). */
import { Quantity } from '../../cel/index.js';
import { objAt, type Obj } from '../values.js';
import { allContainers } from './pod-parts.js';

export type QOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

const computeResources = ['cpu', 'memory'];

/** A quantity as a number of some scale; a value that does not parse counts as none (validation refuses it). */
export function parseQuantity(value: unknown): Quantity | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  try {
    return Quantity.parse(String(value));
  } catch {
    return undefined;
  }
}

const zero = new Quantity(0n, 0);

/** Positive cpu and memory amounts of one list, added into `sums`; returns the names found. */
function addPositive(list: unknown, sums: Map<string, Quantity>): Set<string> {
  const found = new Set<string>();
  for (const [name, value] of Object.entries(objAt(list))) {
    if (!computeResources.includes(name)) continue;
    const q = parseQuantity(value);
    if (!q || q.compare(zero) <= 0) continue;
    found.add(name);
    sums.set(name, sums.get(name)?.add(q) ?? q);
  }
  return found;
}

export function qosClass(spec: Obj): QOSClass {
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let guaranteed = true;
  // ephemeral containers have no resources, init containers count as the others
  for (const c of allContainers({ ...spec, ephemeralContainers: undefined })) {
    const resources = objAt(c.resources);
    addPositive(resources.requests, requests);
    const limited = addPositive(resources.limits, limits);
    if (!computeResources.every((r) => limited.has(r))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, request] of requests) {
      const limit = limits.get(name);
      if (!limit || limit.compare(request) !== 0) guaranteed = false;
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
