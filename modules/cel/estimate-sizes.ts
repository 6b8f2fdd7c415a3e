// The sizes kube's cost estimate reasons with: declared bounds of the variables' schemas, else the largest
// request kube accepts, and the arithmetic of cel-go's cost estimates (saturating at the largest uint64).
import { maxRequestSizeBytes } from './cost.js';

/** The part of an OpenAPI v3 schema that bounds sizes. */
export interface SizeSchema {
  type?: string;
  maxLength?: number;
  minLength?: number;
  maxItems?: number;
  maxProperties?: number;
  /** kube's DeclType bound (bytes of a string, entries of a list or map, 0 for numbers), used as given */
  maxElements?: number;
  items?: SizeSchema;
  properties?: Record<string, SizeSchema>;
  additionalProperties?: SizeSchema | boolean;
}

export interface CostEstimate {
  min: number;
  max: number;
}

/**
 * The keys of a map with a schema: kube's DeclType gives them its plain string type, whose size bound is 0, so
 * its estimate charges nothing for their length.
 */
export const mapKey: SizeSchema = { type: 'string', maxLength: 0 };

/** cel-go's "unknown size": the largest uint64. */
export const unbounded = 2 ** 64 - 1;
export const sat = (x: number) => Math.min(x, unbounded);
export const est = (min: number, max = min): CostEstimate => ({ min: sat(min), max: sat(max) });
export const add = (a: CostEstimate, b: CostEstimate) => est(a.min + b.min, a.max + b.max);
export const mul = (a: CostEstimate, b: CostEstimate) => est(a.min * b.min, a.max * b.max);
export const factor = (a: CostEstimate, f: number) => est(Math.ceil(a.min * f), Math.ceil(a.max * f));
export const zero = est(0);
export const one = est(1);

/** kube's smallest JSON encoding of a value of the schema, which bounds how many fit in a request. */
export function minSizeJSON(s: SizeSchema | undefined): number {
  switch (s?.type) {
    case 'boolean':
      return 4;
    case 'number':
    case 'integer':
      return 1;
    case 'string':
      return (s.minLength ?? 0) + 2;
    default:
      return 2;
  }
}

export function schemaSize(s: SizeSchema): CostEstimate | undefined {
  if (s.maxElements !== undefined) return est(0, s.maxElements);
  switch (s.type) {
    case 'string':
      return est(0, s.maxLength ?? maxRequestSizeBytes - 2);
    case 'array':
      return est(0, s.maxItems ?? Math.floor((maxRequestSizeBytes - 2) / (minSizeJSON(s.items) + 1)));
    case 'object': {
      const values = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
      return est(0, s.maxProperties ?? Math.floor((maxRequestSizeBytes - 2) / (minSizeJSON(values) + 6)));
    }
    case 'integer':
    case 'number':
    case 'boolean':
      return one;
    default:
      return undefined;
  }
}

export interface Info {
  cost: CostEstimate;
  size?: CostEstimate;
  schema?: SizeSchema;
}

export interface Node {
  op: string;
  args: unknown;
  meta: { alternate?: unknown; macro?: unknown };
  checkedType?: { name: string };
}

export const scalar =
  /^(int|uint|double|bool|null_type|type|google\.protobuf\.(Duration|Timestamp)|kubernetes\..*|net\..*)$/;

export function sizeOfInfo(info: Info, node: Node): CostEstimate {
  if (info.size) return info.size;
  const fromSchema = info.schema && schemaSize(info.schema);
  if (fromSchema) return fromSchema;
  if (scalar.test(node.checkedType?.name ?? '')) return one;
  return est(0, unbounded);
}

export type Scope = ReadonlyMap<string, Info>;

export const elementType = (n: Node) => /^list<(.*)>$/.exec(n.checkedType?.name ?? '')?.[1] ?? '';
