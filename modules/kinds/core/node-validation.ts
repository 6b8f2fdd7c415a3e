/**
 * kube's Node validation (ValidateNode, ValidateNodeUpdate): taints, pod CIDRs, resource quantities, addresses
 * and the fields an update may not change, with kube's field paths and messages. Taint errors sit under
 * `metadata.taints`, as kube reports them.
 */
import { fieldError, type FieldError, type KubeObject } from '../../api/index.js';
import { Quantity } from '../../cel/index.js';
import { isQualifiedName, isValidCIDR, isValidLabelValue } from '../../validation/index.js';
import { listAt, objAt, strAt, type Obj } from '../values.js';

export const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

const spec = (node: KubeObject): Obj => objAt(node.spec);
const status = (node: KubeObject): Obj => objAt(node.status);
const goString = (v: unknown) => JSON.stringify(strAt(v));
const goStrings = (list: unknown[]) => `[]string{${list.map(goString).join(', ')}}`;

function taintText(t: Obj): string {
  const time = t.timeAdded ? '(*v1.Time)(…)' : '<nil>';
  return `core.Taint{Key:${goString(t.key)}, Value:${goString(t.value)}, Effect:${goString(t.effect)}, TimeAdded:${time}}`;
}

export function validateTaints(taints: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  taints.map(objAt).forEach((t, i) => {
    const at = `${path}[${i}]`;
    const key = strAt(t.key);
    for (const msg of isQualifiedName(key)) errs.push(fieldError.invalid(`${at}.key`, key, msg));
    const value = strAt(t.value);
    const valueErrs = isValidLabelValue(value);
    if (valueErrs.length > 0) errs.push(fieldError.invalid(`${at}.value`, value, valueErrs.join(';')));
    const effect = strAt(t.effect);
    if (!effect) errs.push(fieldError.required(`${at}.effect`));
    else if (!taintEffects.includes(effect))
      errs.push(fieldError.notSupported(`${at}.effect`, effect, taintEffects));
    const id = `${effect}\0${key}`;
    if (seen.has(id)) {
      errs.push({
        type: 'Duplicate',
        field: at,
        valueText: taintText(t),
        detail: 'taints must be unique by key and effect pair',
      });
      return;
    }
    seen.add(id);
  });
  return errs;
}

/** Resources counted in whole units: kube's standard integer resources and extended (vendor-prefixed) ones. */
const integerResources = new Set([
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);

function isExtendedResource(name: string): boolean {
  const native = !name.includes('/') || name.includes('kubernetes.io/');
  if (native || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

function validateResourceList(list: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [name, raw] of Object.entries(objAt(list))) {
    const text = typeof raw === 'number' ? String(raw) : strAt(raw);
    let q: Quantity;
    try {
      q = Quantity.parse(text);
    } catch {
      continue; // the schema refused it already
    }
    const at = `${path}[${name}]`;
    if (q.units < 0n) errs.push(fieldError.invalid(at, text, 'must be greater than or equal to 0'));
    if ((integerResources.has(name) || isExtendedResource(name)) && !q.isInteger)
      errs.push(fieldError.invalid(at, text, 'must be an integer'));
  }
  return errs;
}

function validateResources(node: KubeObject): FieldError[] {
  return [
    ...validateResourceList(status(node).capacity, 'status.capacity'),
    ...validateResourceList(status(node).allocatable, 'status.allocatable'),
  ];
}

const isIPv6CIDR = (cidr: string) => cidr.slice(0, cidr.indexOf('/')).includes(':');

function validatePodCIDRs(node: KubeObject): FieldError[] {
  const cidrs = listAt(spec(node).podCIDRs).map(strAt);
  if (cidrs.length === 0) return [];
  const path = 'spec.podCIDRs';
  const errs: FieldError[] = [];
  let allValid = true;
  cidrs.forEach((cidr, i) => {
    if (isValidCIDR(path, cidr).length === 0) return;
    allValid = false;
    errs.push({
      type: 'Invalid',
      field: `${path}[${i}]`,
      valueText: goStrings(cidrs),
      detail: 'must be valid CIDR',
    });
  });
  if (cidrs.length > 1 && allValid) {
    const families = new Set(cidrs.map(isIPv6CIDR));
    if (families.size < 2 || cidrs.length > 2) {
      errs.push({
        type: 'Invalid',
        field: path,
        valueText: goStrings(cidrs),
        detail: 'may specify no more than one CIDR for each IP family',
      });
    }
    const seen = new Set<string>();
    cidrs.forEach((cidr, i) => {
      if (seen.has(cidr)) errs.push(fieldError.duplicate(`${path}[${i}]`, cidr));
      seen.add(cidr);
    });
  }
  return errs;
}

/** kube's ValidateNode: what a create must satisfy (object metadata is checked generically). */
export function validateNode(node: KubeObject): FieldError[] {
  return [
    ...validateTaints(listAt(spec(node).taints), 'metadata.taints'),
    ...validateResources(node),
    ...validatePodCIDRs(node),
  ];
}

const changeForbidden = (what: string) => `node updates may not change ${what} except from "" to valid`;

/** What only an update checks: unique addresses, and the spec fields set once. */
export function validateNodeChange(node: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  listAt(status(node).addresses)
    .map(objAt)
    .forEach((a, i) => {
      const id = `${strAt(a.type)}\0${strAt(a.address)}`;
      if (seen.has(id)) {
        errs.push({
          type: 'Duplicate',
          field: `status.addresses[${i}]`,
          valueText: `core.NodeAddress{Type:${goString(a.type)}, Address:${goString(a.address)}}`,
        });
      }
      seen.add(id);
    });
  // a node's pod ranges and provider id are set once (by the IPAM and cloud controllers), then kept
  const oldCIDRs = listAt(spec(old).podCIDRs).map(strAt);
  const newCIDRs = listAt(spec(node).podCIDRs).map(strAt);
  const cidrChange = fieldError.forbidden('spec.podCIDRs', changeForbidden('podCIDR'));
  if (oldCIDRs.length > 0 && oldCIDRs.length !== newCIDRs.length) errs.push(cidrChange);
  else if (oldCIDRs.length > 0) oldCIDRs.forEach((c, i) => c !== newCIDRs[i] && errs.push({ ...cidrChange }));
  const oldProvider = strAt(spec(old).providerID);
  if (oldProvider && oldProvider !== strAt(spec(node).providerID))
    errs.push(fieldError.forbidden('spec.providerID', changeForbidden('providerID')));
  if (strAt(spec(node).externalID) !== strAt(spec(old).externalID))
    errs.push(fieldError.forbidden('spec.externalID', 'may not be updated'));
  return errs;
}

/** kube's ValidateNodeUpdate, what a status write must satisfy: resources, the update rules, taints. */
export function validateNodeUpdate(node: KubeObject, old: KubeObject): FieldError[] {
  return [
    ...validateResources(node),
    ...validateNodeChange(node, old),
    ...validateTaints(listAt(spec(node).taints), 'metadata.taints'),
  ];
}
