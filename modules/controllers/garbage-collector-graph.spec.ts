/** The dependency graph: which objects each change asks the collector to look at again. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, OwnerReference } from '../api/index.js';
import { DependencyGraph, type Work } from './garbage-collector-graph.js';

const CM = '/configmaps';
const ref = (uid: string, blockOwnerDeletion = false): OwnerReference => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  name: uid,
  uid,
  blockOwnerDeletion,
});
const cm = (
  uid: string,
  refs: OwnerReference[] = [],
  meta: Partial<KubeObject['metadata']> = {},
): KubeObject => ({
  metadata: { name: uid, namespace: 'ns', uid, ...(refs.length ? { ownerReferences: refs } : {}), ...meta },
});
const terminating = (finalizer: string) => ({
  deletionTimestamp: '2026-01-01T00:00:00Z',
  finalizers: [finalizer],
});
const del = (...uids: string[]): Work[] => uids.map((uid) => ({ queue: 'delete', uid }));

describe('DependencyGraph', () => {
  it('an object without owners asks for nothing; one with owners is checked', () => {
    const g = new DependencyGraph();
    assert.deepEqual(g.observe(CM, cm('owner')), []);
    assert.deepEqual(g.observe(CM, cm('dep', [ref('owner')])), del('dep'));
    assert.deepEqual(
      g.dependentsOf('owner').map((d) => d.node.object.metadata.uid),
      ['dep'],
    );
  });

  it('an unchanged update asks for nothing; changed references are checked again', () => {
    const g = new DependencyGraph();
    g.observe(CM, cm('dep', [ref('a')]));
    assert.deepEqual(g.observe(CM, cm('dep', [ref('a')], { labels: { x: 'y' } })), []);
    assert.deepEqual(g.observe(CM, cm('dep', [ref('a'), ref('b')])), del('dep'));
    assert.deepEqual(g.dependentsOf('b').length, 1);
    g.observe(CM, cm('dep', [ref('b')]));
    assert.deepEqual(g.dependentsOf('a'), []);
  });

  it("an owner's deletion asks for each of its dependents (by uid, whatever their names)", () => {
    const g = new DependencyGraph();
    g.observe(CM, cm('owner'));
    g.observe(CM, cm('d1', [ref('owner')]));
    g.observe(CM, cm('d2', [ref('owner')]));
    g.observe(CM, cm('other', [ref('someone-else')]));
    assert.deepEqual(
      g
        .forget(cm('owner'))
        .map((w) => w.uid)
        .sort(),
      ['d1', 'd2'],
    );
    assert.equal(g.get('owner'), undefined);
  });

  it('an owner turning to foreground deletion asks for its dependents, then itself', () => {
    const g = new DependencyGraph();
    g.observe(CM, cm('owner'));
    g.observe(CM, cm('d1', [ref('owner', true)]));
    assert.deepEqual(g.observe(CM, cm('owner', [], terminating('foregroundDeletion'))), del('d1', 'owner'));
    // the same state again is no transition
    assert.deepEqual(g.observe(CM, cm('owner', [], terminating('foregroundDeletion'))), []);
  });

  it('a blocking dependent that goes, or stops blocking, wakes its waiting owner', () => {
    const g = new DependencyGraph();
    g.observe(CM, cm('owner', [], terminating('foregroundDeletion')));
    g.observe(CM, cm('d1', [ref('owner', true)]));
    g.observe(CM, cm('d2', [ref('owner', true)]));
    assert.deepEqual(g.forget(cm('d1')), del('owner'));
    assert.deepEqual(g.observe(CM, cm('d2', [ref('owner', false)])), del('d2', 'owner'));
  });

  it('an owner deleted orphaning asks the orphan queue once', () => {
    const g = new DependencyGraph();
    g.observe(CM, cm('owner'));
    assert.deepEqual(g.observe(CM, cm('owner', [], terminating('orphan'))), [
      { queue: 'orphan', uid: 'owner' },
    ]);
    assert.deepEqual(g.observe(CM, cm('owner', [], terminating('orphan'))), []);
  });

  it('a kind dropped is forgotten without asking for anything', () => {
    const g = new DependencyGraph();
    g.observe('example.com/widgets', cm('w', [ref('owner')]));
    g.observe(CM, cm('c', [ref('owner')]));
    g.dropResource('example.com/widgets');
    assert.equal(g.get('w'), undefined);
    assert.deepEqual(
      g.dependentsOf('owner').map((d) => d.node.object.metadata.uid),
      ['c'],
    );
    assert.equal(g.size, 1);
  });
});
