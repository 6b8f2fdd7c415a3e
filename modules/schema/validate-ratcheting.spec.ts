import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, type Schema } from '../api/index.js';
import { validateValues } from './validate-values.js';

const cr = (spec: Schema): Schema => ({
  type: 'object',
  properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, spec },
});
const messages = (schema: Schema, value: unknown, options = {}): string[] =>
  validateValues(schema, value, options).map(formatFieldError);

describe('validateValues: ratcheting on update', () => {
  const schema = cr({
    type: 'object',
    properties: {
      name: { type: 'string', maxLength: 3 },
      other: { type: 'string' },
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: {
          type: 'object',
          properties: { name: { type: 'string' }, port: { type: 'integer', maximum: 100 } },
        },
      },
      atomic: { type: 'array', items: { type: 'integer', maximum: 100 } },
      free: {
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
        properties: { n: { type: 'integer', maximum: 1 } },
      },
    },
  });
  const check = (value: unknown, old: unknown): string[] =>
    messages(schema, { spec: value }, { old: { spec: old } });

  it('drops errors of an unchanged value when another changes', () => {
    assert.deepEqual(check({ name: 'toolong', other: 'b' }, { name: 'toolong', other: 'a' }), []);
  });

  it('keeps errors of a changed value', () => {
    assert.deepEqual(check({ name: 'longer' }, { name: 'toolong' }), [
      'spec.name: Too long: may not be more than 3 bytes',
    ]);
  });

  it('correlates map-list items by key, wherever they moved', () => {
    const old = {
      ports: [
        { name: 'a', port: 200 },
        { name: 'b', port: 1 },
      ],
    };
    assert.deepEqual(
      check(
        {
          ports: [
            { name: 'b', port: 2 },
            { name: 'a', port: 200 },
          ],
        },
        old,
      ),
      [],
    );
    assert.deepEqual(check({ ports: [{ name: 'c', port: 200 }] }, old), [
      'spec.ports[0].port: Invalid value: 200: spec.ports[0].port in body should be less than or equal to 100',
    ]);
  });

  it('does not correlate items of atomic lists, but an unchanged list as a whole', () => {
    assert.deepEqual(check({ atomic: [200], other: 'x' }, { atomic: [200] }), []);
    assert.deepEqual(check({ atomic: [200, 1] }, { atomic: [200] }), [
      'spec.atomic[0]: Invalid value: 200: spec.atomic[0] in body should be less than or equal to 100',
    ]);
  });

  it('never treats an object with unknown fields as unchanged', () => {
    assert.deepEqual(check({ free: { n: 5, x: 1 }, other: 'b' }, { free: { n: 5, x: 1 }, other: 'a' }), []);
    const bare = cr({
      type: 'object',
      properties: {
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, maxProperties: 1 },
        other: { type: 'string' },
      },
    });
    assert.deepEqual(
      messages(
        bare,
        { spec: { free: { x: 1, y: 2 }, other: 'b' } },
        { old: { spec: { free: { x: 1, y: 2 }, other: 'a' } } },
      ),
      ['spec.free: Too many: 2: must have at most 1 items'],
    );
  });

  it('drops everything when nothing changed', () => {
    assert.deepEqual(check({ name: 'toolong' }, { name: 'toolong' }), []);
  });
});
