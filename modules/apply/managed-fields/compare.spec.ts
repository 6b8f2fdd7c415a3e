import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareObjects, excludeFields } from './compare.js';
import { FieldSet } from './field-set.js';
import { makePath } from './path-element.js';
import { widgetSpecSchema } from '../../../test/support/apply-schemas.js';

function diff(before: unknown, after: unknown) {
  const c = compareObjects(before, after, widgetSpecSchema);
  return {
    added: c.added.toFieldsV1Json(),
    modified: c.modified.toFieldsV1Json(),
    removed: c.removed.toFieldsV1Json(),
  };
}

describe('compareObjects', () => {
  const cases: Array<[string, unknown, unknown, ReturnType<typeof diff>]> = [
    ['nothing changed', { replicas: 1 }, { replicas: 1 }, { added: '{}', modified: '{}', removed: '{}' }],
    [
      'a scalar changed',
      { replicas: 1 },
      { replicas: 2 },
      { added: '{}', modified: '{"f:replicas":{}}', removed: '{}' },
    ],
    [
      'a map appears: the map itself is added too',
      {},
      { env: { A: '1' } },
      { added: '{"f:env":{".":{},"f:A":{}}}', modified: '{}', removed: '{}' },
    ],
    [
      'a key added to an existing map: only the key',
      { env: { A: '1' } },
      { env: { A: '1', B: '2' } },
      { added: '{"f:env":{"f:B":{}}}', modified: '{}', removed: '{}' },
    ],
    [
      'a map disappears: removed with its keys',
      { env: { A: '1' } },
      {},
      { added: '{}', modified: '{}', removed: '{"f:env":{".":{},"f:A":{}}}' },
    ],
    [
      'a map emptied stays, its keys go',
      { env: { A: '1' } },
      { env: {} },
      { added: '{}', modified: '{}', removed: '{"f:env":{"f:A":{}}}' },
    ],
    [
      'an empty map appears: a leaf',
      {},
      { env: {} },
      { added: '{"f:env":{}}', modified: '{}', removed: '{}' },
    ],
    [
      'an atomic map changes as a whole',
      { selector: { a: '1' } },
      { selector: { a: '2' } },
      { added: '{}', modified: '{"f:selector":{}}', removed: '{}' },
    ],
    [
      'a keyed item added, another changed',
      { containers: [{ name: 'a', image: '1' }] },
      { containers: [{ name: 'a', image: '2' }, { name: 'b' }] },
      {
        added: '{"f:containers":{"k:{\\"name\\":\\"b\\"}":{".":{},"f:name":{}}}}',
        modified: '{"f:containers":{"k:{\\"name\\":\\"a\\"}":{"f:image":{}}}}',
        removed: '{}',
      },
    ],
    [
      'reordering a keyed list changes nothing',
      { containers: [{ name: 'a' }, { name: 'b' }] },
      { containers: [{ name: 'b' }, { name: 'a' }] },
      { added: '{}', modified: '{}', removed: '{}' },
    ],
    [
      'set members come and go',
      { tags: ['a', 'b'] },
      { tags: ['b', 'c'] },
      { added: '{"f:tags":{"v:\\"c\\"":{}}}', modified: '{}', removed: '{"f:tags":{"v:\\"a\\"":{}}}' },
    ],
    [
      'reordering an atomic list modifies it',
      { args: ['a', 'b'] },
      { args: ['b', 'a'] },
      { added: '{}', modified: '{"f:args":{}}', removed: '{}' },
    ],
    [
      'a struct appears with a field',
      {},
      { strategy: { type: 'x' } },
      { added: '{"f:strategy":{".":{},"f:type":{}}}', modified: '{}', removed: '{}' },
    ],
  ];
  for (const [name, before, after, expected] of cases) {
    it(name, () => assert.deepEqual(diff(before, after), expected));
  }

  it('reports list items it cannot name', () => {
    const c = compareObjects({}, { containers: [{ image: 'x' }] }, widgetSpecSchema);
    assert.equal(c.errors.length, 1);
    assert.match(
      c.errors[0].message,
      /^element 0: associative list with keys has an element that omits key field "name"/,
    );
  });

  it('can leave out fields and everything below them', () => {
    const c = compareObjects({}, { env: { A: '1' }, replicas: 1 }, widgetSpecSchema);
    const filtered = excludeFields(c, FieldSet.of(makePath('env')));
    assert.equal(filtered.added.toFieldsV1Json(), '{"f:replicas":{}}');
  });
});
