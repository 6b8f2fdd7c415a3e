/**
 * core/v1 Pod validation with kube v1.32's field paths and messages (ValidatePodCreate's spec checks that
 * matter to clients: containers, volumes, resources, tolerations, node selection, DNS and restart policies,
 * seccomp). Checks of features pgkube does not run (hugepages, resource claims, AppArmor annotations, ...)
 * are left to the node that would run them.
 */
import { fieldError, type FieldError } from '../../api/index.js';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPortName,
  isValidPortNum,
  validateLabels,
} from '../../validation/index.js';
import { listAt, numAt, objAt, strAt, type Obj } from '../values.js';
import { sourcesOf } from './pod-defaults.js';
import { parseQuantity } from './pod-qos.js';
import { validatePodSeccomp } from './pod-seccomp.js';

const restartPolicies = ['Always', 'OnFailure', 'Never'];
const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const pullPolicies = ['Always', 'IfNotPresent', 'Never'];
const protocols = ['SCTP', 'TCP', 'UDP'];
const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const maxInt32 = 2147483647;

const dnsLabel = (path: string, value: string): FieldError[] =>
  isDNS1123Label(value).map((msg) => fieldError.invalid(path, value, msg));
const dnsSubdomain = (path: string, value: string): FieldError[] =>
  isDNS1123Subdomain(value).map((msg) => fieldError.invalid(path, value, msg));
const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** Objects of a list with their index, so paths keep kube's indices. */
const indexed = (v: unknown): [Obj, number][] => listAt(v).map((item, i) => [objAt(item), i]);

/** The names a container kind's list may hold, checked against every list seen so far. */
function validateContainerName(c: Obj, path: string, seen: Set<string>): FieldError[] {
  const name = strAt(c.name);
  if (name === '') return [fieldError.required(`${path}.name`)];
  const errors = dnsLabel(`${path}.name`, name);
  if (seen.has(name)) errors.push(fieldError.duplicate(`${path}.name`, name));
  seen.add(name);
  return errors;
}

function validatePorts(ports: unknown, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  for (const [port, i] of indexed(ports)) {
    const at = `${path}[${i}]`;
    const name = strAt(port.name);
    if (name !== '') {
      for (const msg of isValidPortName(name)) errors.push(fieldError.invalid(`${at}.name`, name, msg));
      if (names.has(name)) errors.push(fieldError.duplicate(`${at}.name`, name));
      names.add(name);
    }
    const containerPort = numAt(port.containerPort);
    if (containerPort === 0) errors.push(fieldError.required(`${at}.containerPort`));
    else
      for (const msg of isValidPortNum(containerPort))
        errors.push(fieldError.invalid(`${at}.containerPort`, containerPort, msg));
    const hostPort = numAt(port.hostPort);
    if (hostPort !== 0)
      for (const msg of isValidPortNum(hostPort))
        errors.push(fieldError.invalid(`${at}.hostPort`, hostPort, msg));
    const protocol = strAt(port.protocol);
    if (protocol === '') errors.push(fieldError.required(`${at}.protocol`));
    else if (!protocols.includes(protocol))
      errors.push(fieldError.notSupported(`${at}.protocol`, protocol, protocols));
  }
  return errors;
}

/** kube v1.32 (RelaxedEnvironmentVariableValidation on): printable ASCII without '='. */
function validateEnv(env: unknown, path: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const [e, i] of indexed(env)) {
    const at = `${path}[${i}]`;
    const name = strAt(e.name);
    if (name === '') errors.push(fieldError.required(`${at}.name`));
    else if (!/^[ -<>-~]+$/.test(name))
      errors.push(
        fieldError.invalid(
          `${at}.name`,
          name,
          "a valid environment variable name must consist only of printable ASCII characters other than '='",
        ),
      );
    if (isSet(e.valueFrom) && strAt(e.value) !== '')
      errors.push(
        fieldError.invalid(`${at}.valueFrom`, '', 'may not be specified when `value` is not empty'),
      );
  }
  return errors;
}

function validateVolumeMounts(mounts: unknown, path: string, volumes: Set<string>): FieldError[] {
  const errors: FieldError[] = [];
  const paths = new Set<string>();
  for (const [m, i] of indexed(mounts)) {
    const at = `${path}[${i}]`;
    const name = strAt(m.name);
    if (name === '') errors.push(fieldError.required(`${at}.name`));
    else if (!volumes.has(name)) errors.push({ type: 'NotFound', field: `${at}.name`, value: name });
    const mountPath = strAt(m.mountPath);
    if (mountPath === '') errors.push(fieldError.required(`${at}.mountPath`));
    else if (paths.has(mountPath))
      errors.push(fieldError.invalid(`${at}.mountPath`, mountPath, 'must be unique'));
    paths.add(mountPath);
  }
  return errors;
}

const standardContainerResource = (name: string): boolean =>
  ['cpu', 'memory', 'ephemeral-storage'].includes(name) || name.startsWith('hugepages-');

function validateResourceList(list: unknown, path: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(objAt(list))) {
    const at = `${path}[${name}]`;
    for (const msg of isQualifiedName(name)) errors.push(fieldError.invalid(at, name, msg));
    if (!name.includes('/') && !standardContainerResource(name))
      errors.push(fieldError.invalid(at, name, 'must be a standard resource for containers'));
    const q = parseQuantity(value);
    if (q && q.units < 0n)
      errors.push(fieldError.invalid(at, String(value), 'must be greater than or equal to 0'));
  }
  return errors;
}

function validateResources(resources: unknown, path: string): FieldError[] {
  const r = objAt(resources);
  const errors = [
    ...validateResourceList(r.limits, `${path}.limits`),
    ...validateResourceList(r.requests, `${path}.requests`),
  ];
  const limits = objAt(r.limits);
  for (const [name, value] of Object.entries(objAt(r.requests))) {
    const request = parseQuantity(value);
    const limit = parseQuantity(limits[name]);
    if (!request || !limit) continue;
    // extended resources (a domain in their name) cannot be overcommitted
    if (name.includes('/') && !name.startsWith('kubernetes.io/') && request.compare(limit) !== 0)
      errors.push(
        fieldError.invalid(
          `${path}.requests`,
          String(value),
          `must be equal to ${name} limit of ${String(limits[name])}`,
        ),
      );
    else if (request.compare(limit) > 0)
      errors.push(
        fieldError.invalid(
          `${path}.requests`,
          String(value),
          `must be less than or equal to ${name} limit of ${String(limits[name])}`,
        ),
      );
  }
  return errors;
}

function validateProbe(probe: unknown, path: string, mustSucceedOnce: boolean): FieldError[] {
  if (!isSet(probe)) return [];
  const p = objAt(probe);
  const errors: FieldError[] = [];
  const handlers = ['exec', 'httpGet', 'tcpSocket', 'grpc'].filter((h) => isSet(p[h]));
  if (handlers.length === 0) errors.push(fieldError.required(path, 'must specify a handler type'));
  else if (handlers.length > 1)
    errors.push(fieldError.forbidden(`${path}.${handlers[1]}`, 'may not specify more than 1 handler type'));
  if (mustSucceedOnce && isSet(p.successThreshold) && p.successThreshold !== 1)
    errors.push(fieldError.invalid(`${path}.successThreshold`, p.successThreshold, 'must be 1'));
  return errors;
}

type ContainerKind = 'containers' | 'initContainers' | 'ephemeralContainers';

function validateContainer(c: Obj, path: string, kind: ContainerKind, volumes: Set<string>): FieldError[] {
  const errors: FieldError[] = [];
  const image = strAt(c.image);
  if (image.trim() === '') errors.push(fieldError.required(`${path}.image`));
  else if (image !== image.trim())
    errors.push(fieldError.invalid(`${path}.image`, image, 'must not have leading or trailing whitespace'));
  const pull = strAt(c.imagePullPolicy);
  if (pull === '') errors.push(fieldError.required(`${path}.imagePullPolicy`));
  else if (!pullPolicies.includes(pull))
    errors.push(fieldError.notSupported(`${path}.imagePullPolicy`, pull, pullPolicies));
  const messagePolicy = strAt(c.terminationMessagePolicy);
  const messagePolicyRule = "must be 'File' or 'FallbackToLogsOnError'";
  if (messagePolicy === '')
    errors.push(fieldError.required(`${path}.terminationMessagePolicy`, messagePolicyRule));
  else if (!['File', 'FallbackToLogsOnError'].includes(messagePolicy))
    errors.push(fieldError.invalid(`${path}.terminationMessagePolicy`, messagePolicy, messagePolicyRule));
  errors.push(...validatePorts(c.ports, `${path}.ports`));
  errors.push(...validateEnv(c.env, `${path}.env`));
  errors.push(...validateVolumeMounts(c.volumeMounts, `${path}.volumeMounts`, volumes));
  errors.push(...validateResources(c.resources, `${path}.resources`));
  const sidecar = kind === 'initContainers' && c.restartPolicy === 'Always';
  if (isSet(c.restartPolicy)) {
    if (kind !== 'initContainers')
      errors.push(fieldError.forbidden(`${path}.restartPolicy`, 'may not be set for non-init containers'));
    else if (c.restartPolicy !== 'Always')
      errors.push(fieldError.notSupported(`${path}.restartPolicy`, c.restartPolicy, ['Always']));
  }
  for (const name of ['livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle']) {
    if (!isSet(c[name])) continue;
    if (kind === 'initContainers' && !sidecar)
      errors.push(
        fieldError.forbidden(
          `${path}.${name}`,
          'may not be set for init containers without restartPolicy=Always',
        ),
      );
    else if (name !== 'lifecycle')
      errors.push(...validateProbe(c[name], `${path}.${name}`, name !== 'readinessProbe'));
  }
  return errors;
}

function validateVolumes(volumes: unknown): { errors: FieldError[]; names: Set<string> } {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  for (const [v, i] of indexed(volumes)) {
    const at = `spec.volumes[${i}]`;
    const name = strAt(v.name);
    if (name === '') errors.push(fieldError.required(`${at}.name`));
    else {
      errors.push(...dnsLabel(`${at}.name`, name));
      if (names.has(name)) errors.push(fieldError.duplicate(`${at}.name`, name));
    }
    names.add(name);
    const sources = sourcesOf(v);
    if (sources.length === 0) errors.push(fieldError.required(at, 'must specify a volume type'));
    else if (sources.length > 1)
      errors.push(fieldError.forbidden(`${at}.${sources[1]}`, 'may not specify more than 1 volume type'));
  }
  return { errors, names };
}

/** kube's ValidateTolerations. */
export function validateTolerations(tolerations: unknown, path: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const [t, i] of indexed(tolerations)) {
    const at = `${path}[${i}]`;
    const key = strAt(t.key);
    const operator = strAt(t.operator);
    const effect = strAt(t.effect);
    if (key !== '')
      for (const msg of isQualifiedName(key)) errors.push(fieldError.invalid(`${at}.key`, key, msg));
    if (key === '' && operator !== 'Exists')
      errors.push(
        fieldError.invalid(
          `${at}.operator`,
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    if (isSet(t.tolerationSeconds) && effect !== 'NoExecute')
      errors.push(
        fieldError.invalid(
          `${at}.effect`,
          effect,
          "effect must be 'NoExecute' when `tolerationSeconds` is set",
        ),
      );
    if (operator === 'Equal' || operator === '') {
      const problems = isValidLabelValue(strAt(t.value));
      if (problems.length > 0)
        errors.push(fieldError.invalid(`${at}.operator`, strAt(t.value), problems.join(';')));
    } else if (operator === 'Exists') {
      if (strAt(t.value) !== '')
        errors.push(
          fieldError.invalid(`${at}.operator`, t, "value must be empty when `operator` is 'Exists'"),
        );
    } else errors.push(fieldError.notSupported(`${at}.operator`, operator, ['Equal', 'Exists']));
    if (effect !== '' && !taintEffects.includes(effect))
      errors.push(fieldError.notSupported(`${at}.effect`, effect, taintEffects));
  }
  return errors;
}

/** The containers of all three kinds, with one name space across them (as kube checks them). */
function validateAllContainers(spec: Obj, volumes: Set<string>): FieldError[] {
  const errors: FieldError[] = [];
  if (listAt(spec.containers).length === 0) errors.push(fieldError.required('spec.containers'));
  const seen = new Set<string>();
  for (const kind of ['initContainers', 'containers', 'ephemeralContainers'] as const) {
    for (const [c, i] of indexed(spec[kind])) {
      const path = `spec.${kind}[${i}]`;
      errors.push(...validateContainerName(c, path, seen));
      errors.push(...validateContainer(c, path, kind, volumes));
    }
  }
  return errors;
}

/** The spec checks of a pod; `creating` adds those only a create makes. */
export function validatePodSpec(spec: Obj, creating: boolean): FieldError[] {
  const volumes = validateVolumes(spec.volumes);
  const errors = [...volumes.errors, ...validateAllContainers(spec, volumes.names)];
  if (creating && listAt(spec.ephemeralContainers).length > 0)
    errors.push(fieldError.forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  const restartPolicy = strAt(spec.restartPolicy);
  if (restartPolicy === '') errors.push(fieldError.required('spec.restartPolicy'));
  else if (!restartPolicies.includes(restartPolicy))
    errors.push(fieldError.notSupported('spec.restartPolicy', restartPolicy, restartPolicies));
  const dnsPolicy = strAt(spec.dnsPolicy);
  if (dnsPolicy === '') errors.push(fieldError.required('spec.dnsPolicy'));
  else if (!dnsPolicies.includes(dnsPolicy))
    errors.push(fieldError.notSupported('spec.dnsPolicy', dnsPolicy, dnsPolicies));
  if (dnsPolicy === 'None' && !isSet(spec.dnsConfig))
    errors.push(fieldError.required('spec.dnsConfig', 'must provide `dnsConfig` when `dnsPolicy` is None'));
  errors.push(...validateLabels(spec.nodeSelector, 'spec.nodeSelector'));
  errors.push(...validateTolerations(spec.tolerations, 'spec.tolerations'));
  if (strAt(spec.serviceAccountName) !== '')
    errors.push(...dnsSubdomain('spec.serviceAccountName', strAt(spec.serviceAccountName)));
  if (strAt(spec.nodeName) !== '') errors.push(...dnsSubdomain('spec.nodeName', strAt(spec.nodeName)));
  if (strAt(spec.hostname) !== '') errors.push(...dnsLabel('spec.hostname', strAt(spec.hostname)));
  if (strAt(spec.subdomain) !== '') errors.push(...dnsLabel('spec.subdomain', strAt(spec.subdomain)));
  if (isSet(spec.activeDeadlineSeconds)) {
    const value = numAt(spec.activeDeadlineSeconds);
    if (value < 1 || value > maxInt32)
      errors.push(
        fieldError.invalid(
          'spec.activeDeadlineSeconds',
          value,
          `must be between 1 and ${maxInt32}, inclusive`,
        ),
      );
  }
  errors.push(...validatePodSeccomp(spec));
  return errors;
}
