/** A CRD's names (spec.names and status.acceptedNames) with kube's rules and messages. */
import { fieldError, type FieldError } from '../../api/index.js';
import { isDNS1035Label } from '../../validation/index.js';
import type { CRDNames } from './types.js';

const mixedCase = 'may have mixed case, but should otherwise match: ';

export function validateNames(names: CRDNames | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const n = names ?? {};
  for (const name of ['plural', 'singular'] as const) {
    const v = n[name] ?? '';
    const bad = v ? isDNS1035Label(v) : [];
    if (bad.length > 0) errs.push(fieldError.invalid(`${path}.${name}`, v, bad.join(',')));
  }
  for (const name of ['kind', 'listKind'] as const) {
    const v = n[name] ?? '';
    const bad = v ? isDNS1035Label(v.toLowerCase()) : [];
    if (bad.length > 0) errs.push(fieldError.invalid(`${path}.${name}`, v, mixedCase + bad.join(',')));
  }
  (n.shortNames ?? []).forEach((s, i) => {
    const bad = isDNS1035Label(s);
    if (bad.length > 0) errs.push(fieldError.invalid(`${path}.shortNames[${i}]`, s, bad.join(',')));
  });
  // a list and an item of the same kind could not be told apart
  if (n.kind && n.kind === n.listKind)
    errs.push(fieldError.invalid(`${path}.listKind`, n.listKind, 'kind and listKind may not be the same'));
  (n.categories ?? []).forEach((c, i) => {
    const bad = isDNS1035Label(c);
    if (bad.length > 0) errs.push(fieldError.invalid(`${path}.categories[${i}]`, c, bad.join(',')));
  });
  return errs;
}

/** spec.names needs all four names (singular and listKind are defaulted from kind before). */
export function requiredNames(names: CRDNames | undefined, path: string): FieldError[] {
  const n = names ?? {};
  return (['plural', 'singular', 'kind', 'listKind'] as const)
    .filter((k) => !n[k])
    .map((k) => fieldError.required(`${path}.${k}`, ''));
}
