/**
 * Duplicate keys, which JSON.parse and YAML parsers silently collapse (last one wins). kube reports them
 * for fieldValidation=Warn/Strict: JSON as `duplicate field "metadata.name"` (one per path), YAML as
 * go-yaml's `line N: key "name" already set in map`. Run only when the level asks for it.
 */
import { LineCounter, parseDocument, isMap, isPair, isScalar, isSeq, type Node as YamlNode } from 'yaml';
import { goQuote } from '../api/index.js';

const maxReported = 100;

interface Frame {
  array: boolean;
  /** array: index of the current element */
  index: number;
  /** object: the current key, as a range of the text between its quotes... */
  keyStart: number;
  keyEnd: number;
  /** ...or as a string when it holds escapes */
  keyText: string | undefined;
  /** object: ranges of the keys seen so far, compared in place to avoid a string per key */
  count: number;
  starts: number[];
  ends: number[];
  /** the keys as strings, once the object is large or has an escaped key */
  set: Set<string> | undefined;
}

function newFrame(): Frame {
  return {
    array: false,
    index: 0,
    keyStart: 0,
    keyEnd: 0,
    keyText: undefined,
    count: 0,
    starts: [],
    ends: [],
    set: undefined,
  };
}

/** Index of the quote closing the string that opens at `start`. */
function stringEnd(text: string, start: number): number {
  let j = text.indexOf('"', start + 1);
  for (;;) {
    if (j < 0) return text.length; // unterminated: only reachable with invalid JSON
    let slashes = 0;
    for (let k = j - 1; text.charCodeAt(k) === 92; k--) slashes++;
    if ((slashes & 1) === 0) return j;
    j = text.indexOf('"', j + 1);
  }
}

function keyOf(text: string, f: Frame): string {
  return f.keyText ?? text.slice(f.keyStart, f.keyEnd);
}

function pathTo(text: string, frames: Frame[], depth: number, key: string): string {
  let path = '';
  for (let i = 0; i < depth; i++) {
    const f = frames[i];
    if (f.array) path += `[${f.index}]`;
    else path += path === '' ? keyOf(text, f) : `.${keyOf(text, f)}`;
  }
  return path === '' ? key : `${path}.${key}`;
}

function sameRange(text: string, a: number, b: number, len: number): boolean {
  for (let k = 0; k < len; k++) if (text.charCodeAt(a + k) !== text.charCodeAt(b + k)) return false;
  return true;
}

/** true when the frame's current key was already seen in this object; records it otherwise */
function seenBefore(text: string, f: Frame): boolean {
  if (f.set === undefined && f.keyText === undefined && f.count < 24) {
    const s = f.keyStart;
    const len = f.keyEnd - s;
    const starts = f.starts;
    const ends = f.ends;
    const last = text.charCodeAt(f.keyEnd - 1);
    for (let k = 0; k < f.count; k++) {
      // length and last character first: sibling keys often share a prefix (key1, key2, ...)
      if (
        ends[k] - starts[k] === len &&
        text.charCodeAt(ends[k] - 1) === last &&
        sameRange(text, starts[k], s, len)
      )
        return true;
    }
    starts[f.count] = s;
    ends[f.count] = f.keyEnd;
    f.count++;
    return false;
  }
  if (f.set === undefined) {
    // switch to strings: many keys, or one with escapes that must compare unescaped
    f.set = new Set();
    for (let k = 0; k < f.count; k++) f.set.add(text.slice(f.starts[k], f.ends[k]));
  }
  const key = keyOf(text, f);
  if (f.set.has(key)) return true;
  f.set.add(key);
  return false;
}

/**
 * Paths of repeated object keys in a JSON text that already parsed successfully (no syntax checking
 * here), in kube's notation: `metadata.labels.app`, `spec.containers[0].name`. Each path once, at most 100.
 */
/** Frames are reused across calls (decoding is synchronous, so calls never overlap). */
const frames: Frame[] = [];

export function findDuplicateFields(text: string): string[] {
  let depth = 0;
  let expectKey = false;
  let found: string[] | undefined;
  const n = text.length;
  // position of the next backslash at or after the current key, found once per stretch of text
  let backslash = -1;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const end = stringEnd(text, i);
      if (expectKey && depth > 0) {
        const f = frames[depth - 1];
        f.keyStart = i + 1;
        f.keyEnd = end;
        if (backslash !== Infinity && backslash <= i) {
          backslash = text.indexOf('\\', i + 1);
          if (backslash < 0) backslash = Infinity;
        }
        f.keyText = backslash < end ? (JSON.parse(text.slice(i, end + 1)) as string) : undefined;
        if (seenBefore(text, f)) {
          const path = pathTo(text, frames, depth - 1, keyOf(text, f));
          found ??= [];
          if (found.length < maxReported && !found.includes(path)) found.push(path);
        }
        expectKey = false;
      }
      i = end;
    } else if (c === 123 || c === 91) {
      const f = frames[depth] ?? (frames[depth] = newFrame());
      f.array = c === 91;
      f.index = 0;
      f.count = 0;
      f.keyText = undefined;
      f.set = undefined;
      depth++;
      expectKey = c === 123;
    } else if (c === 125 || c === 93) {
      if (depth > 0) depth--;
      expectKey = false;
    } else if (c === 44 && depth > 0) {
      const f = frames[depth - 1];
      if (f.array) f.index++;
      else expectKey = true;
    }
  }
  return found ?? [];
}

// ---- YAML ----

export interface YamlDuplicate {
  /** 1-based line of the repeated entry, as go-yaml reports it */
  line: number;
  /** the key as go-yaml prints it with %#v: strings quoted, numbers and booleans bare */
  key: string;
}

function goKey(node: YamlNode | null | undefined): string | undefined {
  if (!isScalar(node)) return undefined;
  const v = node.value;
  if (typeof v === 'string') return goQuote(v);
  if (v === null) return '<nil>';
  return String(v);
}

/**
 * Repeated mapping keys in a YAML text (its first document, the request body), in source order. go-yaml names the line of the
 * repeated entry's value; we use the value's line when it has one, else the key's.
 */
export function findYamlDuplicateKeys(text: string): YamlDuplicate[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { uniqueKeys: false, lineCounter: lines, strict: false });
  const out: YamlDuplicate[] = [];
  const visit = (node: unknown): void => {
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = pair.key as YamlNode | null;
        const id = isScalar(key) ? `${typeof key.value}:${String(key.value)}` : undefined;
        if (id !== undefined) {
          if (seen.has(id)) {
            const at = (pair.value as YamlNode | null)?.range?.[0] ?? key?.range?.[0] ?? 0;
            out.push({ line: lines.linePos(at).line, key: goKey(key) ?? '' });
          } else seen.add(id);
        }
        visit(key);
        visit(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) visit(item);
    }
  };
  visit(doc.contents);
  return out;
}

/** go-yaml's strict error for the duplicates found, as kube returns it for YAML bodies. */
export function yamlDuplicateMessage(dups: readonly YamlDuplicate[]): string {
  return `yaml: unmarshal errors:\n${dups.map((d) => `  line ${d.line}: key ${d.key} already set in map`).join('\n')}`;
}
