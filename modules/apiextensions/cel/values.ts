// A custom resource's JSON as CEL values, typed by the schema as kube's UnstructuredToVal types them: integers
// become int (BigInt), numbers double, `date`/`date-time` strings timestamps, `duration` strings durations,
// `byte` strings bytes. Objects expose their schema's properties only, under their escaped names, and a null
// property is an absent one; lists carry their list type (set, map) for equality. Built once per validation.
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { parseGoDuration } from '../../api/index.js';
import { markList } from '../../cel/index.js';
import type { DeclType } from './decl-type.js';

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const msPerUnit: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** OpenAPI's duration: Go's (`1h30m`), or a number and one unit, which may also be days or weeks (`3 d`). */
function parseDuration(s: string): Duration | undefined {
  let ms: number;
  try {
    ms = parseGoDuration(s);
  } catch {
    const m = /^(\d+)\s*(ns|us|ms|s|m|h|d|w)$/.exec(s.trim());
    if (!m) return undefined;
    ms = Number(m[1]) * msPerUnit[m[2]];
  }
  return Duration.fromMilliseconds(ms);
}

const dateTime = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})$/;

function parseTimestamp(s: string, dateOnly: boolean): Date | undefined {
  if (dateOnly) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return undefined;
    const d = new Date(`${s}T00:00:00Z`);
    return Number.isNaN(d.getTime()) ? undefined : d;
  }
  if (!dateTime.test(s)) return undefined;
  const d = new Date(s.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(d.getTime()) ? undefined : d;
}

function integer(v: unknown): unknown {
  return typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : v;
}

/**
 * The CEL value of `v` at a node of type `t`. Values of the wrong shape (which schema validation refuses
 * before rules run) stay as they are.
 */
export function toCel(v: unknown, t: DeclType): unknown {
  if (v === null || v === undefined) return null;
  switch (t.kind) {
    case 'int':
    case 'dyn':
      return integer(v);
    case 'double':
      return typeof v === 'bigint' ? Number(v) : v;
    case 'timestamp':
      return typeof v === 'string' ? (parseTimestamp(v, t.schema.format === 'date') ?? v) : v;
    case 'duration':
      return typeof v === 'string' ? (parseDuration(v) ?? v) : v;
    case 'bytes':
      return typeof v === 'string' ? new Uint8Array(Buffer.from(v, 'base64')) : v;
    case 'list': {
      if (!Array.isArray(v)) return v;
      const elem = t.elem!;
      const out = v.map((x) => toCel(x, elem));
      const listType = t.schema['x-kubernetes-list-type'];
      if (listType === 'set') return markList(out, { type: 'set' });
      if (listType === 'map')
        return markList(out, { type: 'map', keys: t.schema['x-kubernetes-list-map-keys'] ?? [] });
      return out;
    }
    case 'map': {
      if (!isObject(v)) return v;
      const out = Object.create(null) as Record<string, unknown>;
      for (const k of Object.keys(v)) out[k] = toCel(v[k], t.elem!);
      return out;
    }
    case 'object': {
      if (!isObject(v)) return v;
      const out: Record<string, unknown> = {};
      for (const [escaped, f] of t.fields!) {
        const x = v[f.name];
        if (x !== undefined && x !== null) out[escaped] = toCel(x, f.type);
      }
      return out;
    }
    default:
      return v;
  }
}

/** The value of a child of an already converted value: a property (by CEL name), a map key, a list index. */
export function celChild(parent: unknown, key: string | number | undefined): unknown {
  if (parent === undefined || key === undefined) return undefined;
  if (typeof key === 'number') return Array.isArray(parent) ? parent[key] : undefined;
  return isObject(parent) && Object.hasOwn(parent, key) ? parent[key] : undefined;
}
