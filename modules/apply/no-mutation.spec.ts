/**
 * Inputs are never changed, and malformed input of any shape ends in an ApiError, never a TypeError: every
 * patch function runs on deeply frozen inputs (a write would throw) against a corpus of odd bodies.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../api/index.js';
import { applyJsonPatch } from './json-patch.js';
import { applyMergePatch } from './merge-patch.js';
import { applyStrategicMergePatch } from './strategic-merge.js';
import { widget, widgetSchema } from '../../test/support/strategic-fixtures.js';

function freeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.values(value).forEach(freeze);
    Object.freeze(value);
  }
  return value;
}

const original = () =>
  freeze(
    widget({
      containers: [{ name: 'a', env: [{ name: 'E', value: '1' }], args: ['x'] }, { name: 'b' }],
      hostnames: ['h1', 'h2'],
      weights: [1, 2],
      nodeSelector: { k: 'v' },
      rollout: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '1' } },
      volumes: [{ name: 'v', emptyDir: {} }],
    }),
  );

const scalars: unknown[] = [null, 0, -1, 1.5, '', 'x', true, false];
const shapes: unknown[] = [...scalars, [], {}, [null], [[]], [{}], { $patch: null }, { $retainKeys: {} }];

/** Patches that poke at every directive with values of every shape. */
function strategicCorpus(): unknown[] {
  const out: unknown[] = [...shapes];
  const keys = [
    '$patch',
    '$retainKeys',
    '$setElementOrder/containers',
    '$setElementOrder/hostnames',
    '$setElementOrder/',
    '$deleteFromPrimitiveList/hostnames',
    '$deleteFromPrimitiveList/containers',
    'containers',
    'hostnames',
    'weights',
    'nodeSelector',
    'rollout',
    'volumes',
    'tolerations',
  ];
  for (const key of keys) {
    for (const v of [...shapes, [{ name: 'a', $patch: 'delete' }], [{ $patch: 'x' }], [{ name: 'a' }, 'a']]) {
      out.push({ spec: { [key]: v } });
      out.push({ spec: { containers: [{ name: 'a', [key]: v }] } });
    }
  }
  return out;
}

function jsonPatchCorpus(): unknown[] {
  const out: unknown[] = [...shapes];
  const ops = ['add', 'remove', 'replace', 'move', 'copy', 'test', 'nope', 1, null];
  const paths: unknown[] = [
    '',
    '/',
    '/spec',
    '/spec/containers/0',
    '/spec/containers/-',
    '/spec/x/y',
    'spec',
    3,
    null,
  ];
  for (const op of ops) {
    for (const path of paths) {
      out.push([{ op, path, from: path, value: { a: [1] } }]);
      out.push([{ op, path }]);
    }
  }
  return out;
}

function assertOnlyApiErrors(run: () => unknown): void {
  try {
    run();
  } catch (err) {
    assert.ok(err instanceof ApiError, `unexpected ${String(err)}`);
    assert.ok(err.code >= 400 && err.code < 500, `unexpected code ${err.code}`);
  }
}

describe('patches never change their inputs and fail only with 4xx ApiErrors', () => {
  it('strategic merge', () => {
    for (const patch of strategicCorpus()) {
      assertOnlyApiErrors(() => applyStrategicMergePatch(original(), freeze(patch), widgetSchema));
    }
  });

  it('merge patch', () => {
    for (const patch of [...strategicCorpus(), ...shapes]) {
      assertOnlyApiErrors(() => applyMergePatch(original(), freeze(patch)));
    }
  });

  it('JSON patch', () => {
    for (const patch of jsonPatchCorpus()) {
      assertOnlyApiErrors(() => applyJsonPatch(original(), freeze(patch)));
    }
  });

  it('results share nothing with the inputs', () => {
    const doc = original();
    const out = applyStrategicMergePatch(doc, { spec: { hostnames: ['h3'] } }, widgetSchema) as any;
    out.spec.containers[0].env[0].value = 'changed';
    assert.equal((doc.spec as any).containers[0].env[0].value, '1');
  });
});
