/**
 * The errors kube's PATCH handler gives for patches it cannot apply. A JSON patch operation that fails (a
 * failed `test`, a missing path, a bad index, an unknown op) and a few strategic merge failures become a
 * generic 422 whose message drops the cause; the cause is kept on the error for logs and tests.
 */
import { ApiError } from '../api/index.js';

export const rejectedMessage = 'the server rejected our request due to an error in our request';

export class PatchRejectedError extends ApiError {
  /**
   * `detail`: why the patch failed, worded like the Go library kube uses. A JSON patch names the failing
   * operation (`op`: its index and kind) in a cause, where kube's details are empty.
   */
  constructor(
    readonly detail: string,
    op?: { index: number; kind: string },
  ) {
    super(
      422,
      'Invalid',
      rejectedMessage,
      op
        ? {
            causes: [
              { reason: 'FieldValueInvalid', field: `[${op.index}]`, message: `${op.kind}: ${detail}` },
            ],
          }
        : {},
    );
  }
}
