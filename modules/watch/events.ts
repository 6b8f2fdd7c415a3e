/** One change as the watch cache keeps it: the new state and the state before, at its revision. */
import type { KubeObject } from '../api/object.js';
import type { ChangeType } from '../storage/store.js';

export interface CachedEvent {
  rv: number;
  type: ChangeType;
  resource: string;
  namespace: string;
  name: string;
  /** the object after the change (for DELETED: its last state, at the deletion revision) */
  object: KubeObject;
  /** the object before the change (undefined for ADDED) */
  prev?: KubeObject;
  /** when this replica learned of it (ms); history is trimmed by it */
  at: number;
}

export type EventType = ChangeType | 'BOOKMARK' | 'ERROR';

/** Serialized `{"type":…,"object":…}` lines, made once per event and type, shared by every watcher. */
const lines = new WeakMap<KubeObject, Map<string, string>>();

export function eventLine(type: EventType, object: KubeObject): string {
  let byType = lines.get(object);
  if (!byType) {
    byType = new Map();
    lines.set(object, byType);
  }
  let line = byType.get(type);
  if (line === undefined) {
    line = `{"type":"${type}","object":${JSON.stringify(object)}}\n`;
    byType.set(type, line);
  }
  return line;
}
