/** Continue tokens of chunked lists: the snapshot revision and the last key served, as kube encodes them. */
import { ApiError } from '../api/index.js';

export interface ContinueToken {
  rv: number;
  /** namespace and name (joined by \u0000) of the last item of the previous page */
  start: string;
}

export function encodeContinue(token: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: token.rv, start: token.start })).toString(
    'base64url',
  );
}

export function decodeContinue(text: string): ContinueToken {
  try {
    const raw = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      raw.v === 'meta.k8s.io/v1' &&
      Number.isSafeInteger(raw.rv) &&
      raw.rv > 0 &&
      typeof raw.start === 'string'
    ) {
      return { rv: raw.rv, start: raw.start };
    }
  } catch {
    // falls through to the error below
  }
  throw ApiError.badRequest(
    'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
  );
}

export function continueExpired(): ApiError {
  return ApiError.gone(
    'The provided continue parameter is too old to display a consistent list result. You can start a new list ' +
      'without the continue parameter, or use the continue token in this response to retrieve the remainder of the ' +
      'results. Continuing with the provided token results in an inconsistent list - objects that were created, ' +
      'modified, or deleted between the time the first chunk was returned and now may show up in the list.',
  );
}
