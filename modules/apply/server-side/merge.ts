/**
 * Merging an applied configuration into the live object (structured-merge-diff's Merge): the configuration
 * wins on every leaf it sets, granular maps merge key by key, sets and keyed lists merge item by item, atomic
 * lists and maps are replaced whole. Nothing is removed here; pruning what an applier dropped comes after.
 *
 * List order: items only the live object has keep their place; items the configuration names follow the
 * configuration's order (a live item the configuration also names moves to where the configuration puts it).
 */
import { isObject, setOwn, type JsonObject } from '../managed-fields/json-value.js';
import {
  listItems,
  mapChild,
  viewFor,
  type ListItem,
  type ListView,
  type SchemaRef,
} from '../managed-fields/schema-view.js';

const isEmpty = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  (Array.isArray(v) ? v.length === 0 : isObject(v) && Object.keys(v).length === 0);

/** The live object with `config` merged in. Inputs are not changed; the result may share their parts. */
export function mergeObjects(live: unknown, config: unknown, schema: SchemaRef): unknown {
  return merge(live, config, schema);
}

/** `undefined` means absent. */
function merge(l: unknown, r: unknown, schema: SchemaRef): unknown {
  if (r === undefined) return l;
  if (l === undefined) return r;
  const view = viewFor(schema, r);
  if (view.kind === 'scalar') return r;
  if (view.kind === 'list') {
    if (!Array.isArray(r) && r !== null) return r;
    const la = Array.isArray(l) ? l : null;
    if (view.atomic || (isEmpty(la) && isEmpty(r))) return r;
    return mergeList(view, la ?? [], r ?? []);
  }
  if (!isObject(r) && r !== null) return r;
  const lo = isObject(l) ? l : null;
  if (view.atomic || (isEmpty(lo) && isEmpty(r))) return r;
  const out: JsonObject = {};
  const ro = r ?? {};
  for (const k of Object.keys(lo ?? {})) {
    setOwn(out, k, merge(lo![k], Object.hasOwn(ro, k) ? ro[k] : undefined, mapChild(view, k)?.schema));
  }
  for (const k of Object.keys(ro)) {
    if (!lo || !Object.hasOwn(lo, k)) setOwn(out, k, merge(undefined, ro[k], mapChild(view, k)?.schema));
  }
  return out;
}

function mergeList(view: ListView, la: unknown[], ra: unknown[]): unknown[] {
  // the configuration was checked before merging; live items that cannot be named are kept as they are
  const left = listItems(view, la, () => {});
  const right = listItems(view, ra, () => {});
  const liveById = new Map<string, { value: unknown; repeated: boolean }>();
  for (const it of left) {
    const seen = liveById.get(it.id);
    liveById.set(it.id, seen ? { value: undefined, repeated: true } : { value: it.value, repeated: false });
  }
  const configById = new Map<string, ListItem>(right.map((it) => [it.id, it]));
  // a repeated live item is merged as if absent: the configuration's copy replaces all of them
  const liveValue = (id: string): unknown => liveById.get(id)?.value;

  const shared = right.filter((it) => liveById.has(it.id)).map((it) => it.id);
  let next = 0;
  const nextShared = (): string | undefined => shared[next];
  const merged = new Set<string>();
  const out: unknown[] = [];
  const take = (id: string, l: unknown, r: unknown): void => {
    out.push(merge(l, r, view.items));
    merged.add(id);
  };

  let li = 0;
  let ri = 0;
  while (li < left.length || ri < right.length) {
    if (li < left.length && ri < right.length) {
      const lid = left[li].id;
      if (lid === right[ri].id) {
        take(lid, liveValue(lid), right[ri].value);
        li++;
        ri++;
        next++;
        continue;
      }
      // a live item the configuration places later: skip it here, it is emitted at its new place
      if (configById.has(lid) && nextShared() !== undefined && nextShared() !== lid) {
        li++;
        continue;
      }
    }
    if (li < left.length) {
      const lid = left[li].id;
      if (!configById.has(lid)) {
        out.push(merge(left[li].value, undefined, view.items));
        li++;
        continue;
      }
      if (merged.has(lid)) {
        li++;
        continue;
      }
    }
    if (ri < right.length) {
      const rid = right[ri].id;
      take(rid, liveValue(rid), right[ri].value);
      ri++;
      if (nextShared() === rid) next++;
    }
  }
  return out;
}
