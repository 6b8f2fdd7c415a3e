import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../managed-fields/json-value.js';
import { widget, widgetApiVersion, widgetSchema } from '../../../test/support/apply-schemas.js';
import { recordUpdate } from '../managed-fields/update.js';
import { apply, type ApplyOptions } from './apply.js';
import { entry, errorOf as conflictOf, T1, T2, T3 } from '../../../test/support/apply-helpers.js';

describe('apply: list and map types', () => {
  const opts = { now: T1 };
  const ws = (spec: Record<string, unknown>) => widget(spec);
  const run = (
    live: JsonObject | undefined,
    spec: Record<string, unknown>,
    manager: string,
    o: ApplyOptions = opts,
  ) => apply(live, ws(spec), manager, widgetSchema, o);

  it('set: each applier owns its members; dropping one removes only it', () => {
    const a = run(undefined, { tags: ['a', 'b'] }, 'one').object;
    const both = run(a, { tags: ['c'] }, 'two').object;
    assert.deepEqual((both.spec as JsonObject).tags, ['a', 'b', 'c']);
    const out = run(both, { tags: ['a'] }, 'one', { now: T2 });
    assert.deepEqual((out.object.spec as JsonObject).tags, ['a', 'c']);
    assert.deepEqual(
      out.managedFields.map((e) => [e.manager, e.fieldsV1]),
      [
        // oldest first: "two" last wrote at T1, "one" at T2
        ['two', { 'f:spec': { 'f:tags': { 'v:"c"': {} } } }],
        ['one', { 'f:spec': { 'f:tags': { 'v:"a"': {} } } }],
      ],
    );
  });

  it('keyed list: appliers own items; a dropped item goes even if an updater set a field in it', () => {
    const applied = run(undefined, { containers: [{ name: 'nginx', image: 'n' }] }, 'applier').object;
    const next = structuredClone(applied);
    ((next.spec as JsonObject).containers as JsonObject[])[0].args = ['x'];
    const managedFields = recordUpdate(applied, next, 'ctrl', widgetSchema, {
      apiVersion: widgetApiVersion,
      now: T2,
    });
    assert.deepEqual(managedFields[1].fieldsV1, {
      'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { 'f:args': {} } } },
    });
    const live = { ...next, metadata: { ...(next.metadata as JsonObject), managedFields } };
    const out = run(live, { containers: [{ name: 'other', image: 'n' }] }, 'applier', { now: T3 });
    assert.deepEqual((out.object.spec as JsonObject).containers, [{ name: 'other', image: 'n' }]);
    assert.deepEqual(out.managedFields, [
      entry(
        'applier',
        'Apply',
        T3,
        { 'f:spec': { 'f:containers': { 'k:{"name":"other"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
        { apiVersion: widgetApiVersion },
      ),
    ]);
  });

  it('keyed list: different appliers own different items without conflict', () => {
    const a = run(undefined, { containers: [{ name: 'a', image: '1' }] }, 'one').object;
    const out = run(a, { containers: [{ name: 'b', image: '2' }] }, 'two');
    assert.deepEqual((out.object.spec as JsonObject).containers, [
      { name: 'a', image: '1' },
      { name: 'b', image: '2' },
    ]);
  });

  it('atomic list: one owner for the whole list', () => {
    const a = run(undefined, { args: ['x'] }, 'one').object;
    const err = conflictOf(() => run(a, { args: ['x', 'y'] }, 'two'));
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "one": .spec.args');
  });

  it('atomic map: one owner for the whole map', () => {
    const a = run(undefined, { selector: { a: '1' } }, 'one').object;
    const err = conflictOf(() => run(a, { selector: { b: '2' } }, 'two'));
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "one": .spec.selector');
  });

  it('granular map: owners per key', () => {
    const a = run(undefined, { env: { A: '1' } }, 'one').object;
    const out = run(a, { env: { B: '2' } }, 'two');
    assert.deepEqual((out.object.spec as JsonObject).env, { A: '1', B: '2' });
  });

  it('a struct whose fields the applier no longer sets goes with them', () => {
    const a = run(undefined, { replicas: 1, strategy: { type: 'x' } }, 'one').object;
    const out = run(a, { replicas: 1 }, 'one', { now: T2 });
    assert.deepEqual(out.object.spec, { replicas: 1 });
    assert.deepEqual(out.managedFields[0].fieldsV1, { 'f:spec': { 'f:replicas': {} } });
  });
});
