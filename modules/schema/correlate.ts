/**
 * Pairs the parts of a new object with the parts of the old one they replace, as kube's CorrelatedObject
 * does for ratcheting and CEL transition rules: object properties and map values by key, items of a
 * `x-kubernetes-list-type: map` list by their list-map keys. Items of atomic lists and sets have no partner
 * (an item at the same index is not "the same" item), nor do keys the schema does not describe.
 *
 * `unchanged()` answers whether the new value equals the old one as kube decides it: through the same
 * correlation, so a map-type list whose items only moved is unchanged, and an object holding keys no schema
 * describes (preserved unknown fields) never is, unless it is empty. Answers and children are cached, so
 * validation and CEL can ask the same node many times.
 */
import { isPlainObject } from '../api/index.js';
import type { Schema } from '../api/index.js';
import { deepEqualJSON } from './go-values.js';
import { compileValueNode, type ValueNode } from './value-node.js';

/** The old items of a map-type list, found by the key of a new item (first old item with that key wins). */
class OldItemsByKey {
  private readonly byKey = new Map<unknown, unknown>();
  private next = 0;

  constructor(
    private readonly keys: string[],
    private readonly items: unknown[],
  ) {}

  get(item: unknown): unknown {
    if (!isPlainObject(item)) return undefined;
    const key = compositeKey(item, this.keys);
    if (key === undefined) return undefined;
    const found = this.byKey.get(key);
    if (found !== undefined) return found;
    // index the old items lazily, up to the one we look for
    while (this.next < this.items.length) {
      const old = this.items[this.next++];
      if (!isPlainObject(old)) continue;
      const oldKey = compositeKey(old, this.keys);
      if (oldKey === undefined) continue;
      if (!this.byKey.has(oldKey)) this.byKey.set(oldKey, old);
      if (oldKey === key) return old;
    }
    return undefined;
  }
}

/**
 * The identity of a map-type list item: the single key's scalar value itself, or for several keys a string
 * joining each key's value with its type (so 1 and "1" differ). undefined when a key is missing or not a
 * scalar.
 */
export function compositeKey(item: Record<string, unknown>, keys: string[]): unknown {
  if (keys.length === 1) {
    const v = item[keys[0]];
    return isScalar(v) ? v : undefined;
  }
  let out = '';
  for (const key of keys) {
    const v = item[key];
    if (!isScalar(v)) return undefined;
    // the type decides the form, as kube's fmt verbs do: %t, %d or %f, %q
    if (typeof v === 'number') out += Number.isInteger(v) ? `\0${v}` : `\0${v.toFixed(6)}`;
    else if (typeof v === 'string') out += `\0${JSON.stringify(v)}`;
    else out += `\0${String(v)}`;
  }
  return out;
}

function isScalar(v: unknown): v is string | number | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

export class Correlation {
  private children: Map<string | number, Correlation | null> | undefined;
  private oldItems: OldItemsByKey | undefined;
  private equal: boolean | undefined;

  constructor(
    /** the new value */
    readonly value: unknown,
    /** the old value it replaces */
    readonly oldValue: unknown,
    readonly node: ValueNode,
  ) {}

  /** The pair for property or map key `field`, when both objects have it and the schema describes it. */
  key(field: string): Correlation | undefined {
    const known = this.children?.get(field);
    if (known !== undefined) return known ?? undefined;
    const child = this.makeKey(field);
    (this.children ??= new Map()).set(field, child ?? null);
    return child;
  }

  private makeKey(field: string): Correlation | undefined {
    const { value, oldValue } = this;
    if (!isPlainObject(value) || !isPlainObject(oldValue)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(value, field)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(oldValue, field)) return undefined;
    const node = this.node.props?.get(field) ?? this.node.additional;
    if (!node) return undefined;
    return new Correlation(value[field], oldValue[field], node);
  }

  /** The pair for item `i` of the new list: only map-type lists correlate their items. */
  index(i: number): Correlation | undefined {
    const known = this.children?.get(i);
    if (known !== undefined) return known ?? undefined;
    const child = this.makeIndex(i);
    (this.children ??= new Map()).set(i, child ?? null);
    return child;
  }

  private makeIndex(i: number): Correlation | undefined {
    const { value, oldValue, node } = this;
    if (!Array.isArray(value) || !Array.isArray(oldValue) || i >= value.length) return undefined;
    if (node.listType !== 'map') return undefined;
    const keys = node.listMapKeys;
    if (node.schema.type !== 'array' || !keys || keys.length === 0 || oldValue.length === 0) return undefined;
    this.oldItems ??= new OldItemsByKey(keys, oldValue);
    const old = this.oldItems.get(value[i]);
    if (old === undefined || !node.items) return undefined;
    return new Correlation(value[i], old, node.items);
  }

  /** Whether the new value equals the old one, correlated as above. */
  unchanged(): boolean {
    if (this.equal === undefined) this.equal = this.compare();
    return this.equal;
  }

  private compare(): boolean {
    const { value, oldValue } = this;
    if (value === null && oldValue === null) return true;
    if (value === null || oldValue === null || value === undefined || oldValue === undefined) return false;
    const newList = Array.isArray(value);
    const newMap = isPlainObject(value);
    if (newList !== Array.isArray(oldValue) || newMap !== isPlainObject(oldValue)) return false;
    if (newList) {
      const a = value as unknown[];
      const b = oldValue as unknown[];
      if (a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) {
        const child = this.index(i);
        // lists without correlated items compare whole
        if (!child) return this.oldItems === undefined ? deepEqualJSON(a, b) : false;
        if (!child.unchanged()) return false;
      }
      return true;
    }
    if (newMap) {
      const a = value as Record<string, unknown>;
      let n = 0;
      for (const k in a) {
        const child = this.key(k);
        if (!child || !child.unchanged()) return false;
        n++;
      }
      return n === Object.keys(oldValue as Record<string, unknown>).length;
    }
    return deepEqualJSON(value, oldValue);
  }
}

/** The correlation of a whole new object with its old version under their schema. */
export function correlate(value: unknown, oldValue: unknown, schema: Schema): Correlation {
  return new Correlation(value, oldValue, compileValueNode(schema));
}
