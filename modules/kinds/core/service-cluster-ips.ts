/**
 * A Service's cluster IPs and IP families, with kube v1.32's paths and messages: their consistency on every write
 * (ValidateServiceClusterIPsRelatedFields) and what an update may not change of them. Go's %#v forms of the
 * values are kube's, as its messages print them.
 */
import { fieldError, type FieldError } from '../../api/index.js';
import { isIPv6String, isValidIP } from '../../validation/index.js';
import { listAt, objAt, strAt, type Obj } from '../values.js';

export const clusterIPNone = 'None';
const ipFamilyNames = ['IPv4', 'IPv6'];
const ipFamilyPolicies = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];

export const specOf = (svc: Obj): Obj => objAt(svc.spec);
export const typeOf = (svc: Obj): string => strAt(specOf(svc).type);

/** Go's %#v of a []string as kube prints a bad clusterIPs value. */
export function goStrings(v: unknown): string {
  if (!Array.isArray(v)) return '[]string(nil)';
  return `[]string{${v.map((s) => JSON.stringify(strAt(s))).join(', ')}}`;
}

/** Go's %#v of an ipFamilies value. */
const goFamilies = (v: string[]): string => `[]core.IPFamily{${v.map((s) => JSON.stringify(s)).join(', ')}}`;

export function isHeadless(svc: Obj): boolean {
  const ips = listAt(specOf(svc).clusterIPs);
  return ips.length === 1 && ips[0] === clusterIPNone;
}

/** clusterIP, clusterIPs, ipFamilies and ipFamilyPolicy together (kube's ValidateServiceClusterIPsRelatedFields). */
export function validateClusterIPsRelatedFields(svc: Obj): FieldError[] {
  const spec = specOf(svc);
  if (spec.type === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const clusterIP = strAt(spec.clusterIP);
  const clusterIPs = listAt(spec.clusterIPs).map(strAt);
  const families = listAt(spec.ipFamilies).map(strAt);
  if (clusterIP) {
    if (clusterIPs.length === 0) errs.push(fieldError.required('spec.clusterIPs'));
    else if (clusterIPs[0] !== clusterIP) {
      errs.push({
        ...fieldError.invalid('spec.clusterIPs', clusterIPs, 'first value must match `clusterIP`'),
        valueText: goStrings(clusterIPs),
      });
    }
  } else if (clusterIPs.length > 0) {
    errs.push({
      ...fieldError.invalid('spec.clusterIPs', clusterIPs, 'must be empty when `clusterIP` is not specified'),
      valueText: goStrings(clusterIPs),
    });
  }
  const seen = new Set<string>();
  families.forEach((family, i) => {
    if (!ipFamilyNames.includes(family))
      errs.push(fieldError.notSupported(`spec.ipFamilies[${i}]`, family, ipFamilyNames));
    if (seen.has(family)) errs.push(fieldError.duplicate(`spec.ipFamilies[${i}]`, family));
    seen.add(family);
  });
  if (spec.ipFamilyPolicy != null && !ipFamilyPolicies.includes(strAt(spec.ipFamilyPolicy))) {
    errs.push(fieldError.notSupported('spec.ipFamilyPolicy', spec.ipFamilyPolicy, ipFamilyPolicies));
  }
  let invalidIPs = false;
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === clusterIPNone) {
      if (clusterIPs.length > 1) {
        invalidIPs = true;
        errs.push({
          ...fieldError.invalid('spec.clusterIPs', clusterIPs, "'None' must be the first and only value"),
          valueText: goStrings(clusterIPs),
        });
      }
      return;
    }
    const bad = isValidIP(`spec.clusterIPs[${i}]`, ip);
    if (bad.length > 0) invalidIPs = true;
    errs.push(...bad);
  });
  if (clusterIPs.length > 2) {
    errs.push({
      ...fieldError.invalid('spec.clusterIPs', clusterIPs, 'may only hold up to 2 values'),
      valueText: goStrings(clusterIPs),
    });
  }
  if (invalidIPs) return errs;
  if (clusterIPs.length > 1 && isIPv6String(clusterIPs[0]) === isIPv6String(clusterIPs[1])) {
    errs.push({
      ...fieldError.invalid(
        'spec.clusterIPs',
        clusterIPs,
        'may specify no more than one IP for each IP family',
      ),
      valueText: goStrings(clusterIPs),
    });
  }
  if (!isHeadless(svc)) {
    clusterIPs.slice(0, families.length).forEach((ip, i) => {
      const v6 = isIPv6String(ip);
      if (families[i] === 'IPv4' && v6) {
        errs.push(
          fieldError.invalid(
            `spec.clusterIPs[${i}]`,
            ip,
            `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``,
          ),
        );
      }
      if (families[i] === 'IPv6' && !v6) {
        errs.push(
          fieldError.invalid(
            `spec.clusterIPs[${i}]`,
            ip,
            `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``,
          ),
        );
      }
    });
  }
  return errs;
}

export function validateClusterIPsChange(old: Obj, svc: Obj): FieldError[] {
  if (typeOf(svc) === 'ExternalName' || typeOf(old) === 'ExternalName') return [];
  if (isHeadless(old) && isHeadless(svc)) return [];
  const before = listAt(specOf(old).clusterIPs).map(strAt);
  const after = listAt(specOf(svc).clusterIPs).map(strAt);
  const value = specOf(svc).clusterIPs;
  const bad = (path: string, detail: string): FieldError => ({
    ...fieldError.invalid(path, value, detail),
    valueText: goStrings(value),
  });
  const errs: FieldError[] = [];
  if (before.length === after.length) {
    before.forEach((ip, i) => {
      if (ip !== after[i]) errs.push(bad(`spec.clusterIPs[${i}]`, 'may not change once set'));
    });
  } else if (before.length > after.length) {
    if (after.length === 0) errs.push(bad('spec.clusterIPs[0]', 'primary clusterIP can not be unset'));
    if (before.length > 0 && after.length > 0 && after[0] !== before[0])
      errs.push(bad('spec.clusterIPs[0]', 'may not change once set'));
    if (after.length === 1 && specOf(svc).ipFamilyPolicy !== 'SingleStack') {
      errs.push(
        fieldError.invalid(
          'spec.ipFamilyPolicy',
          specOf(svc).ipFamilyPolicy ?? null,
          "must be set to 'SingleStack' when releasing the secondary clusterIP",
        ),
      );
    }
  } else if (before.length > 0 && after[0] !== before[0]) {
    errs.push(bad('spec.clusterIPs[0]', 'may not change once set'));
  }
  return errs;
}

export function validateIPFamiliesChange(old: Obj, svc: Obj): FieldError[] {
  if (typeOf(svc) === 'ExternalName' || typeOf(old) === 'ExternalName') return [];
  if (isHeadless(old) || isHeadless(svc)) return [];
  const before = listAt(specOf(old).ipFamilies).map(strAt);
  const after = listAt(specOf(svc).ipFamilies).map(strAt);
  const path = 'spec.ipFamilies[0]';
  // kube reports a changed primary family of a grown or shrunk list with the clusterIPs as the value
  const clusterIPs = specOf(svc).clusterIPs;
  const errs: FieldError[] = [];
  if (before.length === after.length) {
    before.forEach((f, i) => {
      if (f !== after[i])
        errs.push({
          ...fieldError.invalid(path, after, 'may not change once set'),
          valueText: goFamilies(after),
        });
    });
  } else if (before.length > after.length) {
    if (listAt(specOf(svc).clusterIPs).length === 0)
      errs.push({
        ...fieldError.invalid(path, after, 'primary ipFamily can not be unset'),
        valueText: goFamilies(after),
      });
    if (after.length > 0 && after[0] !== before[0])
      errs.push({
        ...fieldError.invalid(path, clusterIPs, 'may not change once set'),
        valueText: goStrings(clusterIPs),
      });
    if (after.length === 1 && specOf(svc).ipFamilyPolicy !== 'SingleStack') {
      errs.push(
        fieldError.invalid(
          'spec.ipFamilyPolicy',
          specOf(svc).ipFamilyPolicy ?? null,
          "must be set to 'SingleStack' when releasing the secondary ipFamily",
        ),
      );
    }
  } else if (before.length > 0 && after.length > 0 && after[0] !== before[0]) {
    errs.push({
      ...fieldError.invalid(path, clusterIPs, 'may not change once set'),
      valueText: goStrings(clusterIPs),
    });
  }
  return errs;
}
