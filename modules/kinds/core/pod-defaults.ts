/**
 * Pod defaulting as kube v1.32's core/v1 SetDefaults_* functions do it, and what a create adds: the
 * DefaultTolerationSeconds admission plugin's tolerations (with kube's default flags) and the first status.
 */
import { isPlainObject, type KubeObject } from '../../api/index.js';
import { listAt, objAt, type Obj } from '../values.js';
import { allContainers, records } from './pod-parts.js';
import { qosClass } from './pod-qos.js';

/** The object at `key` of `parent`, made when absent (defaults write into it). */
function child(parent: Obj, key: string): Obj {
  if (!isPlainObject(parent[key])) parent[key] = {};
  return parent[key] as Obj;
}

const unset = (v: unknown): boolean => v === undefined || v === null;

/** kube's parsers.ParseImageName: an image without tag and digest is :latest. */
export function imageTag(image: string): string {
  // an image that does not parse has no tag (kube ignores the parse error here; validation reports it)
  if (image.trim() === '' || image.includes('@')) return '';
  const slash = image.lastIndexOf('/');
  const colon = image.lastIndexOf(':');
  return colon > slash ? image.slice(colon + 1) : 'latest';
}

function defaultProbe(probe: unknown): void {
  if (!isPlainObject(probe)) return;
  probe.timeoutSeconds ||= 1;
  probe.periodSeconds ||= 10;
  probe.successThreshold ||= 1;
  probe.failureThreshold ||= 3;
  defaultHandler(probe);
}

function defaultHandler(handler: unknown): void {
  if (!isPlainObject(handler) || !isPlainObject(handler.httpGet)) return;
  handler.httpGet.path ||= '/';
  handler.httpGet.scheme ||= 'HTTP';
}

function defaultFieldRef(ref: unknown): void {
  if (isPlainObject(ref)) ref.apiVersion ||= 'v1';
}

/** Quantities given as JSON numbers are kept as kube prints them: strings. */
function quantitiesAsStrings(list: unknown): void {
  if (!isPlainObject(list)) return;
  for (const [k, v] of Object.entries(list)) if (typeof v === 'number') list[k] = String(v);
}

function defaultContainer(c: Obj, hostNetwork: boolean): void {
  c.terminationMessagePath ||= '/dev/termination-log';
  c.terminationMessagePolicy ||= 'File';
  if (!c.imagePullPolicy)
    c.imagePullPolicy =
      imageTag(typeof c.image === 'string' ? c.image : '') === 'latest' ? 'Always' : 'IfNotPresent';
  for (const port of records(c.ports)) {
    port.protocol ||= 'TCP';
    if (hostNetwork && !port.hostPort) port.hostPort = port.containerPort;
  }
  for (const env of records(c.env)) {
    const from = objAt(env.valueFrom);
    defaultFieldRef(from.fieldRef);
  }
  for (const name of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(c[name]);
  if (isPlainObject(c.lifecycle)) {
    defaultHandler(c.lifecycle.postStart);
    defaultHandler(c.lifecycle.preStop);
  }
  if (isPlainObject(c.resources)) {
    const { limits, requests } = c.resources;
    quantitiesAsStrings(limits);
    quantitiesAsStrings(requests);
    // a limit without a request is also the request
    if (isPlainObject(limits) && Object.keys(limits).length > 0) {
      const req = child(c.resources, 'requests');
      for (const [name, value] of Object.entries(limits)) if (unset(req[name])) req[name] = value;
    }
  }
}

const volumeSources = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi',
  'glusterfs', 'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc',
  'azureFile', 'configMap', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected',
  'portworxVolume', 'scaleIO', 'storageos', 'csi', 'ephemeral', 'image',
]; // prettier-ignore

/** The sources a volume names (exactly one is valid). */
export const sourcesOf = (volume: Obj): string[] => volumeSources.filter((s) => !unset(volume[s]));

const defaultFileMode = 0o644;

function defaultVolume(v: Obj): void {
  // a volume without a source is an emptyDir
  if (sourcesOf(v).length === 0) v.emptyDir = {};
  for (const name of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    if (isPlainObject(v[name]) && unset(v[name].defaultMode)) v[name].defaultMode = defaultFileMode;
  }
  if (isPlainObject(v.hostPath) && unset(v.hostPath.type)) v.hostPath.type = '';
  for (const item of records(objAt(v.downwardAPI).items)) defaultFieldRef(item.fieldRef);
  for (const source of records(objAt(v.projected).sources)) {
    const token = source.serviceAccountToken;
    if (isPlainObject(token) && unset(token.expirationSeconds)) token.expirationSeconds = 3600;
    for (const item of records(objAt(source.downwardAPI).items)) defaultFieldRef(item.fieldRef);
  }
  if (isPlainObject(v.iscsi)) v.iscsi.iscsiInterface ||= 'default';
  if (isPlainObject(v.image)) {
    const ref = typeof v.image.reference === 'string' ? v.image.reference : '';
    v.image.pullPolicy ||= imageTag(ref) === 'latest' ? 'Always' : 'IfNotPresent';
  }
}

export function defaultPod(obj: KubeObject): void {
  if (!isPlainObject(obj.spec)) obj.spec = {};
  const spec = obj.spec as Obj;
  spec.dnsPolicy ||= 'ClusterFirst';
  spec.restartPolicy ||= 'Always';
  spec.schedulerName ||= 'default-scheduler';
  if (unset(spec.terminationGracePeriodSeconds)) spec.terminationGracePeriodSeconds = 30;
  if (unset(spec.enableServiceLinks)) spec.enableServiceLinks = true;
  child(spec, 'securityContext');
  // the deprecated alias follows the name (kube's conversion fills both)
  if (spec.serviceAccountName && !spec.serviceAccount) spec.serviceAccount = spec.serviceAccountName;
  else if (spec.serviceAccount && !spec.serviceAccountName) spec.serviceAccountName = spec.serviceAccount;
  for (const c of allContainers(spec)) defaultContainer(c, spec.hostNetwork === true);
  for (const v of records(spec.volumes)) defaultVolume(v);
  quantitiesAsStrings(spec.overhead);
}

/** kube's DefaultTolerationSeconds admission plugin, with its default flags (300 s each). */
const defaultTolerated = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];
export const defaultTolerationSeconds = 300;

/** As the plugin reads it: a toleration with this key or none, for NoExecute or every effect. */
function tolerates(tolerations: Obj[], key: string): boolean {
  return tolerations.some((t) => (t.effect === 'NoExecute' || !t.effect) && (t.key === key || !t.key));
}

export function addDefaultTolerations(obj: KubeObject): void {
  const spec = objAt(obj.spec);
  const tolerations = records(spec.tolerations);
  const added = defaultTolerated
    .filter((key) => !tolerates(tolerations, key))
    .map((key) => ({
      key,
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: defaultTolerationSeconds,
    }));
  if (added.length > 0) spec.tolerations = [...listAt(spec.tolerations), ...added];
}

/** The status a new pod starts with: Pending, and its quality of service class. */
export function initialStatus(obj: KubeObject): void {
  obj.status = { phase: 'Pending', qosClass: qosClass(objAt(obj.spec)) };
}
