/**
 * Duplicate keys, which JSON.parse and YAML parsers silently collapse (last one wins). kube reports them
 * for fieldValidation=Warn/Strict: JSON as `duplicate field "metadata.name"` (one per path), YAML as
 * go-yaml's `line N: key "name" already set in map`. Run only when the level asks for it.
 */
import { LineCounter, parseDocument, isMap, isPair, isScalar, isSeq, type Node as YamlNode } from 'yaml';
import { goQuote } from '../../api/selectors/quote.js';

const maxReported = 100;

interface Frame {
  array: boolean;
  /** object: the key being read or last read; array: unused */
  key: string;
  /** array: index of the current element */
  index: number;
  /** object: keys seen so far (a Set once the object grows) */
  seen: string[];
  seenSet: Set<string> | undefined;
}

function newFrame(): Frame {
  return { array: false, key: '', index: 0, seen: [], seenSet: undefined };
}

/** Index of the quote closing the string that opens at `start`. */
function stringEnd(text: string, start: number): number {
  let j = text.indexOf('"', start + 1);
  for (;;) {
    let slashes = 0;
    for (let k = j - 1; text.charCodeAt(k) === 92; k--) slashes++;
    if ((slashes & 1) === 0) return j;
    j = text.indexOf('"', j + 1);
  }
}

function pathTo(frames: Frame[], depth: number, key: string): string {
  let path = '';
  for (let i = 0; i < depth; i++) {
    const f = frames[i];
    if (f.array) path += `[${f.index}]`;
    else path += path === '' ? f.key : `.${f.key}`;
  }
  return path === '' ? key : `${path}.${key}`;
}

/** true when `key` was already seen in this object; records it otherwise */
function seenBefore(f: Frame, key: string): boolean {
  if (f.seenSet) {
    if (f.seenSet.has(key)) return true;
    f.seenSet.add(key);
    return false;
  }
  const seen = f.seen;
  for (let i = 0; i < seen.length; i++) if (seen[i] === key) return true;
  seen.push(key);
  if (seen.length > 24) f.seenSet = new Set(seen);
  return false;
}

/**
 * Paths of repeated object keys in a JSON text that already parsed successfully (no syntax checking
 * here), in kube's notation: `metadata.labels.app`, `spec.containers[0].name`. Each path once, at most 100.
 */
export function findDuplicateFields(text: string): string[] {
  const frames: Frame[] = [];
  let depth = 0;
  let expectKey = false;
  let found: string[] | undefined;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const end = stringEnd(text, i);
      if (expectKey) {
        const f = frames[depth - 1];
        const raw = text.slice(i + 1, end);
        const key = raw.indexOf('\\') < 0 ? raw : (JSON.parse(text.slice(i, end + 1)) as string);
        f.key = key;
        if (seenBefore(f, key)) {
          const path = pathTo(frames, depth - 1, key);
          found ??= [];
          if (found.length < maxReported && !found.includes(path)) found.push(path);
        }
        expectKey = false;
      }
      i = end;
    } else if (c === 123 || c === 91) {
      // reuse frames between siblings: objects are parsed thousands of times a second
      const f = frames[depth] ?? (frames[depth] = newFrame());
      f.array = c === 91;
      f.index = 0;
      f.key = '';
      f.seen.length = 0;
      f.seenSet = undefined;
      depth++;
      expectKey = c === 123;
    } else if (c === 125 || c === 93) {
      depth--;
      expectKey = false;
    } else if (c === 44) {
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
