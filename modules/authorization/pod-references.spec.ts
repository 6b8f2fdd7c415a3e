/** The objects a pod names, one case per kind of reference kube's visitors follow. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/index.js';
import { podReferences } from './pod-references.js';

const pod = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'ns' },
  spec: { containers: [{ name: 'c', image: 'i' }], ...spec },
});
const container = (extra: Record<string, unknown>) => ({ name: 'c', image: 'i', ...extra });
const env = (valueFrom: Record<string, unknown>) => ({ env: [{ name: 'E', valueFrom }] });

const cases: {
  name: string;
  spec: Record<string, unknown>;
  secrets?: string[];
  configMaps?: string[];
  claims?: string[];
  account?: string;
}[] = [
  { name: 'imagePullSecrets', spec: { imagePullSecrets: [{ name: 'pull' }] }, secrets: ['pull'] },
  {
    name: 'env secretKeyRef',
    spec: { containers: [container(env({ secretKeyRef: { name: 's', key: 'k' } }))] },
    secrets: ['s'],
  },
  {
    name: 'envFrom secretRef',
    spec: { containers: [container({ envFrom: [{ secretRef: { name: 's' } }] })] },
    secrets: ['s'],
  },
  {
    name: 'env configMapKeyRef',
    spec: { containers: [container(env({ configMapKeyRef: { name: 'cm', key: 'k' } }))] },
    configMaps: ['cm'],
  },
  {
    name: 'envFrom configMapRef',
    spec: { containers: [container({ envFrom: [{ configMapRef: { name: 'cm' } }] })] },
    configMaps: ['cm'],
  },
  {
    name: 'init containers',
    spec: { initContainers: [container({ envFrom: [{ secretRef: { name: 'init' } }] })] },
    secrets: ['init'],
  },
  {
    name: 'ephemeral containers',
    spec: {
      ephemeralContainers: [container(env({ configMapKeyRef: { name: 'debug', key: 'k' } }))],
    },
    configMaps: ['debug'],
  },
  { name: 'secret volume', spec: { volumes: [{ name: 'v', secret: { secretName: 's' } }] }, secrets: ['s'] },
  {
    name: 'configMap volume',
    spec: { volumes: [{ name: 'v', configMap: { name: 'cm' } }] },
    configMaps: ['cm'],
  },
  {
    name: 'projected sources',
    spec: {
      volumes: [
        {
          name: 'v',
          projected: {
            sources: [
              { secret: { name: 's' } },
              { configMap: { name: 'cm' } },
              { serviceAccountToken: { path: 't' } },
            ],
          },
        },
      ],
    },
    secrets: ['s'],
    configMaps: ['cm'],
  },
  {
    name: 'CSI nodePublishSecretRef',
    spec: { volumes: [{ name: 'v', csi: { driver: 'd', nodePublishSecretRef: { name: 'csi' } } }] },
    secrets: ['csi'],
  },
  {
    name: 'secretRef of the other volume sources',
    spec: {
      volumes: [
        { name: 'a', cephfs: { monitors: ['m'], secretRef: { name: 'ceph' } } },
        { name: 'b', rbd: { monitors: ['m'], image: 'i', secretRef: { name: 'rbd' } } },
        { name: 'c', iscsi: { targetPortal: 't', iqn: 'q', lun: 0, secretRef: { name: 'iscsi' } } },
        { name: 'd', flexVolume: { driver: 'd', secretRef: { name: 'flex' } } },
        { name: 'e', azureFile: { secretName: 'azure', shareName: 's' } },
      ],
    },
    secrets: ['ceph', 'rbd', 'iscsi', 'flex', 'azure'],
  },
  {
    name: 'persistentVolumeClaim volume',
    spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'claim' } }] },
    claims: ['claim'],
  },
  {
    name: "ephemeral volume: the claim kube's controller makes, <pod>-<volume>",
    spec: { volumes: [{ name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } }] },
    claims: ['web-scratch'],
  },
  { name: 'serviceAccountName', spec: { serviceAccountName: 'robot' }, account: 'robot' },
  {
    name: 'empty names are skipped',
    spec: { imagePullSecrets: [{ name: '' }], containers: [container({ envFrom: [{ secretRef: {} }] })] },
  },
];

describe('podReferences', () => {
  for (const c of cases) {
    it(c.name, () => {
      const refs = podReferences(pod(c.spec));
      assert.deepEqual([...refs.secrets], c.secrets ?? []);
      assert.deepEqual([...refs.configMaps], c.configMaps ?? []);
      assert.deepEqual([...refs.persistentVolumeClaims], c.claims ?? []);
      assert.equal(refs.serviceAccount, c.account);
    });
  }
});
