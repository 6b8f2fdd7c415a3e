/** The Node authorizer's graph: what a pod bound to a node gives it, and what its change or removal takes back. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/index.js';
import { NodeGraph } from './node-graph.js';

function pod(name: string, nodeName: string | undefined, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'ns' },
    spec: {
      nodeName,
      serviceAccountName: 'robot',
      containers: [{ name: 'c', image: 'i', envFrom: [{ secretRef: { name: 'creds' } }] }],
      volumes: [
        { name: 'conf', configMap: { name: 'settings' } },
        { name: 'data', persistentVolumeClaim: { claimName: 'claim' } },
      ],
      ...spec,
    },
  };
}

describe('NodeGraph', () => {
  it('a bound pod relates its node to itself and every object it names, in its namespace', () => {
    const g = new NodeGraph();
    g.setPod(pod('web', 'n1'));
    assert.ok(g.related('n1', 'pods', 'ns', 'web'));
    assert.ok(g.related('n1', 'secrets', 'ns', 'creds'));
    assert.ok(g.related('n1', 'configmaps', 'ns', 'settings'));
    assert.ok(g.related('n1', 'persistentvolumeclaims', 'ns', 'claim'));
    assert.ok(g.related('n1', 'serviceaccounts', 'ns', 'robot'));
    // not another node, another namespace, another kind or a PV
    assert.ok(!g.related('n2', 'secrets', 'ns', 'creds'));
    assert.ok(!g.related('n1', 'secrets', 'other', 'creds'));
    assert.ok(!g.related('n1', 'configmaps', 'ns', 'creds'));
    assert.ok(!g.related('n1', 'persistentvolumes', '', 'claim'));
  });

  it('an unscheduled pod relates nothing; binding it does', () => {
    const g = new NodeGraph();
    g.setPod(pod('web', undefined));
    assert.ok(!g.related('n1', 'secrets', 'ns', 'creds'));
    g.setPod(pod('web', 'n1'));
    assert.ok(g.related('n1', 'secrets', 'ns', 'creds'));
  });

  it("a deleted pod takes its edges back, but not another pod's on the same node", () => {
    const g = new NodeGraph();
    g.setPod(pod('a', 'n1'));
    g.setPod(pod('b', 'n1', { volumes: [] }));
    g.deletePod(pod('a', 'n1'));
    assert.ok(!g.related('n1', 'pods', 'ns', 'a'));
    assert.ok(g.related('n1', 'secrets', 'ns', 'creds'), 'b still names it');
    assert.ok(!g.related('n1', 'configmaps', 'ns', 'settings'));
    g.deletePod(pod('b', 'n1'));
    assert.ok(!g.related('n1', 'secrets', 'ns', 'creds'));
    g.deletePod(pod('b', 'n1'));
  });

  it('a changed pod (an ephemeral container added) gives what it names now, and only that', () => {
    const g = new NodeGraph();
    g.setPod(pod('web', 'n1'));
    const debug = {
      name: 'dbg',
      image: 'i',
      env: [{ name: 'T', valueFrom: { secretKeyRef: { name: 'debug', key: 'k' } } }],
    };
    g.setPod(pod('web', 'n1', { ephemeralContainers: [debug], volumes: [] }));
    assert.ok(g.related('n1', 'secrets', 'ns', 'debug'));
    assert.ok(g.related('n1', 'secrets', 'ns', 'creds'));
    assert.ok(!g.related('n1', 'configmaps', 'ns', 'settings'));
  });

  it('a mirror pod relates its node to itself only', () => {
    const g = new NodeGraph();
    const mirror = pod('static', 'n1');
    mirror.metadata.annotations = { 'kubernetes.io/config.mirror': 'hash' };
    g.setPod(mirror);
    assert.ok(g.related('n1', 'pods', 'ns', 'static'));
    assert.ok(!g.related('n1', 'secrets', 'ns', 'creds'));
    assert.ok(!g.related('n1', 'serviceaccounts', 'ns', 'robot'));
  });
});
