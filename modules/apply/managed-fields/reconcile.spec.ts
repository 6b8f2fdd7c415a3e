import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FieldSet } from './field-set.js';
import { key, makePath } from './path-element.js';
import { reconcileWithSchema } from './reconcile.js';
import { widgetSpecSchema } from '../../../test/support/apply-schemas.js';

const P = makePath;

describe('reconcileWithSchema: field sets written under another schema', () => {
  it('a granular map that became atomic is owned whole by whoever owned a key of it', () => {
    const set = FieldSet.of(P('selector', 'a'), P('selector', 'b'), P('replicas'));
    assert.equal(
      reconcileWithSchema(set, widgetSpecSchema)?.toFieldsV1Json(),
      '{"f:replicas":{},"f:selector":{}}',
    );
  });

  it('a keyed list that became atomic is owned whole, items and all', () => {
    const set = FieldSet.of(P('args', key({ name: 'x' })), P('args', key({ name: 'x' }), 'image'));
    assert.equal(reconcileWithSchema(set, widgetSpecSchema)?.toFieldsV1Json(), '{"f:args":{}}');
  });

  it('a granular struct that became atomic, owned with "." and fields, collapses to its top', () => {
    const set = FieldSet.of(P('target'), P('target', 'kind'));
    assert.equal(reconcileWithSchema(set, widgetSpecSchema)?.toFieldsV1Json(), '{"f:target":{}}');
  });

  it('an atomic value that became granular keeps its owner on the top only (nothing to change)', () => {
    const set = FieldSet.of(P('env'), P('tags'), P('containers'));
    assert.equal(reconcileWithSchema(set, widgetSpecSchema), undefined);
  });

  it('sets that match the schema are left alone, including atomic items of keyed lists', () => {
    const set = FieldSet.of(
      P('selector'),
      P('containers', key({ name: 'c' })),
      P('containers', key({ name: 'c' }), 'args'),
    );
    assert.equal(reconcileWithSchema(set, widgetSpecSchema), undefined);
  });

  it('paths the schema does not know are left alone', () => {
    assert.equal(reconcileWithSchema(FieldSet.of(P('gone', 'x')), widgetSpecSchema), undefined);
  });
});
