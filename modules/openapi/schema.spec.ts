import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema } from '../api/index.js';
import { SchemaBuilder, type ComponentSource } from './schema.js';
import { collectKeys } from '../../test/support/openapi-walk.js';

const shared: Schema = {
  'x-pgkube-ref': 'example.Shared',
  'x-pgkube-protobuf': 4,
  type: 'object',
  description: 'A shared thing.',
  properties: { a: { type: 'string', 'x-pgkube-protobuf': 1 } },
};

function builder(dialect: 'v3' | 'v2', sources: [string, ComponentSource][] = []): SchemaBuilder {
  return new SchemaBuilder(dialect, new Map(sources), [{ group: '', version: 'v1' }]);
}

describe('SchemaBuilder', () => {
  it('turns marked nodes into components and wraps refs with siblings in allOf (v3)', () => {
    const b = builder('v3');
    const out = b.convert({
      type: 'object',
      properties: {
        plain: shared,
        bare: { 'x-pgkube-ref': 'example.Shared' },
        described: { 'x-pgkube-ref': 'example.Shared', description: 'What this field holds.' },
        defaulted: { ...shared, default: {} },
      },
    });
    assert.deepEqual(out.properties, {
      // repeating the type's own description is dropped, so a plain $ref remains
      plain: { $ref: '#/components/schemas/example.Shared' },
      bare: { $ref: '#/components/schemas/example.Shared' },
      described: {
        allOf: [{ $ref: '#/components/schemas/example.Shared' }],
        description: 'What this field holds.',
      },
      defaulted: { allOf: [{ $ref: '#/components/schemas/example.Shared' }], default: {} },
    });
    assert.deepEqual(b.result()['example.Shared'], {
      type: 'object',
      description: 'A shared thing.',
      properties: { a: { type: 'string' } },
    });
  });

  it('keeps $ref siblings side by side in v2', () => {
    const b = builder('v2');
    b.convert(shared);
    const out = b.convert({
      type: 'array',
      items: { 'x-pgkube-ref': 'example.Shared', description: 'An item.', default: {} },
    });
    assert.deepEqual(out.items, {
      $ref: '#/definitions/example.Shared',
      description: 'An item.',
      default: {},
    });
  });

  it('strips every private marker and keeps kube markers', () => {
    const b = builder('v3');
    const out = b.convert({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['a'],
      items: shared,
    });
    assert.equal(out['x-kubernetes-list-type'], 'map');
    const keys = collectKeys([out, b.result()]);
    assert.ok([...keys].every((k) => !k.startsWith('x-pgkube-')));
  });

  it('resolves bare pointers from the sources, else leaves an open object so the ref resolves', () => {
    const b = builder('v3', [['example.Known', { schema: { type: 'string', format: 'date-time' } }]]);
    b.convert({
      properties: { t: { 'x-pgkube-ref': 'example.Known' }, u: { 'x-pgkube-ref': 'example.Unknown' } },
    });
    assert.deepEqual(b.result()['example.Known'], { type: 'string', format: 'date-time' });
    assert.deepEqual(b.result()['example.Unknown'], {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
    });
  });

  it('pulls in what a component references, and stops on self-reference', () => {
    const tree: Schema = { 'x-pgkube-ref': 'example.Tree', type: 'object', properties: {} };
    tree.properties!.children = { type: 'array', items: tree };
    const b = builder('v3');
    b.convert(tree);
    assert.deepEqual(b.result()['example.Tree'], {
      type: 'object',
      properties: { children: { type: 'array', items: { $ref: '#/components/schemas/example.Tree' } } },
    });
  });

  it('lists kinds on components, "every" across the document group-versions', () => {
    const b = new SchemaBuilder(
      'v3',
      new Map<string, ComponentSource>([
        ['x.v1.Thing', { schema: { type: 'object' }, gvks: [{ group: 'x', version: 'v1', kind: 'Thing' }] }],
        ['meta.DeleteOptions', { schema: { type: 'object' }, gvks: 'every' }],
      ]),
      [
        { group: '', version: 'v1' },
        { group: 'x', version: 'v1' },
      ],
    );
    b.require('x.v1.Thing');
    b.require('meta.DeleteOptions');
    assert.deepEqual(b.result()['x.v1.Thing']['x-kubernetes-group-version-kind'], [
      { group: 'x', kind: 'Thing', version: 'v1' },
    ]);
    assert.deepEqual(b.result()['meta.DeleteOptions']['x-kubernetes-group-version-kind'], [
      { group: '', kind: 'DeleteOptions', version: 'v1' },
      { group: 'x', kind: 'DeleteOptions', version: 'v1' },
    ]);
  });

  it('applies kube v2 simplifications: no nullable, no typed children under preserve-unknown-fields', () => {
    const b = builder('v2');
    const out = b.convert({
      type: 'object',
      required: ['n', 'm'],
      properties: {
        n: { type: 'string', nullable: true },
        m: { type: 'string' },
        open: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { k: { type: 'string' } },
        },
        any: { type: 'array', nullable: true, items: { type: 'string' } },
      },
    });
    const props = out.properties as Record<string, Record<string, unknown>>;
    assert.deepEqual(props.n, {});
    assert.deepEqual(props.open, { type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
    assert.deepEqual(props.any, {});
    assert.deepEqual(out.required, ['m']);
    // v3 keeps them
    const v3 = builder('v3').convert({ type: 'string', nullable: true });
    assert.deepEqual(v3, { type: 'string', nullable: true });
  });

  it('never aliases the definition: output can be changed without touching the input', () => {
    const node: Schema = { type: 'string', enum: ['a'], default: 'a' };
    const out = builder('v3').convert(node);
    (out.enum as unknown[]).push('b');
    assert.deepEqual(node.enum, ['a']);
  });
});
