// Old and new values of an update, paired node by node as kube pairs them for `oldSelf` and for ratcheting:
// object properties and map entries by key, items of `x-kubernetes-list-type: map` lists by their keys; items of
// atomic lists and sets have no old value. A node whose value equals its old one is "unchanged": kube v1.32
// ratchets it, so its rules' failures (other than transition rules') become warnings.
import type { Schema } from '../../api/index.js';

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const scalar = (v: unknown) => ['string', 'number', 'boolean', 'bigint'].includes(typeof v);

/** The identity of a map-list item: its key properties' values, or undefined when one is missing. */
export function mapListKey(item: unknown, keys: string[]): string | undefined {
  if (!isObject(item) || keys.length === 0) return undefined;
  const values: unknown[] = [];
  for (const k of keys) {
    const v = item[k];
    if (!scalar(v)) return undefined;
    values.push(typeof v === 'bigint' ? Number(v) : v);
  }
  return JSON.stringify(values);
}

/** Finds the old item with the same keys as a new one (items of map lists only); built on first use. */
export class OldItems {
  private byKey?: Map<string, unknown>;

  constructor(
    private readonly old: unknown,
    private readonly schema: Schema,
  ) {}

  get(item: unknown): unknown {
    const keys = this.schema['x-kubernetes-list-map-keys'];
    if (this.schema['x-kubernetes-list-type'] !== 'map' || !keys?.length || !Array.isArray(this.old)) {
      return undefined;
    }
    if (!this.byKey) {
      this.byKey = new Map();
      for (const x of this.old) {
        const k = mapListKey(x, keys);
        if (k !== undefined && !this.byKey.has(k)) this.byKey.set(k, x);
      }
    }
    const k = mapListKey(item, keys);
    return k === undefined ? undefined : this.byKey.get(k);
  }
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]))
    );
  }
  return typeof a === 'bigint' || typeof b === 'bigint' ? Number(a) === Number(b) : false;
}

/** A new value with its old counterpart and schema; children are paired on demand and remembered. */
export class Correlation {
  private equal?: boolean;
  private children?: Map<string | number, Correlation | undefined>;
  private oldItems?: OldItems;

  constructor(
    readonly value: unknown,
    readonly old: unknown,
    readonly schema: Schema,
  ) {}

  key(field: string): Correlation | undefined {
    if (this.children?.has(field)) return this.children.get(field);
    let c: Correlation | undefined;
    if (
      isObject(this.value) &&
      isObject(this.old) &&
      Object.hasOwn(this.value, field) &&
      Object.hasOwn(this.old, field)
    ) {
      const ap = this.schema.additionalProperties;
      const s = this.schema.properties?.[field] ?? (typeof ap === 'object' ? ap : undefined);
      if (s) c = new Correlation(this.value[field], this.old[field], s);
    }
    (this.children ??= new Map()).set(field, c);
    return c;
  }

  index(i: number): Correlation | undefined {
    if (this.children?.has(i)) return this.children.get(i);
    let c: Correlation | undefined;
    if (Array.isArray(this.value) && i < this.value.length && Array.isArray(this.old) && this.schema.items) {
      const old = (this.oldItems ??= new OldItems(this.old, this.schema)).get(this.value[i]);
      if (old !== undefined) c = new Correlation(this.value[i], old, this.schema.items);
    }
    (this.children ??= new Map()).set(i, c);
    return c;
  }

  /** The value equals its old one, judged through the same pairing (cached). */
  unchanged(): boolean {
    return (this.equal ??= this.compare());
  }

  private compare(): boolean {
    const { value, old } = this;
    if (value === undefined || value === null || old === undefined || old === null) {
      return (value ?? null) === (old ?? null);
    }
    if (Array.isArray(value) !== Array.isArray(old) || isObject(value) !== isObject(old)) return false;
    if (Array.isArray(value)) {
      const before = old as unknown[];
      if (value.length !== before.length) return false;
      const mapList = this.schema['x-kubernetes-list-type'] === 'map';
      for (let i = 0; i < value.length; i++) {
        const c = this.index(i);
        if (!c) return mapList ? false : deepEqual(value, before);
        if (!c.unchanged()) return false;
      }
      return true;
    }
    if (isObject(value)) {
      const keys = Object.keys(value);
      if (keys.length !== Object.keys(old as object).length) return false;
      return keys.every((k) => this.key(k)?.unchanged() ?? false);
    }
    return deepEqual(value, old);
  }
}

/** Where a node stands for ratcheting: its own pairing, or the nearest paired ancestor's. */
export interface Ratchet {
  current?: Correlation;
  nearest?: Correlation;
}

export const ratchetRoot = (value: unknown, old: unknown, schema: Schema): Ratchet => ({
  current: new Correlation(value, old, schema),
});

export function ratchetKey(r: Ratchet, field: string): Ratchet {
  if (!r.current) return r;
  // apiVersion and kind are the same in both (both are converted to one version): never ratcheted
  if (!r.nearest && (field === 'apiVersion' || field === 'kind')) return {};
  return { current: r.current.key(field), nearest: r.current };
}

export function ratchetIndex(r: Ratchet, i: number): Ratchet {
  if (!r.current) return r;
  return { current: r.current.index(i), nearest: r.current };
}

/** Errors of this node are ratcheted when it, or its nearest paired ancestor, is unchanged. */
export function ratchets(r: Ratchet): boolean {
  return r.current ? r.current.unchanged() : (r.nearest?.unchanged() ?? false);
}
