/**
 * fieldValidation=Warn/Strict reporting: the unknown and duplicate fields found while decoding become
 * `unknown field "<path>"` / `duplicate field "<path>"` entries, one Warning header each (Warn) or one
 * 400 listing them all (Strict).
 */
import { ApiError } from '../api/index.js';
import { goQuote } from '../api/index.js';
import { decodeErrorPrefix } from './decode.js';

const maxReported = 100;

function within(path: string, parent: string): boolean {
  if (!path.startsWith(parent)) return false;
  if (path.length === parent.length) return true;
  const c = path.charCodeAt(parent.length);
  return c === 46 || c === 91; // '.' or '['
}

/**
 * The strict-decoding messages, unknown fields first. A repeated key inside (or at) an unknown field is
 * not reported again: kube's typed decoder skips unknown values without looking inside them.
 */
export function strictMessages(
  unknownFields: readonly string[],
  duplicateFields: readonly string[] = [],
): string[] {
  const out: string[] = [];
  for (const path of unknownFields) {
    if (out.length >= maxReported) return out;
    out.push(`unknown field ${goQuote(path)}`);
  }
  for (const path of duplicateFields) {
    if (out.length >= maxReported) break;
    if (unknownFields.some((u) => within(path, u))) continue;
    out.push(`duplicate field ${goQuote(path)}`);
  }
  return out;
}

/**
 * The Strict 400: `strict decoding error: <messages joined by ", ">`, with kube's
 * `<Kind> in version "<v>" cannot be handled as a <Kind>: ` prefix when `version` is given.
 */
export function strictDecodingError(messages: readonly string[], kind?: string, version?: string): ApiError {
  const prefix = kind !== undefined && version !== undefined ? decodeErrorPrefix(kind, version) : '';
  return ApiError.badRequest(`${prefix}strict decoding error: ${messages.join(', ')}`);
}
