import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../api/index.js';
import { serviceAccountDefinition, serviceAccountStrategy } from './serviceaccount.js';
import { systemContext } from '../../api/index.js';

const ctx = systemContext();

describe('ServiceAccount', () => {
  const withRefs = (): KubeObject => ({
    metadata: { name: 'sa', namespace: 'n' },
    secrets: [{ name: 'tok', namespace: 'other', uid: 'u', kind: 'Secret' }, { kind: 'Secret' }],
  });
  it('keeps only the name of each secret reference on create', () => {
    const obj = withRefs();
    serviceAccountStrategy.prepareForCreate?.(obj, ctx);
    assert.deepEqual(obj.secrets, [{ name: 'tok' }, {}]);
  });
  it('and on update', () => {
    const obj = withRefs();
    serviceAccountStrategy.prepareForUpdate?.(obj, { metadata: {} }, ctx);
    assert.deepEqual(obj.secrets, [{ name: 'tok' }, {}]);
  });
  it('checks standard finalizers', () => {
    const errs = serviceAccountStrategy.validate?.({ metadata: { finalizers: ['x', 'a.io/b'] } }, ctx) ?? [];
    assert.deepEqual(
      errs.map((e) => e.field),
      ['metadata.finalizers[0]'],
    );
  });
  it('Secrets column counts the references', () => {
    const column = serviceAccountDefinition.printerColumns?.find((c) => c.name === 'Secrets');
    assert.equal(column?.cell?.(withRefs(), 0), 2);
  });
});
