/**
 * KubeletConfiguration (kubelet.config.k8s.io/v1beta1) files, YAML or JSON, read as the kubelet reads them: the
 * fields pgkube's node agent uses are type-checked, the kubelet's other fields are accepted and ignored, and a
 * field v1beta1 does not have is what the kubelet's strict decoding refuses, after which it falls back to
 * lenient decoding of v1beta1 with a logged warning: a warning naming the field and the file here too. A value
 * of the wrong type is an error naming both. Defaults are v1beta1's (SetDefaults_KubeletConfiguration), which
 * differ from the kubelet's legacy flag defaults: anonymous access off, webhook authentication on, authorization
 * mode Webhook.
 */
import { parse } from 'yaml';
import { goDurationMs } from './config-duration.js';
import type { Json } from './config-merge.js';

export const KUBELET_API_VERSION = 'kubelet.config.k8s.io/v1beta1';
export const KUBELET_KIND = 'KubeletConfiguration';

type JsonObject = { [key: string]: Json };

/** How a field is checked: the fields the agent reads have a type; `ignored` ones are the kubelet's, unread here. */
type Field = 'string' | 'int32' | 'bool' | 'duration' | 'boolMap' | 'ignored' | { [key: string]: Field };

/** v1beta1's fields in 1.32; those the agent does not use are accepted as the kubelet accepts them, and ignored */
const ignoredFields = [
  'enableServer',
  'staticPodPath',
  'podLogsDir',
  'syncFrequency',
  'fileCheckFrequency',
  'httpCheckFrequency',
  'staticPodURL',
  'staticPodURLHeader',
  'readOnlyPort',
  'tlsCipherSuites',
  'tlsMinVersion',
  'rotateCertificates',
  'serverTLSBootstrap',
  'registryPullQPS',
  'registryBurst',
  'eventRecordQPS',
  'eventBurst',
  'enableDebuggingHandlers',
  'enableContentionProfiling',
  'healthzPort',
  'healthzBindAddress',
  'oomScoreAdj',
  'clusterDomain',
  'clusterDNS',
  'streamingConnectionIdleTimeout',
  'imageMinimumGCAge',
  'imageMaximumGCAge',
  'imageGCHighThresholdPercent',
  'imageGCLowThresholdPercent',
  'volumeStatsAggPeriod',
  'kubeletCgroups',
  'systemCgroups',
  'cgroupRoot',
  'cgroupsPerQOS',
  'cgroupDriver',
  'cpuManagerPolicy',
  'singleProcessOOMKill',
  'cpuManagerPolicyOptions',
  'cpuManagerReconcilePeriod',
  'memoryManagerPolicy',
  'topologyManagerPolicy',
  'topologyManagerScope',
  'topologyManagerPolicyOptions',
  'qosReserved',
  'hairpinMode',
  'podCIDR',
  'podPidsLimit',
  'resolvConf',
  'runOnce',
  'cpuCFSQuota',
  'cpuCFSQuotaPeriod',
  'nodeStatusMaxImages',
  'maxOpenFiles',
  'contentType',
  'kubeAPIQPS',
  'kubeAPIBurst',
  'serializeImagePulls',
  'maxParallelImagePulls',
  'evictionHard',
  'evictionSoft',
  'evictionSoftGracePeriod',
  'evictionPressureTransitionPeriod',
  'evictionMaxPodGracePeriod',
  'evictionMinimumReclaim',
  'podsPerCore',
  'enableControllerAttachDetach',
  'protectKernelDefaults',
  'makeIPTablesUtilChains',
  'iptablesMasqueradeBit',
  'iptablesDropBit',
  'failSwapOn',
  'memorySwap',
  'containerLogMaxSize',
  'containerLogMaxFiles',
  'containerLogMaxWorkers',
  'containerLogMonitorInterval',
  'configMapAndSecretChangeDetectionStrategy',
  'systemReserved',
  'kubeReserved',
  'reservedSystemCPUs',
  'showHiddenMetricsForVersion',
  'systemReservedCgroup',
  'kubeReservedCgroup',
  'enforceNodeAllocatable',
  'allowedUnsafeSysctls',
  'volumePluginDir',
  'providerID',
  'kernelMemcgNotification',
  'logging',
  'enableSystemLogHandler',
  'enableSystemLogQuery',
  'shutdownGracePeriod',
  'shutdownGracePeriodCriticalPods',
  'shutdownGracePeriodByPodPriority',
  'crashLoopBackOff',
  'reservedMemory',
  'enableProfilingHandler',
  'enableDebugFlagsHandler',
  'seccompDefault',
  'memoryThrottlingFactor',
  'registerWithTaints',
  'registerNode',
  'tracing',
  'localStorageCapacityIsolation',
  'imageServiceEndpoint',
  'failCgroupV1',
  'userNamespaces',
] as const;

const schema: { [key: string]: Field } = {
  apiVersion: 'string',
  kind: 'string',
  address: 'string',
  port: 'int32',
  tlsCertFile: 'string',
  tlsPrivateKeyFile: 'string',
  authentication: {
    x509: { clientCAFile: 'string' },
    webhook: { enabled: 'bool', cacheTTL: 'duration' },
    anonymous: { enabled: 'bool' },
  },
  authorization: {
    mode: 'string',
    webhook: { cacheAuthorizedTTL: 'duration', cacheUnauthorizedTTL: 'duration' },
  },
  nodeStatusUpdateFrequency: 'duration',
  nodeStatusReportFrequency: 'duration',
  nodeLeaseDurationSeconds: 'int32',
  runtimeRequestTimeout: 'duration',
  maxPods: 'int32',
  featureGates: 'boolMap',
  containerRuntimeEndpoint: 'string',
  ...Object.fromEntries(ignoredFields.map((f) => [f, 'ignored' as const])),
};

export class KubeletConfigError extends Error {}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Go's json error for a value of the wrong type, with the file and the field's path. */
function wrongType(file: string, path: string, want: string, got: Json): KubeletConfigError {
  const what = Array.isArray(got) ? 'array' : got === null ? 'null' : typeof got;
  return new KubeletConfigError(`${file}: ${path}: cannot unmarshal ${what} into a field of type ${want}`);
}

/** Checks `value` against `field`; unknown fields go to `unknown` as dotted paths. */
function check(file: string, path: string, field: Field, value: Json, unknown: string[]): void {
  // a null is Go's zero value: the field is as if unset
  if (value === null || field === 'ignored') return;
  switch (field) {
    case 'string':
      if (typeof value !== 'string') throw wrongType(file, path, 'string', value);
      return;
    case 'bool':
      if (typeof value !== 'boolean') throw wrongType(file, path, 'bool', value);
      return;
    case 'int32':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 31)
        throw wrongType(file, path, 'int32', value);
      return;
    case 'duration':
      if (typeof value !== 'string') throw wrongType(file, path, 'metav1.Duration (a string)', value);
      if (goDurationMs(value) === undefined)
        throw new KubeletConfigError(`${file}: ${path}: time: invalid duration ${JSON.stringify(value)}`);
      return;
    case 'boolMap':
      if (!isObject(value)) throw wrongType(file, path, 'map[string]bool', value);
      for (const [k, v] of Object.entries(value))
        if (typeof v !== 'boolean') throw wrongType(file, `${path}[${k}]`, 'bool', v);
      return;
    default:
      if (!isObject(value)) throw wrongType(file, path, 'object', value);
      for (const [k, v] of Object.entries(value)) {
        const sub = Object.hasOwn(field, k) ? field[k] : undefined;
        const at = path ? `${path}.${k}` : k;
        if (sub === undefined) unknown.push(at);
        else check(file, at, sub, v, unknown);
      }
  }
}

/** A file's document: JSON is YAML, so one parser reads both. */
function parseDocument(text: string, file: string): JsonObject {
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 100 });
  } catch (e) {
    throw new KubeletConfigError(`${file}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  }
  if (!isObject(doc)) throw new KubeletConfigError(`${file}: not a KubeletConfiguration object`);
  return doc;
}

export interface DecodedConfig {
  /** the document, as JSON, unknown fields dropped */
  json: JsonObject;
  /** what the kubelet's lenient fallback logs */
  warnings: string[];
}

/**
 * One KubeletConfiguration file's text, checked. apiVersion and kind must be v1beta1's: the main file is decoded
 * by kind, and the kubelet refuses a drop-in without them or with others.
 */
export function decodeKubeletConfiguration(text: string, file: string): DecodedConfig {
  const doc = parseDocument(text, file);
  if (!doc.apiVersion || !doc.kind)
    throw new KubeletConfigError(
      `${file}: no apiVersion/kind (want ${KUBELET_API_VERSION}, ${KUBELET_KIND})`,
    );
  if (doc.apiVersion !== KUBELET_API_VERSION || doc.kind !== KUBELET_KIND)
    throw new KubeletConfigError(
      `${file}: unknown apiVersion/kind: ${String(doc.apiVersion)}, Kind=${String(doc.kind)}`,
    );
  const unknown: string[] = [];
  check(file, '', schema, doc, unknown);
  const json = structuredClone(doc) as JsonObject;
  for (const path of unknown) {
    const keys = path.split('.');
    let at: Json = json;
    for (const k of keys.slice(0, -1)) at = (at as JsonObject)[k];
    delete (at as JsonObject)[keys.at(-1)!];
  }
  const warnings = unknown.map(
    (f) => `${file}: strict decoding error: unknown field "${f}"; the field is ignored (lenient decoding)`,
  );
  return { json, warnings };
}

function objectAt(json: JsonObject, ...keys: string[]): JsonObject {
  let at = json;
  for (const k of keys) {
    if (!isObject(at[k])) at[k] = {};
    at = at[k] as JsonObject;
  }
  return at;
}

const zeroDuration = (v: Json | undefined) => typeof v !== 'string' || goDurationMs(v) === 0;
const unset = (v: Json | undefined) => v === undefined || v === null || v === '' || v === 0;

/** v1beta1's defaults of the fields the agent reads (kube's SetDefaults_KubeletConfiguration): zero means unset. */
export function withDefaults(config: JsonObject): JsonObject {
  const c = structuredClone(config);
  c.apiVersion = KUBELET_API_VERSION;
  c.kind = KUBELET_KIND;
  if (unset(c.address)) c.address = '0.0.0.0';
  if (unset(c.port)) c.port = 10250;
  const anonymous = objectAt(c, 'authentication', 'anonymous');
  if (typeof anonymous.enabled !== 'boolean') anonymous.enabled = false;
  const authnWebhook = objectAt(c, 'authentication', 'webhook');
  if (typeof authnWebhook.enabled !== 'boolean') authnWebhook.enabled = true;
  if (zeroDuration(authnWebhook.cacheTTL)) authnWebhook.cacheTTL = '2m0s';
  objectAt(c, 'authentication', 'x509');
  const authorization = objectAt(c, 'authorization');
  if (unset(authorization.mode)) authorization.mode = 'Webhook';
  const authzWebhook = objectAt(c, 'authorization', 'webhook');
  if (zeroDuration(authzWebhook.cacheAuthorizedTTL)) authzWebhook.cacheAuthorizedTTL = '5m0s';
  if (zeroDuration(authzWebhook.cacheUnauthorizedTTL)) authzWebhook.cacheUnauthorizedTTL = '30s';
  // kept for old configurations: an update frequency set alone is also the report frequency
  if (zeroDuration(c.nodeStatusReportFrequency))
    c.nodeStatusReportFrequency = zeroDuration(c.nodeStatusUpdateFrequency)
      ? '5m0s'
      : c.nodeStatusUpdateFrequency;
  if (zeroDuration(c.nodeStatusUpdateFrequency)) c.nodeStatusUpdateFrequency = '10s';
  if (unset(c.nodeLeaseDurationSeconds)) c.nodeLeaseDurationSeconds = 40;
  if (zeroDuration(c.runtimeRequestTimeout)) c.runtimeRequestTimeout = '2m0s';
  if (unset(c.maxPods)) c.maxPods = 110;
  if (!isObject(c.featureGates)) c.featureGates = {};
  return c;
}
