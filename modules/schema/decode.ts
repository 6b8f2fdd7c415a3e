/**
 * Schema-driven decoding of a parsed request body, standing in for kube's typed Go decoding: fields the
 * schema does not declare are dropped and reported (`spec.foo`, `spec.containers[0].bar`, `data.key`),
 * null means unset, and a JSON value of the wrong type is a 400 with encoding/json's text, e.g.
 * `json: cannot unmarshal number into Go struct field ConfigMap.data of type string`.
 *
 * The value is changed in place (it is a freshly parsed body) and returned. Custom resources decode
 * untyped in kube, so `typed: false` only prunes and leaves wrong types to schema validation.
 */
import { isPlainObject } from '../api/index.js';
import { ApiError } from '../api/index.js';
import type { Schema } from '../api/index.js';
import { compileSchema, goType, NodeKind, type Node } from './compile.js';
import { base64Valid, checkBase64, parseGoTime, quantityError } from './formats.js';

export interface DecodeOptions {
  /** the kind's name: the Go struct named in errors about its top-level fields */
  kind: string;
  /**
   * The version part of the body's apiVersion (e.g. `v1`). When given, errors carry the prefix kube's
   * handler adds: `<Kind> in version "<version>" cannot be handled as a <Kind>: `.
   */
  version?: string;
  /** false for custom resources (pruning only); default true */
  typed?: boolean;
}

export interface DecodeResult {
  object: unknown;
  /** paths of the dropped fields, in kube's notation, at most 100 (kube's cap on strict errors) */
  unknownFields: string[];
}

const maxReported = 100;

/** The prefix kube's create/update handlers put before a decoding error. */
export function decodeErrorPrefix(kind: string, version: string): string {
  return `${kind} in version "${version}" cannot be handled as a ${kind}: `;
}

function jsonType(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
  }
  return Array.isArray(v) ? 'array' : 'object';
}

/** Go prints the offending number as the JSON text; JavaScript's shortest form is the closest we have. */
function numberText(n: number): string {
  return `number ${String(n)}`;
}

function isInt32(v: number): boolean {
  return Number.isInteger(v) && v >= -2147483648 && v <= 2147483647;
}

/** What Go leaves in a slice element or map value decoded from null. */
function zeroOf(node: Node | undefined): unknown {
  if (!node) return null;
  switch (node.kind) {
    case NodeKind.String:
      return '';
    case NodeKind.Integer:
    case NodeKind.Number:
    case NodeKind.IntOrString:
      return 0;
    case NodeKind.Boolean:
      return false;
    case NodeKind.Quantity:
      return '0';
    case NodeKind.Object:
      return node.props && !node.additional ? {} : null;
  }
  return null;
}

const embeddedFields = new Set(['apiVersion', 'kind', 'metadata']);

/** How deep a stored object may nest (kube's decoders allow 10000; V8's JSON.stringify fails before). */
export const maxNesting = 1000;

/** Whether `v` nests more than `budget` levels of objects and arrays (stops looking at the budget). */
function deeperThan(v: unknown, budget: number): boolean {
  if (v === null || typeof v !== 'object') return false;
  if (budget <= 0) return true;
  if (Array.isArray(v)) {
    for (const item of v) if (deeperThan(item, budget - 1)) return true;
    return false;
  }
  const obj = v as Record<string, unknown>;
  for (const key in obj) if (deeperThan(obj[key], budget - 1)) return true;
  return false;
}

class Decoder {
  /** path to the current value: property / map keys and array indexes */
  private seg: (string | number)[] = [];
  /** Go's error context: struct field names only, and the struct holding the last one */
  private goStack: string[] = [];
  private struct = '';
  private unknown: string[] | undefined;
  private typed = true;
  private prefix = '';
  private rootStruct = '';

  run(value: unknown, schema: Schema, options: DecodeOptions): DecodeResult {
    this.seg.length = 0;
    this.goStack.length = 0;
    this.unknown = undefined;
    this.typed = options.typed !== false;
    this.prefix = options.version === undefined ? '' : decodeErrorPrefix(options.kind, options.version);
    this.rootStruct = options.kind;
    this.struct = '';
    const root = compileSchema(schema);
    let object = value;
    if (root.kind === NodeKind.Object && !isPlainObject(value) && this.typed) {
      const type = schema['x-pgkube-ref'] ? goType(root) : `${options.version ?? 'v1'}.${options.kind}`;
      this.fail(`json: cannot unmarshal ${jsonType(value)} into Go value of type ${type}`);
    }
    if (value !== null && value !== undefined) object = this.walk(value, root, true);
    return { object, unknownFields: this.unknown ?? [] };
  }

  private fail(message: string): never {
    throw ApiError.badRequest(this.prefix + message);
  }

  private typeError(value: string, type: string): never {
    if (this.goStack.length === 0) this.fail(`json: cannot unmarshal ${value} into Go value of type ${type}`);
    this.fail(
      `json: cannot unmarshal ${value} into Go struct field ${this.struct}.${this.goStack.join('.')} of type ${type}`,
    );
  }

  private report(key: string): void {
    const list = (this.unknown ??= []);
    if (list.length >= maxReported) return;
    let path = '';
    const seg = this.seg;
    for (let i = 0; i < seg.length; i++) {
      const s = seg[i];
      if (typeof s === 'number') path += `[${s}]`;
      else path += path === '' ? s : `.${s}`;
    }
    list.push(path === '' ? key : `${path}.${key}`);
  }

  /** Returns the value to store (a canonical form when kube would rewrite it). */
  private walk(v: unknown, node: Node, root = false): unknown {
    switch (node.kind) {
      case NodeKind.Any:
        this.checkFreeForm(v);
        return v;
      case NodeKind.Object:
        if (isPlainObject(v)) this.walkObject(v, node, root);
        else if (this.typed) this.typeError(jsonType(v), goType(node));
        return v;
      case NodeKind.Array:
        if (Array.isArray(v)) this.walkArray(v, node);
        else if (this.typed) this.typeError(jsonType(v), goType(node));
        return v;
    }
    if (!this.typed) return v;
    switch (node.kind) {
      case NodeKind.String:
        if (typeof v !== 'string') this.typeError(jsonType(v), goType(node));
        return v;
      case NodeKind.Integer:
        if (typeof v !== 'number') this.typeError(jsonType(v), goType(node));
        if (!Number.isInteger(v) || v < node.min || v >= node.limit)
          this.typeError(numberText(v), goType(node));
        return v;
      case NodeKind.Number:
        if (typeof v !== 'number') this.typeError(jsonType(v), goType(node));
        return v;
      case NodeKind.Boolean:
        if (typeof v !== 'boolean') this.typeError(jsonType(v), 'bool');
        return v;
      case NodeKind.IntOrString:
        // IntOrString decodes anything but a JSON string into its int32 half
        if (typeof v === 'string') return v;
        if (typeof v !== 'number') this.typeError(jsonType(v), 'int32');
        if (!isInt32(v)) this.typeError(numberText(v), 'int32');
        return v;
      case NodeKind.Quantity: {
        const text = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : JSON.stringify(v);
        const problem = quantityError(text);
        if (problem) this.fail(problem);
        return v;
      }
      case NodeKind.Bytes: {
        if (typeof v !== 'string') this.typeError(jsonType(v), '[]uint8');
        const at = checkBase64(v);
        if (at >= 0) this.fail(`illegal base64 data at input byte ${at}`);
        return at === base64Valid ? Buffer.from(v, 'base64').toString('base64') : v;
      }
      case NodeKind.Time:
      case NodeKind.MicroTime: {
        if (typeof v !== 'string') this.typeError(jsonType(v), 'string');
        const parsed = parseGoTime(v, node.kind === NodeKind.MicroTime);
        if (!parsed.ok) this.fail(parsed.error);
        return parsed.canonical;
      }
    }
    return v;
  }

  private walkObject(obj: Record<string, unknown>, node: Node, root: boolean): void {
    const props = node.props;
    const additional = node.additional;
    const savedStruct = this.struct;
    const own = node.structName ?? (root ? this.rootStruct : savedStruct);
    for (const key in obj) {
      const value = obj[key];
      const child = props?.get(key);
      if (child !== undefined) {
        if (value === null) {
          if (!child.nullable) delete obj[key];
          continue;
        }
        this.seg.push(key);
        this.goStack.push(key);
        this.struct = own;
        const out = this.walk(value, child);
        if (out !== value) obj[key] = out;
        this.goStack.pop();
        this.seg.pop();
        continue;
      }
      if (additional !== undefined) {
        if (value === null) {
          if (this.typed) obj[key] = zeroOf(additional);
          continue;
        }
        this.seg.push(key);
        const out = this.walk(value, additional);
        if (out !== value) obj[key] = out;
        this.seg.pop();
        continue;
      }
      if (node.keepUnknown || (node.embedded && embeddedFields.has(key))) {
        this.seg.push(key);
        this.checkFreeForm(value);
        this.seg.pop();
        continue;
      }
      this.report(key);
      delete obj[key];
    }
    this.struct = savedStruct;
  }

  /**
   * A value no schema describes (preserve-unknown-fields, free-form) is kept as sent: it may not nest deeper
   * than the server can copy and store (V8's recursion gives out in the low thousands).
   */
  private checkFreeForm(v: unknown): void {
    if (v !== null && typeof v === 'object' && deeperThan(v, maxNesting - this.seg.length))
      this.fail('json: exceeded max depth');
  }

  private walkArray(arr: unknown[], node: Node): void {
    const items = node.items;
    if (items === undefined) {
      this.checkFreeForm(arr);
      return;
    }
    for (let i = 0; i < arr.length; i++) {
      const value = arr[i];
      if (value === null) {
        if (this.typed) arr[i] = zeroOf(items);
        continue;
      }
      this.seg.push(i);
      const out = this.walk(value, items);
      if (out !== value) arr[i] = out;
      this.seg.pop();
    }
  }
}

const shared = new Decoder();

/**
 * Decodes `value` (a parsed JSON/YAML body) against the kind's schema: prunes and reports unknown fields,
 * removes nulls of non-nullable fields, canonicalizes base64 and timestamps as kube re-serializes them,
 * and throws a 400 for the first wrong type or malformed value.
 */
export function decodeObject(value: unknown, schema: Schema, options: DecodeOptions): DecodeResult {
  return shared.run(value, schema, options);
}
