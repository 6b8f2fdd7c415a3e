/**
 * The admission chain: every plugin's mutating stage in order, every plugin's validating stage in order (the
 * store calls the two stages apart); plugins with only one stage take part only in it; a refusal stops the
 * stage; a chain of synchronous plugins answers synchronously (no promise, no tick).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, parseRequestInfo, requestContext } from '../api/index.js';
import { namespaceDefinition } from '../kinds/index.js';
import type { AdmissionAttributes } from '../registry/index.js';
import { AdmissionChain } from './chain.js';
import type { AdmissionPlugin } from './plugin.js';

function attributes(): AdmissionAttributes {
  const info = parseRequestInfo('POST', '/api/v1/namespaces', {});
  return {
    operation: 'CREATE',
    def: namespaceDefinition,
    namespace: '',
    name: 'n',
    subresource: '',
    object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } },
    ctx: requestContext(info, { name: 'u', uid: '', groups: [] }),
  };
}

/** A plugin logging its stages into `log`; async ones wait a tick first. */
function plugin(
  name: string,
  log: string[],
  o: { admit?: boolean; validate?: boolean; async?: boolean; refuse?: 'admit' | 'validate' } = {},
): AdmissionPlugin {
  const stage = (s: 'admit' | 'validate') => (a: AdmissionAttributes) => {
    const run = () => {
      log.push(`${name}.${s}`);
      if (s === 'admit') a.object!.metadata.labels = { ...a.object!.metadata.labels, [name]: 'seen' };
      if (o.refuse === s) throw ApiError.forbidden(`refused by ${name}`);
    };
    if (o.async) return new Promise<void>((resolve) => setImmediate(resolve)).then(run);
    run();
  };
  const p: AdmissionPlugin = { name };
  if (o.admit ?? true) (p as { admit?: unknown }).admit = stage('admit');
  if (o.validate ?? true) (p as { validate?: unknown }).validate = stage('validate');
  return p;
}

describe('AdmissionChain', () => {
  it('runs each stage over the plugins in order: all mutating, later all validating', async () => {
    const log: string[] = [];
    const chain = new AdmissionChain([
      plugin('a', log),
      plugin('b', log, { validate: false }),
      plugin('c', log, { admit: false }),
      plugin('d', log),
    ]);
    const attrs = attributes();
    await chain.admit(attrs);
    assert.deepEqual(log, ['a.admit', 'b.admit', 'd.admit']);
    assert.deepEqual(attrs.object!.metadata.labels, { a: 'seen', b: 'seen', d: 'seen' });
    await chain.validate(attrs);
    assert.deepEqual(log, ['a.admit', 'b.admit', 'd.admit', 'a.validate', 'c.validate', 'd.validate']);
  });

  it('keeps the order with asynchronous plugins among synchronous ones', async () => {
    const log: string[] = [];
    const chain = new AdmissionChain([
      plugin('a', log),
      plugin('b', log, { async: true }),
      plugin('c', log),
      plugin('d', log, { async: true }),
      plugin('e', log),
    ]);
    const attrs = attributes();
    const pending = chain.admit(attrs);
    assert.ok(pending instanceof Promise, 'an asynchronous plugin makes the stage a promise');
    assert.deepEqual(log, ['a.admit'], 'the first synchronous plugin ran at once');
    await pending;
    assert.deepEqual(log, ['a.admit', 'b.admit', 'c.admit', 'd.admit', 'e.admit']);
    await chain.validate(attrs);
    assert.deepEqual(log.slice(5), ['a.validate', 'b.validate', 'c.validate', 'd.validate', 'e.validate']);
  });

  it('a synchronous chain returns no promise and has run when the call returns', () => {
    const log: string[] = [];
    const chain = new AdmissionChain([plugin('a', log), plugin('b', log)]);
    const attrs = attributes();
    assert.equal(chain.admit(attrs), undefined);
    assert.deepEqual(log, ['a.admit', 'b.admit']);
    assert.equal(chain.validate(attrs), undefined);
    assert.deepEqual(log, ['a.admit', 'b.admit', 'a.validate', 'b.validate']);
    const empty = new AdmissionChain([]);
    assert.equal(empty.admit(attrs), undefined);
    assert.equal(empty.validate(attrs), undefined);
  });

  it('a refusal stops its stage: later plugins do not run', async () => {
    const log: string[] = [];
    const sync = new AdmissionChain([
      plugin('a', log),
      plugin('b', log, { refuse: 'validate' }),
      plugin('c', log),
    ]);
    const attrs = attributes();
    sync.admit(attrs);
    assert.throws(
      () => sync.validate(attrs),
      (e: unknown) => e instanceof ApiError && e.code === 403 && e.message === 'refused by b',
    );
    assert.deepEqual(log, ['a.admit', 'b.admit', 'c.admit', 'a.validate', 'b.validate']);

    const asyncLog: string[] = [];
    const asyncChain = new AdmissionChain([
      plugin('a', asyncLog, { async: true, refuse: 'admit' }),
      plugin('b', asyncLog),
    ]);
    await assert.rejects(Promise.resolve(asyncChain.admit(attributes())), /refused by a/);
    assert.deepEqual(asyncLog, ['a.admit']);
  });

  it('plugins are called as methods of themselves', async () => {
    class Counting implements AdmissionPlugin {
      readonly name = 'Counting';
      count = 0;
      admit(): void {
        this.count++;
      }
      validate(): Promise<void> {
        this.count += 10;
        return Promise.resolve();
      }
    }
    const counting = new Counting();
    const chain = new AdmissionChain([counting]);
    assert.deepEqual(chain.plugins, [counting]);
    chain.admit(attributes());
    await chain.validate(attributes());
    assert.equal(counting.count, 11);
  });
});
