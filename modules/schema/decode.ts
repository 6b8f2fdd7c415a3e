/**
 * Schema-driven decoding of a parsed request body, standing in for kube's typed Go decoding: fields the
 * schema does not declare are dropped and reported (`spec.foo`, `spec.containers[0].bar`, `data.key`),
 * null means unset, and a JSON value of the wrong type is a 400 with encoding/json's text, e.g.
 * `json: cannot unmarshal number into Go struct field ConfigMap.data of type string`.
 *
 * The value is changed in place (it is a freshly parsed body) and returned. Custom resources decode
 * untyped in kube, so `typed: false` only prunes and leaves wrong types to schema validation;
 * `customResource: true` adds the rest of kube's decoding of a custom resource (see DecodeOptions).
 */
import { isPlainObject, objectMetaSchema } from '../api/index.js';
import { ApiError } from '../api/index.js';
import type { Schema } from '../api/index.js';
import { compileSchema, goType, NodeKind, type Node } from './compile.js';
import { base64Valid, checkBase64, parseGoTime, quantityError } from './formats.js';
import { errorValueText } from './go-values.js';
import { dropEmptyMetaFields } from './object-meta.js';

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
  /**
   * Decode as kube decodes a custom resource (implies `typed: false`): the root is a resource (apiVersion,
   * kind and metadata kept whatever the schema says), and the metadata of the root and of every
   * `x-kubernetes-embedded-resource` is decoded as an ObjectMeta: a wrong type there is a 400 with Go's
   * text, unknown metadata fields are dropped and reported, empty fields are left out as Go writes them.
   * A null map value that may not be null and has no default is dropped. Unknown field paths come in kube's
   * order: the root metadata's, then the others sorted, then those of embedded metadata, sorted.
   */
  customResource?: boolean;
  /** with customResource: whether the root is a resource (default true; false for a default's value) */
  resourceRoot?: boolean;
  /** with customResource: leave metadata as it is (kube's pruning alone, as CRD validation prunes defaults) */
  keepMetadata?: boolean;
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
  /** customResource: the unknown fields of the root metadata and of embedded metadata, kept apart */
  private resource = false;
  private resourceRoot = false;
  private keepMetadata = false;
  private rootMetaUnknown: string[] = [];
  /** the next value is an item of a list whose unknown fields kube keeps (see walkArray) */
  private skipItem = false;
  private embeddedMetaUnknown: string[] = [];

  run(value: unknown, schema: Schema, options: DecodeOptions): DecodeResult {
    this.seg.length = 0;
    this.goStack.length = 0;
    this.unknown = undefined;
    this.resource = options.customResource === true;
    this.resourceRoot = this.resource && options.resourceRoot !== false;
    this.keepMetadata = options.keepMetadata === true;
    this.rootMetaUnknown = [];
    this.embeddedMetaUnknown = [];
    this.typed = options.typed !== false && !this.resource;
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
    if (!this.resource) return { object, unknownFields: this.unknown ?? [] };
    // kube sorts what pruning found and lists the root metadata's first
    const pruned = (this.unknown ?? []).sort();
    const all = this.rootMetaUnknown.concat(pruned, this.embeddedMetaUnknown.sort());
    return { object, unknownFields: all.slice(0, maxReported) };
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

  /** The current value's path in kube's notation: `spec.items[0].name`. */
  private path(): string {
    let path = '';
    const seg = this.seg;
    for (let i = 0; i < seg.length; i++) {
      const s = seg[i];
      if (typeof s === 'number') path += `[${s}]`;
      else path += path === '' ? s : `.${s}`;
    }
    return path;
  }

  private report(key: string): void {
    const list = (this.unknown ??= []);
    // a custom resource's paths are sorted before they are cut
    if (list.length >= maxReported && !this.resource) return;
    const path = this.path();
    list.push(path === '' ? key : `${path}.${key}`);
  }

  /**
   * apiVersion, kind and metadata of a resource in a custom resource, as kube's decoding coerces them: the
   * embedded ones must be strings, metadata decodes as an ObjectMeta.
   */
  private resourceField(obj: Record<string, unknown>, key: string, root: boolean): void {
    const value = obj[key];
    const path = this.path();
    const field = path === '' ? key : `${path}.${key}`;
    if (key !== 'metadata') {
      if (!root && typeof value !== 'string')
        this.fail(`${field}: Invalid value: ${errorValueText(value)}: must be a string`);
      return;
    }
    if (this.keepMetadata) return;
    if (value === null) {
      obj[key] = {};
      return;
    }
    let decoded: DecodeResult;
    try {
      decoded = new Decoder().run(value, objectMetaSchema, { kind: 'ObjectMeta' });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (root) this.fail(e.message);
      this.fail(`${field}: Invalid value: ${errorValueText(value)}: ${e.message}`);
    }
    const unknown = root ? this.rootMetaUnknown : this.embeddedMetaUnknown;
    for (const p of decoded.unknownFields) unknown.push(`${field}.${p}`);
    dropEmptyMetaFields(decoded.object as Record<string, unknown>);
  }

  /** Returns the value to store (a canonical form when kube would rewrite it). */
  private walk(v: unknown, node: Node, root = false): unknown {
    const skip = this.skipItem;
    this.skipItem = false;
    switch (node.kind) {
      case NodeKind.Any:
        // an opaque resource still has its metadata decoded
        if (this.resource && (node.embedded || (root && this.resourceRoot)) && isPlainObject(v)) {
          this.walkObject(v, node, root, skip);
          return v;
        }
        this.checkFreeForm(v);
        return v;
      case NodeKind.Object:
        if (isPlainObject(v)) this.walkObject(v, node, root, skip);
        else if (this.typed) this.typeError(jsonType(v), goType(node));
        return v;
      case NodeKind.Array:
        if (Array.isArray(v)) this.walkArray(v, node, skip);
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

  private walkObject(obj: Record<string, unknown>, node: Node, root: boolean, skip = false): void {
    const props = node.props;
    const additional = node.additional;
    const savedStruct = this.struct;
    const own = node.structName ?? (root ? this.rootStruct : savedStruct);
    const resource = this.resource && (node.embedded || (root && this.resourceRoot));
    for (const key in obj) {
      const value = obj[key];
      if (resource && embeddedFields.has(key)) {
        this.resourceField(obj, key, root);
        continue;
      }
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
          else if (this.resource && !additional.nullable && !hasDefault(additional.schema)) delete obj[key];
          continue;
        }
        this.seg.push(key);
        const out = this.walk(value, additional);
        if (out !== value) obj[key] = out;
        this.seg.pop();
        continue;
      }
      if (node.keepUnknown || skip || (node.embedded && embeddedFields.has(key))) {
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

  /**
   * kube keeps unknown fields in the items of a list marked preserve-unknown-fields, and in the items of
   * lists in those, whatever the items' schema says (its pruning skips down through lists).
   */
  private walkArray(arr: unknown[], node: Node, skip = false): void {
    const skipItems = this.resource && (node.keepUnknown || skip);
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
      this.skipItem = skipItems;
      const out = this.walk(value, items);
      if (out !== value) arr[i] = out;
      this.seg.pop();
    }
  }
}

function hasDefault(schema: Schema): boolean {
  return schema.default !== undefined && schema.default !== null;
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
