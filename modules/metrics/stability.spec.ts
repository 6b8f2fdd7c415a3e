import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Counter } from 'prom-client';
import { ApiMetrics } from './api-metrics.js';
import { annotatedHelp, MetricsConfigError, validateShowHidden, visibility } from './stability.js';

const spec = (deprecatedVersion?: string) => ({
  name: 'test_things_total',
  help: 'Things.',
  stability: 'ALPHA' as const,
  deprecatedVersion,
});

describe('metric stability', () => {
  it('puts the class, and a deprecation, in front of the help', () => {
    assert.equal(annotatedHelp({ ...spec(), stability: 'STABLE' }), '[STABLE] Things.');
    assert.equal(annotatedHelp(spec('1.30')), '[ALPHA] (Deprecated from 1.30) Things.');
  });

  it('hides a metric three minor releases after its deprecation and drops it one release later', () => {
    assert.equal(visibility(spec(), '1.32'), 'shown');
    assert.equal(visibility(spec('1.32'), '1.32'), 'shown');
    assert.equal(visibility(spec('1.30'), '1.32'), 'shown');
    assert.equal(visibility(spec('1.29'), '1.32'), 'hidden');
    assert.equal(visibility(spec('1.28'), '1.32'), 'deleted');
    assert.equal(visibility(spec('0.40'), '1.32'), 'deleted');
  });

  it('accepts only the previous minor release for --show-hidden-metrics-for-version', () => {
    validateShowHidden(undefined, '1.32');
    validateShowHidden('1.31', '1.32');
    for (const bad of ['1.30', '1.32', '2.31', 'x']) {
      assert.throws(() => validateShowHidden(bad, '1.32'), MetricsConfigError, bad);
    }
  });

  it('registers by those rules: deprecated ones warn, hidden ones only when shown again', async () => {
    const warnings: string[] = [];
    const make = (showHiddenForVersion?: string) =>
      new ApiMetrics({ currentVersion: '1.32', showHiddenForVersion, warn: (m) => warnings.push(m) });
    const define = (m: ApiMetrics, deprecatedVersion: string, name: string) =>
      m.define(
        { ...spec(deprecatedVersion), name },
        (help) => new Counter({ name, help, registers: [m.registry] }),
      );

    const plain = make();
    assert.ok(define(plain, '1.31', 'recent_total'));
    assert.deepEqual(warnings, ['metric recent_total is deprecated from 1.31']);
    assert.equal(define(plain, '1.29', 'hidden_total'), undefined);
    assert.equal(define(plain, '1.28', 'gone_total'), undefined);
    const text = (await plain.render()).body;
    assert.match(text, /# HELP recent_total \[ALPHA\] \(Deprecated from 1\.31\) Things\./);
    assert.doesNotMatch(text, /hidden_total|gone_total/);

    const showing = make('1.31');
    assert.ok(define(showing, '1.29', 'hidden_total'));
    assert.equal(define(showing, '1.28', 'gone_total'), undefined);
    assert.match((await showing.render()).body, /# HELP hidden_total \[ALPHA\] \(Deprecated from 1\.29\)/);
  });
});
