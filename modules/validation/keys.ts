/**
 * ConfigMap and Secret payload rules: key format, keys shared between data and binaryData, the 1 MiB limit
 * and the `immutable` flag. Stored objects keep Secret `data` and ConfigMap `binaryData` as base64 strings;
 * sizes count decoded bytes, as kube counts the []byte values.
 */
import { fieldError, type FieldError } from '../api/index.js';
import { isPlainObject } from '../api/index.js';
import { dns1123SubdomainMaxLength, maxLenError, regexError } from './names.js';

/** kube's MaxSecretSize, shared by ConfigMaps */
export const maxSecretSize = 1 * 1024 * 1024;

export const immutableFieldMsg = 'field is immutable when `immutable` is set';

const configMapKeyFmt = '[-._a-zA-Z0-9]+';
const configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const configMapKeyRegexp = /^[-._a-zA-Z0-9]+$/;

export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (Buffer.byteLength(value) > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength));
  if (!configMapKeyRegexp.test(value)) {
    errs.push(regexError(configMapKeyErrMsg, configMapKeyFmt, 'key.name', 'KEY_NAME', 'key-name'));
  }
  // keys become file names in volumes
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/** Bytes a base64 value decodes to (padding-aware, without decoding). */
export function base64DecodedLength(value: unknown): number {
  return typeof value === 'string' ? Buffer.byteLength(value, 'base64') : 0;
}

export function base64Decode(value: unknown): Buffer {
  return typeof value === 'string' ? Buffer.from(value, 'base64') : Buffer.alloc(0);
}

const entries = (v: unknown): [string, unknown][] => (isPlainObject(v) ? Object.entries(v) : []);

/** ConfigMap `data` (text) and `binaryData` (base64) together. */
export function validateConfigMapPayload(data: unknown, binaryData: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const binary = isPlainObject(binaryData) ? binaryData : {};
  let total = 0;
  for (const [key, value] of entries(data)) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldError.invalid(`data[${key}]`, key, msg));
    if (Object.hasOwn(binary, key)) {
      errs.push(fieldError.invalid(`data[${key}]`, key, 'duplicate of key present in binaryData'));
    }
    total += typeof value === 'string' ? Buffer.byteLength(value) : 0;
  }
  for (const [key, value] of entries(binaryData)) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldError.invalid(`binaryData[${key}]`, key, msg));
    total += base64DecodedLength(value);
  }
  // kube reports this one on the root path, which its field paths print as "[]"
  if (total > maxSecretSize) errs.push(fieldError.tooLong('[]', maxSecretSize));
  return errs;
}

/** Secret `data` (base64): key format and the size limit. */
export function validateSecretPayload(data: unknown): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [key, value] of entries(data)) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldError.invalid(`data[${key}]`, key, msg));
    total += base64DecodedLength(value);
  }
  if (total > maxSecretSize) errs.push(fieldError.tooLong('data', maxSecretSize));
  return errs;
}

/** Two payload maps hold the same bytes; an absent map equals an empty one. */
function samePayload(a: unknown, b: unknown, base64: boolean): boolean {
  const left = entries(a);
  const right = isPlainObject(b) ? b : {};
  if (left.length !== Object.keys(right).length) return false;
  return left.every(([key, value]) => {
    if (!Object.hasOwn(right, key)) return false;
    return base64 ? base64Decode(value).equals(base64Decode(right[key])) : value === right[key];
  });
}

/**
 * Once `immutable` is true it can't be unset, and the listed payload fields can't change
 * (kube reports `immutable` first, then each payload field).
 */
export function validateImmutablePayload(
  obj: Record<string, unknown>,
  old: Record<string, unknown>,
  fields: { name: string; base64: boolean }[],
): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (obj.immutable !== true) errs.push(fieldError.forbidden('immutable', immutableFieldMsg));
  for (const { name, base64 } of fields) {
    if (!samePayload(obj[name], old[name], base64)) errs.push(fieldError.forbidden(name, immutableFieldMsg));
  }
  return errs;
}
