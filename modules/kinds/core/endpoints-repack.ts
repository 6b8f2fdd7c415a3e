/**
 * Endpoints subsets in canonical form, as kube stores them (its RepackSubsets): one subset per distinct set
 * of addresses, carrying every port those addresses serve; an address listed both ready and not ready counts
 * as ready; addresses are sorted by IP (then target uid). kube orders ports and subsets by a hash of their
 * Go representation; here they are sorted by port number, protocol and name, and by first address.
 */
import { isPlainObject } from '../../api/index.js';
import { listAt, strAt, type Obj } from '../values.js';

const uidOf = (addr: Obj): string => (isPlainObject(addr.targetRef) ? strAt(addr.targetRef.uid) : '');
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** a port with no ports at all: headless services' endpoints keep their addresses */
const noPort = '\u0000';

function portKey(port: Obj): string {
  return JSON.stringify([port.port ?? 0, strAt(port.protocol), strAt(port.name), port.appProtocol ?? null]);
}

export function repackSubsets(subsets: unknown[]): Obj[] {
  const addresses = new Map<string, Obj>();
  const ports = new Map<string, Obj | undefined>();
  /** port key -> address key -> ready */
  const readiness = new Map<string, Map<string, boolean>>();
  const note = (pk: string, addr: Obj, ready: boolean): void => {
    const ak = JSON.stringify([strAt(addr.ip), uidOf(addr)]);
    if (!addresses.has(ak)) addresses.set(ak, structuredClone(addr));
    let byAddress = readiness.get(pk);
    if (!byAddress) readiness.set(pk, (byAddress = new Map()));
    if (byAddress.get(ak) !== true) byAddress.set(ak, ready);
  };
  for (const item of subsets) {
    if (!isPlainObject(item)) continue;
    const subsetPorts = listAt(item.ports).filter(isPlainObject);
    const keys = subsetPorts.length === 0 ? [noPort] : subsetPorts.map(portKey);
    subsetPorts.forEach((p, i) => ports.set(keys[i], p));
    if (subsetPorts.length === 0 && !ports.has(noPort)) ports.set(noPort, undefined);
    for (const pk of keys) {
      for (const a of listAt(item.addresses)) if (isPlainObject(a)) note(pk, a, true);
      for (const a of listAt(item.notReadyAddresses)) if (isPlainObject(a)) note(pk, a, false);
    }
  }
  // ports served by exactly the same addresses (with the same readiness) share a subset
  const groups = new Map<string, { members: Map<string, boolean>; ports: Obj[] }>();
  for (const [pk, members] of readiness) {
    const signature = JSON.stringify([...members].sort(([a], [b]) => compare(a, b)));
    let group = groups.get(signature);
    if (!group) groups.set(signature, (group = { members, ports: [] }));
    const port = ports.get(pk);
    if (port) group.ports.push(structuredClone(port));
  }
  const byIP = (a: Obj, b: Obj): number => compare(strAt(a.ip), strAt(b.ip)) || compare(uidOf(a), uidOf(b));
  const out: Obj[] = [];
  for (const group of groups.values()) {
    const ready: Obj[] = [];
    const notReady: Obj[] = [];
    for (const [ak, isReady] of group.members) (isReady ? ready : notReady).push(addresses.get(ak)!);
    const subset: Obj = {};
    if (ready.length > 0) subset.addresses = ready.sort(byIP);
    if (notReady.length > 0) subset.notReadyAddresses = notReady.sort(byIP);
    if (group.ports.length > 0) {
      subset.ports = group.ports.sort(
        (a, b) =>
          Number(a.port ?? 0) - Number(b.port ?? 0) ||
          compare(strAt(a.protocol), strAt(b.protocol)) ||
          compare(strAt(a.name), strAt(b.name)),
      );
    }
    out.push(subset);
  }
  const first = (s: Obj): string =>
    strAt(((s.addresses ?? s.notReadyAddresses) as Obj[] | undefined)?.[0]?.ip);
  return out.sort((a, b) => compare(first(a), first(b)));
}
