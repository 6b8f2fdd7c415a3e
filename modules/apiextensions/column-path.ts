/**
 * The first value a printer column's JSONPath finds in an object, or undefined.
 * Simple `.a.b` paths for now: the full JSONPath evaluator replaces this (modules/api/jsonpath.ts).
 */
export function firstMatch(path: string): (obj: unknown) => unknown {
  const parts = path
    .replace(/^\{|\}$/g, '')
    .split('.')
    .filter(Boolean);
  return (obj) => {
    let cur: unknown = obj;
    for (const part of parts) {
      if (cur === null || typeof cur !== 'object') return undefined;
      cur = (cur as Record<string, unknown>)[part];
    }
    return cur;
  };
}
