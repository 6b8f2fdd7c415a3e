/** kube's ValidateDeleteOptions for ignoreStoreReadErrorWithClusterBreakingPotential: true allows nothing else. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../api/index.js';
import { collectionRefusal, unsafeOptionErrors, type UnsafeOptionFields } from './unsafe-delete.js';

const none: UnsafeOptionFields = { dryRun: [] };
const option =
  'ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with';

const cases: { name: string; fields: UnsafeOptionFields; want: string[] }[] = [
  { name: 'option unset, everything else set', fields: { ...everything(), ignore: undefined }, want: [] },
  { name: 'option false, everything else set', fields: { ...everything(), ignore: false }, want: [] },
  { name: 'option true alone', fields: { ...none, ignore: true }, want: [] },
  {
    name: 'option true with every other field: one error each, in kube order',
    fields: { ...everything(), ignore: true },
    want: ['dryRun', 'propagationPolicy', 'orphanDependents', 'gracePeriodSeconds', 'preconditions'].map(
      (f) => `${option} .${f}`,
    ),
  },
  {
    name: 'gracePeriodSeconds 0 is set',
    fields: { ...none, ignore: true, gracePeriodSeconds: 0 },
    want: [`${option} .gracePeriodSeconds`],
  },
  {
    name: 'orphanDependents false is set',
    fields: { ...none, ignore: true, orphanDependents: false },
    want: [`${option} .orphanDependents`],
  },
  {
    name: 'empty preconditions are set',
    fields: { ...none, ignore: true, preconditions: {} },
    want: [`${option} .preconditions`],
  },
];

function everything(): UnsafeOptionFields {
  return {
    dryRun: ['All'],
    propagationPolicy: 'Background',
    orphanDependents: true,
    gracePeriodSeconds: 0,
    preconditions: { uid: 'u' },
  };
}

describe('ignoreStoreReadErrorWithClusterBreakingPotential validation', () => {
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(unsafeOptionErrors(c.fields).map(formatFieldError), c.want);
    });
  }

  it('deletecollection refuses the option with kube 422', () => {
    const e = collectionRefusal();
    assert.equal(e.code, 422);
    assert.equal(
      e.message,
      'DeleteOptions.meta.k8s.io "" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is not allowed with DELETECOLLECTION, try again after removing the option',
    );
  });
});
