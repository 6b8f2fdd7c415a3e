/**
 * The bootstrap signer's signatures: the detached JWS kube computes (its own test vectors), and cluster-info
 * re-signed only when the set of signing tokens changed it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/index.js';
import { resign } from './bootstrap-signer.js';
import { clusterInfoKubeconfig } from './cluster-info.js';
import { detachedJws } from './detached-jws.js';

describe('detachedJws', () => {
  // the values kube's cluster-bootstrap jws tests expect for these inputs
  const content = 'Hello from the other side. I must have called a thousand times.';
  const header = 'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9';
  for (const [what, c, secret, signature] of [
    ['content', content, 'my voice is my passcode', 'VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8'],
    ['empty content', '', 'my voice is my passcode', '7Ui1ALizW4jXphVUB7xUqC9vLYLL9RZeOFfVLoB7Tgk'],
    ['an empty secret', content, '', 'UfkqvDGiIFxrMnFseDj9LYJOLNrvjW8aHhF71mvvAs8'],
  ]) {
    it(`matches kube's signature for ${what}`, () => {
      assert.equal(detachedJws(c, 'joshua', secret), `${header}..${signature}`);
    });
  }
});

describe('resign', () => {
  const kubeconfig = clusterInfoKubeconfig({ server: 'https://127.0.0.1:6443', ca: 'CA PEM\n' });
  const cm = (data: Record<string, string>): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cluster-info', namespace: 'kube-public', resourceVersion: '7' },
    data,
  });
  const a = { id: 'aaaaaa', secret: '0123456789abcdef' };
  const b = { id: 'bbbbbb', secret: 'fedcba9876543210' };

  it('adds one signature per token, keeping the other keys', () => {
    const next = resign(cm({ kubeconfig, other: 'x' }), [a, b]);
    assert.deepEqual(next?.data, {
      kubeconfig,
      other: 'x',
      'jws-kubeconfig-aaaaaa': detachedJws(kubeconfig, a.id, a.secret),
      'jws-kubeconfig-bbbbbb': detachedJws(kubeconfig, b.id, b.secret),
    });
    assert.equal(next?.metadata.resourceVersion, '7');
  });

  it('changes nothing when the signatures are already those of the tokens (no write loop)', () => {
    const signed = resign(cm({ kubeconfig }), [a, b])!;
    assert.equal(resign(signed, [b, a]), undefined);
  });

  it('drops the signatures of tokens gone, and replaces signatures that are wrong', () => {
    const signed = resign(cm({ kubeconfig }), [a, b])!;
    assert.deepEqual(resign(signed, [b])?.data, {
      kubeconfig,
      'jws-kubeconfig-bbbbbb': detachedJws(kubeconfig, b.id, b.secret),
    });
    const forged = cm({ kubeconfig, 'jws-kubeconfig-aaaaaa': 'forged..sig' });
    assert.equal(
      (resign(forged, [a])?.data as Record<string, string>)['jws-kubeconfig-aaaaaa'],
      detachedJws(kubeconfig, a.id, a.secret),
    );
    assert.deepEqual(resign(forged, [])?.data, { kubeconfig });
  });

  it('leaves a ConfigMap without a kubeconfig alone', () => {
    assert.equal(resign(cm({ other: 'x' }), [a]), undefined);
  });

  it('writes the kubeconfig kubeadm writes: one cluster named "", CA data and server', () => {
    assert.equal(
      kubeconfig,
      [
        'apiVersion: v1',
        'clusters:',
        '- cluster:',
        `    certificate-authority-data: ${Buffer.from('CA PEM\n').toString('base64')}`,
        '    server: https://127.0.0.1:6443',
        '  name: ""',
        'contexts: null',
        'current-context: ""',
        'kind: Config',
        'preferences: {}',
        'users: null',
        '',
      ].join('\n'),
    );
  });
});
