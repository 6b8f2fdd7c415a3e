/**
 * kube's zone disruption rules for NoExecute taints (the node lifecycle controller's handleDisruption): nodes
 * are grouped by region and zone labels; a zone whose nodes are all not ready is fully disrupted, one with
 * more than two not ready making up 55% or more is partially disrupted. Fresh NoExecute taints are paced per
 * zone (a token bucket, burst 1) at --node-eviction-rate, slower or not at all in a partially disrupted zone,
 * and not at all when every zone is fully disrupted: then the control plane, not the nodes, is likely what is
 * cut off, and evicting everything would only make it worse.
 */
import type { KubeObject } from '../api/index.js';
import { objAt, strAt } from '../kinds/index.js';

export type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

export interface DisruptionOptions {
  /** --node-eviction-rate: fresh NoExecute taints per second in a healthy zone (kube: 0.1) */
  evictionRate: number;
  /** --secondary-node-eviction-rate: in a partially disrupted large zone (kube: 0.01) */
  secondaryEvictionRate: number;
  /** --large-cluster-size-threshold: smaller zones stop tainting when partially disrupted (kube: 50) */
  largeClusterSizeThreshold: number;
  /** --unhealthy-zone-threshold (kube: 0.55) */
  unhealthyZoneThreshold: number;
}

export const defaultDisruption: DisruptionOptions = {
  evictionRate: 0.1,
  secondaryEvictionRate: 0.01,
  largeClusterSizeThreshold: 50,
  unhealthyZoneThreshold: 0.55,
};

/** kube's GetZoneKey: region and zone (topology labels, or their deprecated beta forms); '' without either. */
export function zoneOf(node: KubeObject): string {
  const labels = objAt(node.metadata.labels);
  const region =
    strAt(labels['topology.kubernetes.io/region']) ||
    strAt(labels['failure-domain.beta.kubernetes.io/region']);
  const zone =
    strAt(labels['topology.kubernetes.io/zone']) || strAt(labels['failure-domain.beta.kubernetes.io/zone']);
  return region || zone ? `${region}:\x00:${zone}` : '';
}

/** kube's ComputeZoneState over the readiness of a zone's nodes (true: Ready=True). */
export function zoneState(ready: boolean[], threshold: number): ZoneState {
  const notReady = ready.filter((r) => !r).length;
  const readyCount = ready.length - notReady;
  if (readyCount === 0 && notReady > 0) return 'FullDisruption';
  if (notReady > 2 && notReady / ready.length >= threshold) return 'PartialDisruption';
  return 'Normal';
}

/** A token bucket of burst 1 (client-go's flowcontrol limiter as the tainting queue uses it). */
class Pace {
  private tokens = 1;
  private last: number;
  constructor(
    private rate: number,
    now: number,
  ) {
    this.last = now;
  }
  setRate(rate: number, now: number): void {
    this.refill(now);
    this.rate = rate;
  }
  tryTake(now: number): boolean {
    this.refill(now);
    if (this.rate <= 0 || this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
  private refill(now: number): void {
    this.tokens = Math.min(1, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
  }
}

export interface DisruptionChange {
  /** every zone just became fully disrupted: the controller's NoExecute taints come off every node */
  enteredFullDisruption: boolean;
  /** some node is ready again after full disruption: every node gets a fresh grace period */
  leftFullDisruption: boolean;
}

export class Zones {
  private readonly states = new Map<string, ZoneState>();
  private readonly paces = new Map<string, Pace>();

  constructor(private readonly options: DisruptionOptions = defaultDisruption) {}

  /** kube's handleDisruption, given each zone's nodes' readiness at this pass. */
  update(readiness: Map<string, boolean[]>, now: number): DisruptionChange {
    const next = new Map<string, ZoneState>();
    for (const [zone, ready] of readiness)
      next.set(zone, zoneState(ready, this.options.unhealthyZoneThreshold));
    const allAre = [...next.values()].every((s) => s === 'FullDisruption');
    for (const zone of [...this.states.keys()]) {
      if (!next.has(zone)) {
        this.states.delete(zone);
        this.paces.delete(zone);
      }
    }
    for (const zone of next.keys()) if (!this.states.has(zone)) this.states.set(zone, 'Initial');
    const allWere = [...this.states.values()].every((s) => s === 'FullDisruption');
    const none: DisruptionChange = { enteredFullDisruption: false, leftFullDisruption: false };
    if (allAre && allWere) return none;
    if (allAre) {
      for (const zone of next.keys()) {
        this.pace(zone, now).setRate(0, now);
        this.states.set(zone, 'FullDisruption');
      }
      return { ...none, enteredFullDisruption: true };
    }
    for (const [zone, state] of next) {
      if (!allWere && this.states.get(zone) === state) continue;
      this.pace(zone, now).setRate(this.rateFor(state, readiness.get(zone)!.length), now);
      this.states.set(zone, state);
    }
    return { ...none, leftFullDisruption: allWere };
  }

  /** Whether a fresh NoExecute taint may go on a node of `zone` now (takes the zone's token). */
  mayTaint(zone: string, now: number): boolean {
    return this.pace(zone, now).tryTake(now);
  }

  stateOf(zone: string): ZoneState | undefined {
    return this.states.get(zone);
  }

  private rateFor(state: ZoneState, size: number): number {
    if (state !== 'PartialDisruption') return this.options.evictionRate;
    return size > this.options.largeClusterSizeThreshold ? this.options.secondaryEvictionRate : 0;
  }

  private pace(zone: string, now: number): Pace {
    let pace = this.paces.get(zone);
    if (!pace) {
      pace = new Pace(this.options.evictionRate, now);
      this.paces.set(zone, pace);
    }
    return pace;
  }
}
