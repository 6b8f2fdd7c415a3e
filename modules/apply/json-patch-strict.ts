/**
 * fieldValidation=Warn/Strict for JSON patch bodies. kube first decodes the body strictly into its own
 * operation struct (op, path, from: strings; value: anything): a wrong type is a 400
 * `error decoding patch: json: cannot unmarshal ...`, and members it does not know become strict-decoding
 * messages `json patch unknown field "[0].foo"` that the handler reports with the object's own (Warning
 * headers, or one 422 under Strict). Repeated members are not visible in parsed JSON; the caller finds
 * those in the raw body.
 */
import { ApiError } from '../api/index.js';
import { goQuote } from '../api/index.js';
import { jsonTypeName } from './json-patch.js';
import { isObject } from './json-value.js';

const known = new Set(['op', 'path', 'from', 'value']);

/** Returns the strict-decoding messages of a JSON patch body; throws the 400 for a wrongly typed body. */
export function jsonPatchStrictErrors(patchBody: unknown): string[] {
  const decodeError = (text: string) =>
    ApiError.badRequest(`error decoding patch: json: cannot unmarshal ${text}`);
  if (patchBody === null || patchBody === undefined) return [];
  if (!Array.isArray(patchBody)) {
    throw decodeError(`${jsonTypeName(patchBody)} into Go value of type []handlers.jsonPatchOp`);
  }
  const messages: string[] = [];
  let firstTypeError: string | undefined;
  patchBody.forEach((op, i) => {
    if (op === null) return;
    if (!isObject(op)) {
      firstTypeError ??= `${jsonTypeName(op)} into Go value of type handlers.jsonPatchOp`;
      return;
    }
    for (const [key, value] of Object.entries(op)) {
      if (!known.has(key)) {
        messages.push(`json patch unknown field ${goQuote(`[${i}].${key}`)}`);
      } else if (key !== 'value' && value !== null && typeof value !== 'string') {
        firstTypeError ??= `${jsonTypeName(value)} into Go struct field jsonPatchOp.${key} of type string`;
      }
    }
  });
  if (firstTypeError) throw decodeError(firstTypeError);
  return messages;
}
