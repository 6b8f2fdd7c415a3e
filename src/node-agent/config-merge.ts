/**
 * The `--config-dir` merge (spec part2 "Node-agent configuration merge"): each drop-in is laid over the
 * configuration so far as the kubelet does it, an RFC 7386 JSON merge patch of the drop-in's JSON onto the
 * configuration's. That one operation gives the spec's three rules: objects (embedded structures and maps alike)
 * merge key by key, so a drop-in overrides only the fields it names; a list is a value like any scalar, so it is
 * replaced whole, also when it is the value of a map key (map[string][]string); a `null` removes the field, which
 * then takes its default again.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(v: Json | undefined): v is { [key: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `patch` laid over `base`; neither is changed. */
export function mergeConfig(base: Json, patch: Json): Json {
  if (!isObject(patch)) return patch;
  // own data properties only: a key `__proto__` in a file is a field like any other, never the prototype
  const merged: { [key: string]: Json } = Object.fromEntries(isObject(base) ? Object.entries(base) : []);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else
      Object.defineProperty(merged, key, {
        value: mergeConfig(Object.hasOwn(merged, key) ? merged[key] : null, value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return merged;
}
