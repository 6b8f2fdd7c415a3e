/**
 * kube keeps at most ten Update entries: past that, the oldest ones of each API version are folded into one
 * `ancient-changes` entry for that version, so an object written by many controllers does not grow forever.
 */
import { managerIdentity, type Managed } from './entries.js';
import { compareStrings } from './json-value.js';

export const maxUpdateManagers = 10;
export const ancientChangesManager = 'ancient-changes';

const seconds = (time: string | undefined): number => {
  const ms = time ? Date.parse(time) : NaN;
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
};

export function capUpdateManagers(managed: Managed, max = maxUpdateManagers): Managed {
  const updaters = [...managed].filter(([, m]) => !m.applied).map(([id]) => id);
  if (updaters.length <= max) return managed;
  const out: Managed = new Map(managed);
  updaters.sort((a, b) => {
    const d = seconds(managed.get(a)!.time) - seconds(managed.get(b)!.time);
    return d !== 0 ? d : compareStrings(a, b);
  });
  const firstOfVersion = new Map<string, string>();
  let count = updaters.length;
  for (let i = 0; i < updaters.length && count > max; i++) {
    const identity = updaters[i];
    const m = out.get(identity);
    if (!m) continue;
    const bucket = managerIdentity({
      manager: ancientChangesManager,
      operation: 'Update',
      apiVersion: m.apiVersion,
    });
    const first = firstOfVersion.get(m.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(m.apiVersion, identity);
      continue;
    }
    // an existing bucket met in the sweep is already where entries go (kube would drop it here)
    if (identity === bucket) continue;
    if (!out.has(bucket)) {
      out.set(bucket, out.get(first)!);
      out.delete(first);
    }
    const into = out.get(bucket)!;
    // the bucket takes the time of the newer entry folded into it
    out.set(bucket, {
      fields: m.fields.union(into.fields),
      apiVersion: m.apiVersion,
      applied: false,
      time: m.time,
    });
    out.delete(identity);
    count--;
  }
  return out;
}
