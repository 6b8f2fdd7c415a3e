/** kube's RBAC validation (rules, subjects, roleRef) with its field paths and messages. */
import {
  ApiError,
  fieldError,
  isPlainObject,
  labelSelectorFromMeta,
  type FieldError,
  type KubeObject,
  type MetaLabelSelector,
} from '../../api/index.js';
import { isValidPathSegmentName, nameIsDNSSubdomain } from '../../validation/index.js';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export function validateRules(rules: unknown, namespaced: boolean): FieldError[] {
  return list(rules).flatMap((rule, i) =>
    validateRule(isPlainObject(rule) ? rule : {}, namespaced, `rules[${i}]`),
  );
}

function validateRule(rule: Record<string, unknown>, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (list(rule.verbs).length === 0)
    errs.push(fieldError.required(`${path}.verbs`, 'verbs must contain at least one value'));
  const urls = list(rule.nonResourceURLs);
  if (urls.length > 0) {
    if (namespaced)
      errs.push(
        fieldError.invalid(
          `${path}.nonResourceURLs`,
          urls,
          'namespaced rules cannot apply to non-resource URLs',
        ),
      );
    if (
      list(rule.apiGroups).length > 0 ||
      list(rule.resources).length > 0 ||
      list(rule.resourceNames).length > 0
    )
      errs.push(
        fieldError.invalid(
          `${path}.nonResourceURLs`,
          urls,
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      );
    return errs;
  }
  if (list(rule.apiGroups).length === 0)
    errs.push(fieldError.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (list(rule.resources).length === 0)
    errs.push(fieldError.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  return errs;
}

export function validateAggregationRule(rule: unknown): FieldError[] {
  if (rule === undefined || rule === null) return [];
  const selectors = isPlainObject(rule) ? list(rule.clusterRoleSelectors) : [];
  if (selectors.length === 0)
    return [
      fieldError.required(
        'aggregationRule.clusterRoleSelectors',
        'at least one clusterRoleSelector required if aggregationRule is non-nil',
      ),
    ];
  const errs: FieldError[] = [];
  selectors.forEach((s, i) => {
    try {
      labelSelectorFromMeta(s as MetaLabelSelector);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      errs.push(fieldError.invalid(`aggregationRule.clusterRoleSelectors[${i}]`, s, e.message));
    }
  });
  return errs;
}

export function validateRoleRef(ref: unknown, clusterBinding: boolean): FieldError[] {
  const r = isPlainObject(ref) ? ref : {};
  const errs: FieldError[] = [];
  if (r.apiGroup !== RBAC_GROUP)
    errs.push(fieldError.notSupported('roleRef.apiGroup', r.apiGroup ?? '', [RBAC_GROUP]));
  const kinds = clusterBinding ? ['ClusterRole'] : ['Role', 'ClusterRole'];
  if (!kinds.includes(r.kind as string))
    errs.push(fieldError.notSupported('roleRef.kind', r.kind ?? '', kinds));
  const name = typeof r.name === 'string' ? r.name : '';
  if (!name) errs.push(fieldError.required('roleRef.name'));
  else
    for (const msg of isValidPathSegmentName(name)) errs.push(fieldError.invalid('roleRef.name', name, msg));
  return errs;
}

export function validateSubjects(subjects: unknown, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  list(subjects).forEach((raw, i) => {
    const s = isPlainObject(raw) ? raw : {};
    const path = `subjects[${i}]`;
    const name = typeof s.name === 'string' ? s.name : '';
    const apiGroup = typeof s.apiGroup === 'string' ? s.apiGroup : '';
    if (!name) errs.push(fieldError.required(`${path}.name`));
    switch (s.kind) {
      case 'ServiceAccount':
        if (name)
          for (const msg of nameIsDNSSubdomain(name, false))
            errs.push(fieldError.invalid(`${path}.name`, name, msg));
        if (apiGroup) errs.push(fieldError.notSupported(`${path}.apiGroup`, apiGroup, ['']));
        if (!namespaced && !s.namespace) errs.push(fieldError.required(`${path}.namespace`));
        break;
      case 'User':
      case 'Group':
        if (apiGroup !== RBAC_GROUP)
          errs.push(fieldError.notSupported(`${path}.apiGroup`, apiGroup, [RBAC_GROUP]));
        break;
      default:
        errs.push(fieldError.notSupported(`${path}.kind`, s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
    }
  });
  return errs;
}

/** kube compares roleRef as a whole: any change is refused, the new value shown. */
export function validateRoleRefUnchanged(obj: KubeObject, old: KubeObject): FieldError[] {
  const a = isPlainObject(obj.roleRef) ? obj.roleRef : {};
  const b = isPlainObject(old.roleRef) ? old.roleRef : {};
  const same = a.apiGroup === b.apiGroup && a.kind === b.kind && a.name === b.name;
  return same ? [] : [fieldError.invalid('roleRef', obj.roleRef, 'cannot change roleRef')];
}
