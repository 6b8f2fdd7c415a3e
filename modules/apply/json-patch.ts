/**
 * JSON Patch (RFC 6902) with kube's observable behaviour (kube-apiserver v1.32 runs evanphx/json-patch v4):
 * - a body that is not a list of objects is a 400 with encoding/json's text
 *   (`json: cannot unmarshal object into Go value of type jsonpatch.Patch`); `null` is an empty patch;
 * - more than 10000 operations is a 413;
 * - any operation that cannot be applied is the generic 422 (see PatchRejectedError), the library's reason
 *   kept in `detail`;
 * - library leniencies kube inherits: `replace` of a missing object member adds it, `copy` of a missing
 *   member writes null, a missing `value` means null, negative array indexes count from the end, `replace`
 *   of the root with a scalar changes nothing.
 */
import { ApiError } from '../api/index.js';
import { addAt, findTarget, readTarget, removeAt, setAt } from './json-pointer.js';
import {
  deepClone,
  deepEqual,
  get,
  guardDepth,
  has,
  isObject,
  jsonSize,
  type JsonObject,
} from './json-value.js';
import { PatchRejectedError } from './patch-errors.js';

/** kube's cap on operations in one JSON patch */
export const maxJsonPatchOperations = 10000;

/** kube's default JSONPatchMaxCopyBytes: how much `copy` operations may grow a document */
export const defaultMaxCopyBytes = 3 * 1024 * 1024;

export interface JsonPatchOptions {
  maxCopyBytes?: number;
}

/** encoding/json's name for the JSON type of a value that did not fit the Go type. */
export function jsonTypeName(value: unknown): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'bool';
  return Array.isArray(value) ? 'array' : 'object';
}

/** The operations of a patch body, as the library decodes them (400 when the shape is wrong). */
function decodeOperations(body: unknown): JsonObject[] {
  if (body === null || body === undefined) return [];
  if (!Array.isArray(body)) {
    throw ApiError.badRequest(
      `json: cannot unmarshal ${jsonTypeName(body)} into Go value of type jsonpatch.Patch`,
    );
  }
  for (const op of body) {
    if (op !== null && !isObject(op)) {
      throw ApiError.badRequest(
        `json: cannot unmarshal ${jsonTypeName(op)} into Go value of type jsonpatch.Operation`,
      );
    }
  }
  if (body.length > maxJsonPatchOperations) {
    throw ApiError.tooLarge(
      `Request entity too large: The allowed maximum operations in a JSON patch is ${maxJsonPatchOperations}, got ${body.length}`,
    );
  }
  return body.map((op) => (op === null ? {} : (op as JsonObject)));
}

class OpFailure extends Error {}

const fail = (message: string): never => {
  throw new OpFailure(message);
};

/** A string member of an operation (`path`, `from`), or the library's reason it has none. */
function member(op: JsonObject, name: 'path' | 'from'): string | { error: string } {
  const value = get(op, name);
  if (value === null || value === undefined) {
    return {
      error:
        name === 'path'
          ? 'operation missing path field: missing value'
          : 'operation, missing from field: missing value',
    };
  }
  if (typeof value !== 'string') {
    return { error: `json: cannot unmarshal ${jsonTypeName(value)} into Go value of type string` };
  }
  return value;
}

function pathOf(op: JsonObject, kind: string, keepCause: boolean): string {
  const path = member(op, 'path');
  if (typeof path === 'string') return path;
  return fail(`${kind} operation failed to decode path: ${keepCause ? path.error : 'missing value'}`);
}

function fromOf(op: JsonObject, kind: string): string {
  const from = member(op, 'from');
  return typeof from === 'string' ? from : fail(`${kind} operation failed to decode from: ${from.error}`);
}

function valueOf(op: JsonObject): unknown {
  return has(op, 'value') ? op.value : null;
}

class Patcher {
  private copied = 0;

  constructor(
    public doc: unknown,
    private readonly maxCopyBytes: number,
  ) {}

  apply(op: JsonObject): void {
    const kind = typeof get(op, 'op') === 'string' ? (op.op as string) : 'unknown';
    switch (kind) {
      case 'add':
        return this.add(op);
      case 'remove':
        return this.remove(op);
      case 'replace':
        return this.replace(op);
      case 'move':
        return this.move(op);
      case 'test':
        return this.test(op);
      case 'copy':
        return this.copy(op);
      default:
        fail(`Unexpected kind: ${kind}`);
    }
  }

  private add(op: JsonObject): void {
    const path = pathOf(op, 'add', false);
    const t =
      findTarget(this.doc, path) ??
      fail(`add operation does not apply: doc is missing path: "${path}": missing value`);
    const err = addAt(t, valueOf(op));
    if (err) fail(`error in add for path: '${path}': ${err}`);
  }

  private remove(op: JsonObject): void {
    const path = pathOf(op, 'remove', false);
    const t =
      findTarget(this.doc, path) ??
      fail(`remove operation does not apply: doc is missing path: "${path}": missing value`);
    const err = removeAt(t);
    if (err) fail(`error in remove for path: '${path}': ${err}`);
  }

  private replace(op: JsonObject): void {
    const path = pathOf(op, 'replace', true);
    if (path === '') {
      // The library swaps in an object or array and silently ignores anything else.
      if (!has(op, 'value')) fail('replace operation value must be object or array');
      if (isObject(op.value) || Array.isArray(op.value)) this.doc = op.value;
      return;
    }
    const t =
      findTarget(this.doc, path) ??
      fail(`replace operation does not apply: doc is missing path: ${path}: missing value`);
    if ('error' in readTarget(t))
      fail(`replace operation does not apply: doc is missing key: ${path}: missing value`);
    const err = setAt(t, valueOf(op));
    if (err) fail(`error in remove for path: '${path}': ${err}`);
  }

  private move(op: JsonObject): void {
    const from = fromOf(op, 'move');
    const source =
      findTarget(this.doc, from) ??
      fail(`move operation does not apply: doc is missing from path: ${from}: missing value`);
    const read = readTarget(source);
    if ('error' in read) fail(`error in move for path: '${source.key}': ${read.error}`);
    const removed = removeAt(source);
    if (removed) fail(`error in move for path: '${source.key}': ${removed}`);
    const path = pathOf(op, 'move', true);
    const t =
      findTarget(this.doc, path) ??
      fail(`move operation does not apply: doc is missing destination path: ${path}: missing value`);
    const err = addAt(t, 'value' in read ? (read.value ?? null) : null);
    if (err) fail(`error in move for path: '${path}': ${err}`);
  }

  private test(op: JsonObject): void {
    const path = pathOf(op, 'test', true);
    const failed = () => fail(`testing value ${path} failed: test failed`);
    if (path === '') {
      if (!has(op, 'value') || !deepEqual(this.doc, op.value)) failed();
      return;
    }
    const t =
      findTarget(this.doc, path) ??
      fail(`test operation does not apply: is missing path: ${path}: missing value`);
    const read = readTarget(t);
    if ('error' in read) return fail(`error in test for path: '${path}': ${read.error}`);
    if (!has(op, 'value')) return failed();
    // A missing member and a null one read the same: both pass only a test for null.
    const actual = read.value ?? null;
    if (!deepEqual(actual, op.value)) failed();
  }

  private copy(op: JsonObject): void {
    const from = fromOf(op, 'copy');
    const source =
      findTarget(this.doc, from) ??
      fail(`copy operation does not apply: doc is missing from path: ${from}: missing value`);
    const read = readTarget(source);
    if ('error' in read) return fail(`error in copy for from: '${from}': ${read.error}`);
    const path = pathOf(op, 'copy', false);
    const t =
      findTarget(this.doc, path) ??
      fail(`copy operation does not apply: doc is missing destination path: ${path}: missing value`);
    const value = deepClone(read.value ?? null);
    this.copied += value === null ? 0 : jsonSize(value);
    if (this.maxCopyBytes > 0 && this.copied > this.maxCopyBytes) {
      fail(
        `Unable to complete the copy, the accumulated size increase of copy is ${this.copied}, exceeding the limit ${this.maxCopyBytes}`,
      );
    }
    const err = addAt(t, value);
    if (err) fail(`error while adding value during copy: ${err}`);
  }
}

/** Applies a JSON patch body (parsed JSON) to `doc`; `doc` and the body are left untouched. */
export function applyJsonPatch(doc: unknown, patchBody: unknown, options: JsonPatchOptions = {}): unknown {
  return guardDepth(() => {
    const ops = decodeOperations(patchBody);
    const patcher = new Patcher(deepClone(doc), options.maxCopyBytes ?? defaultMaxCopyBytes);
    for (let index = 0; index < ops.length; index++) {
      const op = ops[index];
      try {
        patcher.apply(deepClone(op));
      } catch (err) {
        if (err instanceof OpFailure) {
          const kind = typeof op.op === 'string' ? op.op : 'unknown';
          throw new PatchRejectedError(err.message, { index, kind });
        }
        throw err;
      }
    }
    return patcher.doc;
  });
}
