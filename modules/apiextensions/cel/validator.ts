// A CRD version's rules compiled once into a tree that parallels its schema (only the branches that hold
// rules), and the walk that runs them on a custom resource as kube's CEL validator does: each node's rules with
// `self` (and `oldSelf` on updates, paired by correlation.ts), transition rules skipped without an old value
// unless optionalOldSelf, unchanged values ratcheted, a budget per call and per object.
import { Optional } from '@marcbachmann/cel-js';
import { fieldError, formatFieldError, goQuote, type FieldError, type Schema } from '../../api/index.js';
import { costLimitExceededMessage, perCallLimit, runtimeCELCostBudget } from '../../cel/index.js';
import { compileRules, type CompiledRule } from './compile.js';
import { OldItems, ratchetIndex, ratchetKey, ratchetRoot, ratchets, type Ratchet } from './correlation.js';
import { declType, type DeclType } from './decl-type.js';
import { escapeName } from './escape.js';
import { celChild, toCel } from './values.js';

export interface ValidateOptions {
  /** the runtime budget of all rules for this object (kube's RuntimeCELCostBudget by default) */
  budget?: number;
  /** ratchet unchanged values on update, as kube v1.32 (gate CRDValidationRatcheting) does; default true */
  ratcheting?: boolean;
  /** receives the failures ratcheting turned into warnings, as kube words them */
  warnings?: string[];
}

export interface RuleValidator {
  /** the errors of `obj`'s rules; `old` on update. Errors at the root are at field `<nil>`, as kube's. */
  validate(obj: unknown, old?: unknown, options?: ValidateOptions): FieldError[];
}

interface Node {
  schema: Schema;
  decl?: DeclType;
  rules: CompiledRule[];
  compileError?: string;
  usesOldSelf: boolean;
  properties?: Map<string, { node: Node; escaped?: string }>;
  additionalProperties?: Node;
  items?: Node;
}

function hasRules(s: Schema | undefined): boolean {
  if (!s) return false;
  if (s['x-kubernetes-validations']?.length) return true;
  const ap = s.additionalProperties;
  return (
    hasRules(s.items) ||
    (typeof ap === 'object' && hasRules(ap)) ||
    Object.values(s.properties ?? {}).some(hasRules)
  );
}

// rules inside allOf, anyOf, oneOf and not are refused by the structural schema checks, so only the structural
// spine (properties, additionalProperties, items) is walked
function build(schema: Schema, decl: DeclType | undefined): Node | undefined {
  if (!hasRules(schema)) return undefined;
  const compiled = compileRules(schema['x-kubernetes-validations'] ?? [], schema, decl);
  const node: Node = {
    schema,
    decl,
    rules: compiled.rules,
    compileError: compiled.error,
    usesOldSelf: compiled.rules.some((r) => r.usesOldSelf),
  };
  if (schema.items) node.items = build(schema.items, decl?.elem);
  const ap = schema.additionalProperties;
  if (typeof ap === 'object') {
    node.additionalProperties = build(ap, decl?.elem);
  }
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const embedded = prop['x-kubernetes-embedded-resource'] === true;
    const escaped = escapeName(name);
    let type: DeclType | undefined;
    if (escaped !== undefined) {
      // a field CEL does not see (no type) is not validated at all
      type = decl?.fields?.get(escaped)?.type;
      if (!type) continue;
    } else {
      type = declType(prop, embedded);
      if (!type) continue;
    }
    const child = build(prop, type);
    if (child) (node.properties ??= new Map()).set(name, { node: child, escaped });
  }
  return node;
}

interface State {
  budget: number;
  errors: FieldError[];
  warnings?: string[];
}

const child = (path: string, name: string) => (path === '' ? name : `${path}.${name}`);
const shown = (path: string) => (path === '' ? '<nil>' : path);
const ruleText = (c: CompiledRule) => (c.rule.message ? c.rule.message.trim() : c.rule.rule.trim());
const defaultMessage = (c: CompiledRule) =>
  c.rule.message ? c.rule.message.trim() : `failed rule: ${ruleText(c)}`;
const outOfBudget =
  'validation failed due to running out of cost budget, no further validation rules will be run';
const maxMessageBytes = 5 * 1024;

function failure(c: CompiledRule, field: string, type: string, detail: string): FieldError {
  switch (c.rule.reason) {
    case 'FieldValueForbidden':
      return fieldError.forbidden(field, detail);
    case 'FieldValueRequired':
      return fieldError.required(field, detail);
    case 'FieldValueDuplicate':
      return fieldError.duplicate(field, type);
    default:
      return fieldError.invalid(field, type, detail);
  }
}

/**
 * The message of a failed rule from its messageExpression (the rule's message when that fails), or `stop` with
 * the error that ends validation (the budget spent).
 */
function message(
  c: CompiledRule,
  activation: Record<string, unknown>,
  st: State,
): { text: string } | { stop: string } {
  const r = c.message!.evaluate(activation, perCallLimit);
  if (r.cost > st.budget) {
    return {
      stop: 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run',
    };
  }
  if (!r.ok && r.error.startsWith(costLimitExceededMessage)) {
    const expression = goQuote(c.rule.messageExpression!);
    return {
      stop: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${expression}`,
    };
  }
  st.budget -= r.cost;
  if (!r.ok || typeof r.value !== 'string') return { text: defaultMessage(c) };
  const text = r.value.trim();
  if (text === '' || /\n/.test(text) || Buffer.byteLength(text) > maxMessageBytes)
    return { text: defaultMessage(c) };
  return { text };
}

/** Runs a node's rules; false when validation must stop (budget spent). */
function expressions(
  n: Node,
  path: string,
  obj: unknown,
  cel: unknown,
  old: unknown,
  oldCel: unknown,
  r: Ratchet,
  st: State,
): boolean {
  const type = n.schema.type ?? '';
  if (n.compileError) {
    st.errors.push(
      fieldError.invalid(shown(path), type, `rule compiler initialization error: ${n.compileError}`),
    );
    return true;
  }
  if (n.rules.length === 0) return true;
  if (st.budget <= 0) {
    st.errors.push(fieldError.invalid(shown(path), type, outOfBudget));
    return false;
  }
  const self = cel !== undefined ? cel : toCel(obj, n.decl!);
  const hasOld = old !== undefined && old !== null;
  const oldSelf = n.usesOldSelf && hasOld ? (oldCel !== undefined ? oldCel : toCel(old, n.decl!)) : undefined;
  const activation: Record<string, unknown> = hasOld && n.usesOldSelf ? { self, oldSelf } : { self };
  let optional: Record<string, unknown> | undefined;
  for (const c of n.rules) {
    if (c.error) {
      st.errors.push(fieldError.invalid(shown(path), type, `rule compile error: ${c.error}`));
      continue;
    }
    if (!c.program) continue;
    if (c.usesOldSelf && !hasOld && !c.rule.optionalOldSelf) continue;
    const vars = c.rule.optionalOldSelf
      ? (optional ??= { self, oldSelf: hasOld ? Optional.of(oldSelf) : Optional.none() })
      : activation;
    const result = c.program.evaluate(vars, perCallLimit);
    if (result.cost > st.budget) {
      st.errors.push(fieldError.invalid(shown(path), type, outOfBudget));
      return false;
    }
    st.budget -= result.cost;
    if (!result.ok) {
      const e = result.error;
      if (e.startsWith(costLimitExceededMessage)) {
        const detail = `'${e}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleText(c)}`;
        st.errors.push(fieldError.invalid(shown(path), type, detail));
        return false;
      }
      const detail = e.startsWith('no such overload')
        ? `'${e}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleText(c)}`
        : `${e} evaluating rule: ${ruleText(c)}`;
      st.errors.push(fieldError.invalid(shown(path), type, detail));
      continue;
    }
    if (result.value === true) continue;
    const at = c.fieldPath ? child(path, c.fieldPath) : shown(path);
    const add = (e: FieldError) => {
      if (!c.usesOldSelf && ratchets(r)) st.warnings?.push(formatFieldError(e));
      else st.errors.push(e);
    };
    if (!c.message) {
      add(failure(c, at, type, defaultMessage(c)));
      continue;
    }
    const m = message(c, activation, st);
    if ('stop' in m) {
      add(fieldError.invalid(at, type, m.stop));
      return false;
    }
    add(failure(c, at, type, m.text));
  }
  return true;
}

function walk(
  n: Node,
  path: string,
  obj: unknown,
  cel: unknown,
  old: unknown,
  oldCel: unknown,
  r: Ratchet,
  st: State,
): boolean {
  if (obj === undefined || obj === null) return true;
  if (!expressions(n, path, obj, cel, old, oldCel, r, st)) return false;
  if (Array.isArray(obj)) {
    if (!n.items) return true;
    const oldItems = new OldItems(old, n.schema);
    for (let i = 0; i < obj.length; i++) {
      const before = oldItems.get(obj[i]);
      const ok = walk(
        n.items,
        `${path}[${i}]`,
        obj[i],
        celChild(cel, i),
        before,
        undefined,
        ratchetIndex(r, i),
        st,
      );
      if (!ok) return false;
    }
    return true;
  }
  if (typeof obj !== 'object') return true;
  const value = obj as Record<string, unknown>;
  const before =
    old !== null && typeof old === 'object' && !Array.isArray(old)
      ? (old as Record<string, unknown>)
      : undefined;
  if (n.additionalProperties) {
    for (const k of Object.keys(value)) {
      const ok = walk(
        n.additionalProperties,
        `${path}[${k}]`,
        value[k],
        celChild(cel, k),
        before?.[k],
        celChild(oldCel, k),
        ratchetKey(r, k),
        st,
      );
      if (!ok) return false;
    }
  }
  if (n.properties) {
    for (const [k, p] of n.properties) {
      if (!Object.hasOwn(value, k)) continue;
      const ok = walk(
        p.node,
        child(path, k),
        value[k],
        celChild(cel, p.escaped),
        before?.[k],
        celChild(oldCel, p.escaped),
        ratchetKey(r, k),
        st,
      );
      if (!ok) return false;
    }
  }
  return true;
}

/**
 * Compiles every rule of a CRD version's structural schema once (call it when the version is registered and
 * keep the result); undefined when the schema has no rules. Rules that do not compile (which CRD validation
 * refuses) are reported on each validation, as kube does.
 */
export function compileValidator(schema: Schema): RuleValidator | undefined {
  const root = build(schema, declType(schema, true));
  if (!root) return undefined;
  return {
    validate(obj, old, options = {}) {
      const st: State = {
        budget: options.budget ?? runtimeCELCostBudget,
        errors: [],
        warnings: options.warnings,
      };
      const hasOld = old !== undefined && old !== null;
      const r: Ratchet = hasOld && options.ratcheting !== false ? ratchetRoot(obj, old, schema) : {};
      walk(root, '', obj, undefined, hasOld ? old : undefined, undefined, r, st);
      return st.errors;
    },
  };
}
