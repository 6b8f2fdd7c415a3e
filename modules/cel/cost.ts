// kube's CEL cost model: what each step of an evaluation costs (cel-go's runtime cost tracker with kube's
// library estimator), the runtime budget, and the worst-case estimate made at compile time from the size
// limits (maxLength, maxItems, maxProperties) declared for the variables.
import { CelCIDR } from './library/ip.js';
import { sizeOf } from './values.js';

export const costFactors = {
  selectAndIdent: 1,
  listCreate: 10,
  mapCreate: 30,
  stringTraversal: 0.1,
  regexStringLength: 0.25,
  authorizationCheck: 350_000,
} as const;

/** kube's per-call runtime limit (celconfig.PerCallLimit). */
export const perCallLimit = 1_000_000;
/** kube's runtime budget for all the rules of one custom resource (apiextensions RuntimeCELCostBudget). */
export const runtimeCELCostBudget = 10_000_000;
/** kube's limit on one expression's estimated cost (apiextensions StaticEstimatedCostLimit). */
export const staticEstimatedCostLimit = 10_000_000;
/** kube's limit on the sum of a CRD's estimated costs (StaticEstimatedCRDCostLimit). */
export const staticEstimatedCRDCostLimit = 100_000_000;
/** kube's request size bound, from which unbounded strings, lists and maps get their worst-case sizes. */
export const maxRequestSizeBytes = 3 * 1024 * 1024;

export const costLimitExceededMessage = 'operation cancelled: actual cost limit exceeded';

/** kube's message for an estimate over its limit (`description` e.g. "estimated rule cost"). */
export function costErrorMessage(description: string, cost: number, limit: number): string {
  const factor = cost / limit;
  const shown =
    factor > 100 ? 'more than 100x' : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`;
  return `${description} exceeds budget by factor of ${shown} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

const ceil = (x: number) => Math.ceil(x);
const strCost = (v: unknown) => ceil(sizeOf(v) * costFactors.stringTraversal);
const regexCost = (s: unknown, re: unknown) =>
  ceil((1 + sizeOf(s)) * costFactors.stringTraversal) * ceil(sizeOf(re) * costFactors.regexStringLength);

/** kube's traversalCost: strings and bytes by length / 10 (truncated), containers by their elements. */
export function traversalCost(v: unknown): number {
  if (typeof v === 'string') return Math.floor(Buffer.byteLength(v) * costFactors.stringTraversal);
  if (v instanceof Uint8Array) return Math.floor(v.length * costFactors.stringTraversal);
  if (Array.isArray(v)) return v.reduce<number>((n, x) => n + traversalCost(x), 0);
  if (v instanceof Map) {
    let n = 0;
    for (const [k, x] of v) n += traversalCost(k) + traversalCost(x);
    return n;
  }
  if (v !== null && typeof v === 'object' && v.constructor === Object) {
    return Object.entries(v).reduce((n, [k, x]) => n + traversalCost(k) + traversalCost(x), 0);
  }
  return 1;
}

/** functions kube's cost model charges 1 whatever their arguments (the estimate uses the same list) */
export const nominal = new Set([
  'serviceAccount',
  'path',
  'group',
  'resource',
  'subresource',
  'namespace',
  'name',
  'allowed',
  'reason',
  'error',
  'errored',
  'masked',
  'prefixLength',
  'family',
  'isUnspecified',
  'isLoopback',
  'isLinkLocalMulticast',
  'isLinkLocalUnicast',
  'sign',
  'asInteger',
  'isInteger',
  'asApproximateFloat',
  'isGreaterThan',
  'isLessThan',
  'compareTo',
  'add',
  'sub',
]);

/** The runtime cost of one call: kube's estimator first, then cel-go's defaults (1 for anything else). */
export function callCost(fn: string, args: unknown[], result: unknown): number {
  if (nominal.has(fn)) return 1;
  switch (fn) {
    case 'check':
      return costFactors.authorizationCheck;
    case 'isSorted':
    case 'sum':
    case 'max':
    case 'min':
    case 'indexOf':
    case 'lastIndexOf':
      return traversalCost(args[0]);
    case 'url':
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
    case 'cidr':
    case 'isIP':
    case 'isCIDR':
    case 'quantity':
    case 'isQuantity':
    case 'startsWith':
    case 'endsWith':
      return strCost(args[0]);
    case 'replace':
    case 'split':
      return ceil(sizeOf(args[0]) * 2 * costFactors.stringTraversal);
    case 'join':
      return ceil(sizeOf(result) * 2 * costFactors.stringTraversal);
    case 'find':
    case 'findAll':
    case 'matches':
      return regexCost(args[0], args[1]);
    case 'ip':
      return args[0] instanceof CelCIDR ? 1 : strCost(args[0]);
    case 'ip.isCanonical':
      return ceil(sizeOf(args[0]) * 2 * costFactors.stringTraversal);
    case 'containsIP':
    case 'containsCIDR': {
      const cidr = sizeOf(args[0]);
      let cost = ceil((cidr + cidr) * costFactors.stringTraversal);
      if (fn === 'containsCIDR') cost += ceil(cidr * costFactors.stringTraversal) + 1;
      if (typeof args[1] === 'string') cost += strCost(args[1]);
      return cost;
    }
    case 'contains':
      return typeof args[0] === 'string' ? strCost(args[0]) * strCost(args[1]) : 1;
    // cel-go's sets extension compares every pair of elements (equivalent: both ways), on top of the call
    case 'sets.contains':
    case 'sets.intersects':
      return 1 + sizeOf(args[0]) * sizeOf(args[1]);
    case 'sets.equivalent':
      return 1 + 2 * sizeOf(args[0]) * sizeOf(args[1]);
    case 'string':
    case 'bytes':
      return typeof args[0] === 'string' || args[0] instanceof Uint8Array ? strCost(args[0]) : 1;
    default:
      return 1;
  }
}

/** The cost of an operator applied to its operand values (cel-go's overload costs). */
export function operatorCost(op: string, l: unknown, r: unknown): number {
  switch (op) {
    case '==':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=':
      return ceil(Math.min(sizeOf(l), sizeOf(r)) * costFactors.stringTraversal);
    case '+':
      if (typeof l === 'string' || l instanceof Uint8Array)
        return ceil((sizeOf(l) + sizeOf(r)) * costFactors.stringTraversal);
      return 1;
    case 'in':
      return Array.isArray(r) ? r.length : 1;
    default:
      return 1;
  }
}
