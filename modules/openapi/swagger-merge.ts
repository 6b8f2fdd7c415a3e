/**
 * Merging another server's Swagger 2.0 document into ours, with the rules of kube-aggregator's OpenAPI v2
 * merge: a path the destination has keeps the destination's operations (the source's copy, and the definitions
 * and parameters only it used, are dropped); a definition or shared parameter with the destination's name is
 * reused when equal, else the source's is renamed `<name>_v2` (then _v3, ...) and its references follow.
 * Pure: the source is never changed, the destination's maps are replaced, not mutated.
 */
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The parts of a Swagger document a merge touches; other members of the destination stay as they are. */
export interface SwaggerParts {
  paths: Json;
  definitions: Json;
  parameters: Json;
}

const DEFINITIONS = '#/definitions/';
const PARAMETERS = '#/parameters/';

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
}

function refsIn(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) for (const v of node) refsIn(v, into);
  else if (isObject(node)) {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') into.add(v);
      else refsIn(v, into);
    }
  }
}

/** The definitions and parameters reachable from `paths`, by name. */
function reachable(
  paths: Json,
  definitions: Json,
  parameters: Json,
): { defs: Set<string>; params: Set<string> } {
  const defs = new Set<string>();
  const params = new Set<string>();
  const queue: unknown[] = [paths];
  while (queue.length) {
    const refs = new Set<string>();
    refsIn(queue.pop(), refs);
    for (const ref of refs) {
      if (ref.startsWith(DEFINITIONS)) {
        const name = ref.slice(DEFINITIONS.length);
        if (!defs.has(name) && name in definitions) {
          defs.add(name);
          queue.push(definitions[name]);
        }
      } else if (ref.startsWith(PARAMETERS)) {
        const name = ref.slice(PARAMETERS.length);
        if (!params.has(name) && name in parameters) {
          params.add(name);
          queue.push(parameters[name]);
        }
      }
    }
  }
  return { defs, params };
}

/** A copy of `node` with each `$ref` found in `renames` replaced. */
function rewriteRefs(node: unknown, renames: Map<string, string>): unknown {
  if (renames.size === 0) return node;
  if (Array.isArray(node)) return node.map((v) => rewriteRefs(v, renames));
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    out[k] = k === '$ref' && typeof v === 'string' ? (renames.get(v) ?? v) : rewriteRefs(v, renames);
  }
  return out;
}

function pick(from: Json, names: Iterable<string>): Json {
  const out: Json = {};
  for (const n of names) out[n] = from[n];
  return out;
}

/**
 * Names for the source's members of one kind (definitions or parameters): equal ones reuse the destination's,
 * clashing ones get the first free `_v<n>` suffix.
 */
function plan(
  dest: Json,
  source: Json,
  prefix: string,
): { add: Map<string, string>; renames: Map<string, string> } {
  const used = new Set(Object.keys(dest));
  const add = new Map<string, string>();
  const renames = new Map<string, string>();
  for (const [name, value] of Object.entries(source)) {
    if (!used.has(name)) {
      used.add(name);
      add.set(name, name);
      continue;
    }
    if (name in dest && deepEqual(dest[name], value)) continue;
    let i = 2;
    while (used.has(`${name}_v${i}`) || `${name}_v${i}` in source) i++;
    const renamed = `${name}_v${i}`;
    used.add(renamed);
    add.set(name, renamed);
    renames.set(prefix + name, prefix + renamed);
  }
  return { add, renames };
}

/** `dest` with `source` merged in; `dest` itself is left as it was. */
export function mergeSwagger(dest: SwaggerParts, source: Json): SwaggerParts {
  if (!isObject(source.paths)) return dest;
  const sourcePaths = source.paths;
  let definitions = isObject(source.definitions) ? source.definitions : {};
  let parameters = isObject(source.parameters) ? source.parameters : {};
  const kept = Object.keys(sourcePaths).filter((p) => !(p in dest.paths));
  if (kept.length === 0) return dest;
  let paths = sourcePaths;
  if (kept.length < Object.keys(sourcePaths).length) {
    paths = pick(sourcePaths, kept);
    const used = reachable(paths, definitions, parameters);
    definitions = pick(definitions, used.defs);
    parameters = pick(parameters, used.params);
  }
  const defPlan = plan(dest.definitions, definitions, DEFINITIONS);
  const paramPlan = plan(dest.parameters, parameters, PARAMETERS);
  const renames = new Map([...defPlan.renames, ...paramPlan.renames]);
  const out: SwaggerParts = {
    paths: { ...dest.paths },
    definitions: { ...dest.definitions },
    parameters: { ...dest.parameters },
  };
  for (const [name, as] of defPlan.add) out.definitions[as] = rewriteRefs(definitions[name], renames);
  for (const [name, as] of paramPlan.add) out.parameters[as] = rewriteRefs(parameters[name], renames);
  for (const p of kept) out.paths[p] = rewriteRefs(sourcePaths[p], renames);
  return out;
}
