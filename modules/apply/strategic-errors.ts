/**
 * Strategic merge patch failures, worded as k8s.io/apimachinery's strategicpatch/mergepatch packages word
 * them, and the status each becomes. kube's handler turns the malformed-directive errors into 400s and
 * "lists of lists" into the generic 422; every other failure reaches the client as a 500 with the text.
 * Rule 5 (no 500 for bad input) makes those 400s here, with the same text.
 */
import { ApiError } from '../api/index.js';
import { goQuote } from '../api/index.js';
import { goString, goTypeName, goValue } from './go-format.js';
import { PatchRejectedError } from './patch-errors.js';

type Outcome = 'badRequest' | 'rejected';

export class StrategicMergeError extends Error {
  constructor(
    message: string,
    readonly outcome: Outcome = 'badRequest',
  ) {
    super(message);
  }

  toApiError(): ApiError {
    return this.outcome === 'rejected'
      ? new PatchRejectedError(this.message)
      : ApiError.badRequest(this.message);
  }
}

const err = (message: string, outcome?: Outcome) => new StrategicMergeError(message, outcome);

export const errors = {
  badPrimitiveList: () => err('invalid patch format of primitive list'),
  badRetainKeys: () => err('invalid patch format of retainKeys'),
  badSetElementOrder: () => err('invalid patch format of setElementOrder list'),
  noListOfLists: () => err('lists of lists are not supported', 'rejected'),
  /** a value of the wrong Go type where a map or list was expected */
  badArgType: (expected: 'map' | 'slice', actual: unknown) =>
    err(
      `expected a ${expected === 'map' ? 'map[string]interface {}' : '[]interface {}'}, but received a ${goTypeName(actual)}`,
    ),
  noMergeKey: (item: unknown, mergeKey: string) =>
    err(`map: ${goValue(item)} does not contain declared merge key: ${mergeKey}`),
  badPatchType: (directive: unknown, map: unknown) =>
    err(`unknown patch type: ${goString(directive)} in map: ${goValue(map)}`),
  mergeInList: () => err('merging lists cannot yet be specified in the patch'),
  notAMap: (index: number) => err(`value for key ${index} is not a map`),
  elementTypes: (lists: unknown[][]) => err(`list element types are not identical: ${goValue(lists)}`),
  noMergeKeyDeclared: (elementKind: string) => err(`cannot merge lists without merge key for ${elementKind}`),
  orderMismatch: (patchList: unknown[], orderList: unknown[]) =>
    err(
      `the order in patch list:\n${goValue(patchList)}\n doesn't match $setElementOrder list:\n${goValue(orderList)}`,
    ),
  unknownField: (struct: string, field: string) =>
    err(`unable to find api field in struct ${struct} for the json field ${goQuote(field)}`),
  unexpectedStrategy: (strategies: string[]) => err(`unexpected patch strategy: ${goValue(strategies)}`),
};
