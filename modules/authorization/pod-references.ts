/**
 * The objects a pod names, as kube's pod visitors find them (VisitPodSecretNames, VisitPodConfigmapNames, the
 * graph's claim names): what the node running the pod may read through the Node authorizer. Transitive
 * references (pod → PVC → PV → Secret) are not followed here.
 */
import { isPlainObject, type KubeObject } from '../api/index.js';

type Obj = Record<string, unknown>;

export interface PodReferences {
  secrets: Set<string>;
  configMaps: Set<string>;
  persistentVolumeClaims: Set<string>;
  serviceAccount?: string;
}

/** kube's mirror pod annotation: a pod the kubelet made from a static manifest */
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const objs = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);
const nameAt = (v: unknown, field = 'name'): string => {
  const name = obj(v)[field];
  return typeof name === 'string' ? name : '';
};

/** Volume sources whose secret is named by `secretRef` (kube's list, in its order). */
const SECRET_REF_SOURCES = ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'];

/** init, regular and ephemeral containers: kube visits all three for the graph */
function containersOf(spec: Obj): Obj[] {
  return [...objs(spec.initContainers), ...objs(spec.containers), ...objs(spec.ephemeralContainers)];
}

function visitContainer(c: Obj, refs: PodReferences): void {
  for (const from of objs(c.envFrom)) {
    refs.secrets.add(nameAt(from.secretRef));
    refs.configMaps.add(nameAt(from.configMapRef));
  }
  for (const env of objs(c.env)) {
    const valueFrom = obj(env.valueFrom);
    refs.secrets.add(nameAt(valueFrom.secretKeyRef));
    refs.configMaps.add(nameAt(valueFrom.configMapKeyRef));
  }
}

function visitVolume(podName: string, v: Obj, refs: PodReferences): void {
  refs.secrets.add(nameAt(v.azureFile, 'secretName'));
  refs.secrets.add(nameAt(v.secret, 'secretName'));
  for (const source of SECRET_REF_SOURCES) refs.secrets.add(nameAt(obj(v[source]).secretRef));
  refs.secrets.add(nameAt(obj(v.csi).nodePublishSecretRef));
  refs.configMaps.add(nameAt(v.configMap));
  for (const projected of objs(obj(v.projected).sources)) {
    refs.secrets.add(nameAt(projected.secret));
    refs.configMaps.add(nameAt(projected.configMap));
  }
  if (isPlainObject(v.persistentVolumeClaim))
    refs.persistentVolumeClaims.add(nameAt(v.persistentVolumeClaim, 'claimName'));
  // an ephemeral volume's claim is made by kube's controller under this name
  else if (isPlainObject(v.ephemeral) && typeof v.name === 'string')
    refs.persistentVolumeClaims.add(`${podName}-${v.name}`);
}

export function podReferences(pod: KubeObject): PodReferences {
  const spec = obj(pod.spec);
  const refs: PodReferences = {
    secrets: new Set(),
    configMaps: new Set(),
    persistentVolumeClaims: new Set(),
  };
  for (const pull of objs(spec.imagePullSecrets)) refs.secrets.add(nameAt(pull));
  for (const c of containersOf(spec)) visitContainer(c, refs);
  const podName = pod.metadata.name ?? '';
  for (const v of objs(spec.volumes)) visitVolume(podName, v, refs);
  // kube skips empty names
  refs.secrets.delete('');
  refs.configMaps.delete('');
  refs.persistentVolumeClaims.delete('');
  const account = spec.serviceAccountName;
  if (typeof account === 'string' && account) refs.serviceAccount = account;
  return refs;
}

export const isMirrorPod = (pod: KubeObject): boolean =>
  pod.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined;

/** The node a pod is bound to ('' when not scheduled). */
export function podNodeName(pod: KubeObject | undefined): string {
  const node = obj(pod?.spec).nodeName;
  return typeof node === 'string' ? node : '';
}
