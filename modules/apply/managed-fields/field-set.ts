/**
 * A set of field paths kept as a trie, with kube's FieldsV1 encoding. At each node, `members` are the
 * elements that are themselves in the set and `children` the elements with longer paths below them; an
 * element can be both (a map item a manager owns as a whole and also field by field), which FieldsV1 writes
 * as a `.` entry.
 *
 * Sets are values: operations return new sets and never change their inputs. `insert` is for building a set
 * that nobody else has seen yet.
 */
import { goJson, isObject } from './json-value.js';
import {
  compareElements,
  parseElement,
  pathText,
  serializeElement,
  type Path,
  type PathElement,
} from './path-element.js';

interface Child {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

/** The FieldsV1 JSON shape: every value is an object, `{}` for a leaf. */
export type FieldsV1 = { [key: string]: FieldsV1 };

export class FieldsV1Error extends Error {}

export class FieldSet {
  private readonly memberMap = new Map<string, PathElement>();
  private readonly childMap = new Map<string, Child>();

  static empty(): FieldSet {
    return new FieldSet();
  }

  static of(...paths: Path[]): FieldSet {
    const set = new FieldSet();
    for (const p of paths) set.insert(p);
    return set;
  }

  /** A set from its parts at the top level (empty child sets are dropped). */
  static build(
    members: Iterable<PathElement>,
    children: Iterable<readonly [PathElement, FieldSet]>,
  ): FieldSet {
    const set = new FieldSet();
    for (const pe of members) set.memberMap.set(serializeElement(pe), pe);
    for (const [pe, child] of children) {
      if (!child.isEmpty()) set.childMap.set(serializeElement(pe), { pe, set: child });
    }
    return set;
  }

  /** Adds a path. The empty path (the whole object) is never tracked. */
  insert(path: Path): void {
    if (path.length === 0) return;
    let members = this.memberMap;
    let children = this.childMap;
    for (let i = 0; i < path.length - 1; i++) {
      const k = serializeElement(path[i]);
      let child = children.get(k);
      if (!child) {
        child = { pe: path[i], set: new FieldSet() };
        children.set(k, child);
      }
      members = child.set.memberMap;
      children = child.set.childMap;
    }
    const last = path[path.length - 1];
    members.set(serializeElement(last), last);
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    const [first, ...rest] = path;
    if (rest.length === 0) return this.memberMap.has(serializeElement(first));
    return this.childMap.get(serializeElement(first))?.set.has(rest) ?? false;
  }

  isEmpty(): boolean {
    if (this.memberMap.size > 0) return false;
    for (const c of this.childMap.values()) if (!c.set.isEmpty()) return false;
    return true;
  }

  hasMember(pe: PathElement): boolean {
    return this.memberMap.has(serializeElement(pe));
  }

  /** The paths below `pe`, relative to it (empty when there are none). */
  withPrefix(pe: PathElement): FieldSet {
    return this.childMap.get(serializeElement(pe))?.set ?? new FieldSet();
  }

  /** Top-level members in kube's order. */
  members(): PathElement[] {
    return [...this.memberMap.values()].sort(compareElements);
  }

  /** Top-level children (element and the paths below it) in kube's order. */
  children(): Array<[PathElement, FieldSet]> {
    return [...this.childMap.values()]
      .filter((c) => !c.set.isEmpty())
      .sort((a, b) => compareElements(a.pe, b.pe))
      .map((c) => [c.pe, c.set]);
  }

  union(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.memberMap) out.memberMap.set(k, pe);
    for (const [k, pe] of other.memberMap) out.memberMap.set(k, pe);
    for (const [k, c] of this.childMap) out.childMap.set(k, c);
    for (const [k, c] of other.childMap) {
      const mine = out.childMap.get(k);
      out.childMap.set(k, mine ? { pe: c.pe, set: mine.set.union(c.set) } : c);
    }
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.memberMap) if (other.memberMap.has(k)) out.memberMap.set(k, pe);
    for (const [k, c] of this.childMap) {
      const theirs = other.childMap.get(k);
      if (!theirs) continue;
      const both = c.set.intersection(theirs.set);
      if (!both.isEmpty()) out.childMap.set(k, { pe: c.pe, set: both });
    }
    return out;
  }

  /**
   * Paths of this set that are not in `other`. A member of `other` removes only that member, not the paths
   * below it (see recursiveDifference for that).
   */
  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.memberMap) if (!other.memberMap.has(k)) out.memberMap.set(k, pe);
    for (const [k, c] of this.childMap) {
      const theirs = other.childMap.get(k);
      const rest = theirs ? c.set.difference(theirs.set) : c.set;
      if (!rest.isEmpty()) out.childMap.set(k, { pe: c.pe, set: rest });
    }
    return out;
  }

  /** Like difference, but a member of `other` also removes every path below it. */
  recursiveDifference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.memberMap) if (!other.memberMap.has(k)) out.memberMap.set(k, pe);
    for (const [k, c] of this.childMap) {
      if (other.memberMap.has(k)) continue;
      const theirs = other.childMap.get(k);
      const rest = theirs ? c.set.recursiveDifference(theirs.set) : c.set;
      if (!rest.isEmpty()) out.childMap.set(k, { pe: c.pe, set: rest });
    }
    return out;
  }

  equals(other: FieldSet): boolean {
    return this.difference(other).isEmpty() && other.difference(this).isEmpty();
  }

  /** Every path, in kube's iteration order: a node's members first, then each child's paths. */
  paths(): Path[] {
    const out: Path[] = [];
    const walk = (set: FieldSet, prefix: PathElement[]): void => {
      for (const pe of set.members()) out.push([...prefix, pe]);
      for (const [pe, child] of set.children()) walk(child, [...prefix, pe]);
    };
    walk(this, []);
    return out;
  }

  toString(): string {
    return this.paths().map(pathText).join('\n');
  }

  /** The FieldsV1 object kube writes for this set, keys in kube's order. */
  toFieldsV1(): FieldsV1 {
    return emit(this, false);
  }

  /** The exact bytes kube's serializer produces for this set. */
  toFieldsV1Json(): string {
    return emitJson(this, false);
  }

  /** Reads FieldsV1; unknown element types are dropped (as kube does), malformed keys throw. */
  static fromFieldsV1(json: unknown): FieldSet {
    if (json === undefined || json === null) return new FieldSet();
    if (!isObject(json)) throw new FieldsV1Error('FieldsV1 must be a JSON object');
    return read(json).set ?? new FieldSet();
  }
}

/** Members and children of one node, merged in order; `both` marks an element that is both. */
function entries(set: FieldSet): Array<{ pe: PathElement; member: boolean; child?: FieldSet }> {
  const out = new Map<string, { pe: PathElement; member: boolean; child?: FieldSet }>();
  for (const pe of set.members()) out.set(serializeElement(pe), { pe, member: true });
  for (const [pe, child] of set.children()) {
    const k = serializeElement(pe);
    out.set(k, { pe, member: out.has(k), child });
  }
  return [...out.values()].sort((a, b) => compareElements(a.pe, b.pe));
}

function emit(set: FieldSet, includeSelf: boolean): FieldsV1 {
  const out: FieldsV1 = {};
  const items = entries(set);
  if (includeSelf && items.length > 0) out['.'] = {};
  for (const { pe, member, child } of items) {
    const value = child ? emit(child, member) : {};
    Object.defineProperty(out, serializeElement(pe), {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function emitJson(set: FieldSet, includeSelf: boolean): string {
  const parts: string[] = [];
  const items = entries(set);
  if (includeSelf && items.length > 0) parts.push('".":{}');
  for (const { pe, member, child } of items) {
    parts.push(`${goJson(serializeElement(pe))}:${child ? emitJson(child, member) : '{}'}`);
  }
  return `{${parts.join(',')}}`;
}

function read(obj: Record<string, unknown>): { set?: FieldSet; isMember: boolean } {
  let isMember = false;
  const members: PathElement[] = [];
  const children: Array<[PathElement, FieldSet]> = [];
  for (const [k, v] of Object.entries(obj)) {
    if (!isObject(v)) throw new FieldsV1Error(`the value of ${JSON.stringify(k)} must be a JSON object`);
    if (k === '.') {
      isMember = true;
      continue;
    }
    let pe: PathElement | undefined;
    try {
      pe = parseElement(k);
    } catch (err) {
      throw new FieldsV1Error(`parsing key as path element: ${(err as Error).message}`);
    }
    if (!pe) continue;
    const sub = read(v);
    if (sub.isMember) members.push(pe);
    if (sub.set) children.push([pe, sub.set]);
  }
  if (members.length === 0 && children.length === 0) return { isMember: true };
  return { set: FieldSet.build(members, children), isMember };
}
