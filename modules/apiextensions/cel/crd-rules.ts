// The CEL part of a CRD's validation: every x-kubernetes-validations rule of a version's schema must be well
// formed (message, reason, fieldPath), compile with `self` typed from its node, stay within kube's estimated cost
// per rule (times how often its node can repeat in one object) and, summed, per schema, and use `oldSelf` only
// where old and new values correlate (not inside atomic lists or sets).
import { fieldError, goQuote, type FieldError, type Schema, type ValidationRule } from '../../api/index.js';
import {
  costErrorMessage,
  maxRequestSizeBytes,
  staticEstimatedCostLimit,
  staticEstimatedCRDCostLimit,
} from '../../cel/index.js';
import { compileRules } from './compile.js';
import { declType } from './decl-type.js';
import { validFieldPath } from '../crd/index.js';

export interface CompileSchemaRulesOptions {
  /** kube skips the per-expression cost limits when an update leaves the version's schema unchanged */
  suppressPerExpressionCost?: boolean;
  /**
   * also report the rules' form (rule, message, messageExpression, reason, fieldPath), which kube checks with
   * the schema; off when the CRD validation already did (modules/apiextensions/crd)
   */
  checkRuleForm?: boolean;
}

const reasons = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const newlines = /[\n\r]/;
const uint64Max = 2 ** 64 - 1;
const multiply = (a: number, b: number) => (a === 0 ? 0 : Math.min(a * b, uint64Max));

/**
 * kube's `%#v` of the (internal) ValidationRule its compile errors show as the value; a set pointer prints as
 * an address, which is a made-up one here.
 */
export function ruleText(rule: ValidationRule): string {
  const ptr = (type: string, set: boolean) => `(*${type})(${set ? '0xc000a0e000' : 'nil'})`;
  return (
    `apiextensions.ValidationRule{Rule:${goQuote(rule.rule ?? '')}, Message:${goQuote(rule.message ?? '')}, ` +
    `MessageExpression:${goQuote(rule.messageExpression ?? '')}, ` +
    `Reason:${ptr('apiextensions.FieldValueErrorReason', rule.reason !== undefined)}, ` +
    `FieldPath:${goQuote(rule.fieldPath ?? '')}, OptionalOldSelf:${ptr('bool', rule.optionalOldSelf !== undefined)}}`
  );
}

const invalidRule = (field: string, rule: ValidationRule, detail: string): FieldError => ({
  ...fieldError.invalid(field, rule, detail),
  valueText: ruleText(rule),
});

interface Walk {
  schemaErrors: FieldError[];
  celErrors: FieldError[];
  total: number;
  expensive: { path: string; cost: number }[];
  options: CompileSchemaRulesOptions;
}

interface Context {
  /** how many times the node can occur in one object; undefined: unbounded (then kube's per-type bound) */
  cardinality: number | undefined;
  /** the outermost list whose items cannot be correlated with their old values */
  uncorrelatable?: string;
  isRoot: boolean;
}

function observe(w: Walk, path: string, cost: number): void {
  w.total = Math.min(w.total + cost, uint64Max);
  // rules under 1% of the limit are not named when the total is over it
  if (cost < staticEstimatedCRDCostLimit / 100) return;
  w.expensive.push({ path, cost });
  w.expensive.sort((a, b) => b.cost - a.cost);
  w.expensive.length = Math.min(w.expensive.length, 4);
}

/** The rule-level checks kube makes before compiling (schema errors: they stop CEL checks of the node). */
function checkRule(rule: ValidationRule, schema: Schema, at: string, errors: FieldError[]): void {
  const trimmedRule = (rule.rule ?? '').trim();
  const message = rule.message ?? '';
  const trimmedMessage = message.trim();
  if (trimmedRule === '') errors.push(fieldError.required(`${at}.rule`, 'rule is not specified'));
  else if (message !== '' && trimmedMessage === '') {
    errors.push(fieldError.invalid(`${at}.message`, message, 'message must be non-empty if specified'));
  } else if (newlines.test(trimmedMessage)) {
    errors.push(fieldError.invalid(`${at}.message`, message, 'message must not contain line breaks'));
  } else if (newlines.test(trimmedRule) && trimmedMessage === '') {
    errors.push(
      fieldError.required(`${at}.message`, 'message must be specified if rule contains line breaks'),
    );
  }
  const messageExpression = rule.messageExpression ?? '';
  if (messageExpression !== '' && messageExpression.trim() === '') {
    errors.push(
      fieldError.required(`${at}.messageExpression`, 'messageExpression must be non-empty if specified'),
    );
  }
  if (rule.reason !== undefined && !reasons.includes(rule.reason)) {
    errors.push(fieldError.notSupported(`${at}.reason`, rule.reason, reasons));
  }
  const fieldPath = rule.fieldPath ?? '';
  if (fieldPath !== '' && fieldPath.trim() === '') {
    errors.push(fieldError.invalid(`${at}.fieldPath`, fieldPath, 'fieldPath must be non-empty if specified'));
  }
  if (newlines.test(fieldPath)) {
    errors.push(fieldError.invalid(`${at}.fieldPath`, fieldPath, 'fieldPath must not contain line breaks'));
  }
  if (fieldPath !== '' && !validFieldPath(fieldPath, schema as Record<string, unknown>, true).ok) {
    errors.push(fieldError.invalid(`${at}.fieldPath`, fieldPath, 'fieldPath must be a valid path'));
  }
}

/** Compiles a node's rules (its schema is otherwise valid) and reports what kube reports about them. */
function compileNode(schema: Schema, path: string, ctx: Context, w: Walk): void {
  const rules = schema['x-kubernetes-validations']!;
  const embedded = schema['x-kubernetes-embedded-resource'] === true;
  const decl = declType(schema, ctx.isRoot || embedded);
  const compiled = compileRules(rules, schema, decl);
  if (compiled.error) {
    const detail = decl
      ? compiled.error
      : 'internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations';
    w.celErrors.push(fieldError.internal(`${path}.x-kubernetes-validations`, detail));
    return;
  }
  // a node under unbounded lists or maps can repeat as often as its smallest JSON fits in a request
  const cardinality = ctx.cardinality ?? Math.floor(maxRequestSizeBytes / (decl!.minSize + 1));
  const perExpression = !w.options.suppressPerExpressionCost;
  compiled.rules.forEach((c, i) => {
    const at = `${path}.x-kubernetes-validations[${i}]`;
    const cost = multiply(c.maxCost, cardinality);
    if (perExpression && cost > staticEstimatedCostLimit) {
      w.celErrors.push(
        fieldError.forbidden(
          `${at}.rule`,
          costErrorMessage('estimated rule cost', cost, staticEstimatedCostLimit),
        ),
      );
    }
    observe(w, `${at}.rule`, cost);
    if (c.error) w.celErrors.push(invalidRule(`${at}.rule`, c.rule, c.error));
    if (c.messageError) {
      w.celErrors.push(invalidRule(`${at}.messageExpression`, c.rule, c.messageError));
    } else if (c.message) {
      if (perExpression && c.messageMaxCost > staticEstimatedCostLimit) {
        const detail = costErrorMessage(
          'estimated messageExpression cost',
          c.messageMaxCost,
          staticEstimatedCostLimit,
        );
        w.celErrors.push(fieldError.forbidden(`${at}.messageExpression`, detail));
      }
      observe(w, `${at}.messageExpression`, c.messageMaxCost);
    }
    if (c.usesOldSelf) {
      if (ctx.uncorrelatable !== undefined) {
        const detail = `oldSelf cannot be used on the uncorrelatable portion of the schema within ${ctx.uncorrelatable}`;
        w.celErrors.push({
          ...fieldError.invalid(`${at}.rule`, c.rule.rule, detail),
          valueText: goQuote(c.rule.rule),
        });
      }
    } else if (c.rule.optionalOldSelf !== undefined) {
      const detail = 'may not be set if oldSelf is not used in rule';
      w.celErrors.push(fieldError.invalid(`${at}.optionalOldSelf`, c.rule.optionalOldSelf, detail));
    }
  });
}

/** How many elements a node holds for its children's cardinality: 1 for objects, maxItems, maxProperties. */
function maxElements(s: Schema): number | undefined {
  if (s.type === 'array') return s.maxItems !== undefined ? Math.max(0, s.maxItems) : undefined;
  if (s.type === 'object' && s.additionalProperties !== undefined) {
    return s.maxProperties !== undefined ? Math.max(0, s.maxProperties) : undefined;
  }
  return 1;
}

function child(parent: Schema, ctx: Context, uncorrelatable?: string): Context {
  const n = maxElements(parent);
  return {
    cardinality: ctx.cardinality === undefined || n === undefined ? undefined : multiply(ctx.cardinality, n),
    uncorrelatable: ctx.uncorrelatable ?? uncorrelatable,
    isRoot: false,
  };
}

/** Walks a schema in kube's order; returns how many schema errors it found at the node or below. */
function walk(schema: Schema, path: string, ctx: Context | undefined, w: Walk): number {
  const before = w.schemaErrors.length;
  const ap = schema.additionalProperties;
  if (ap !== undefined && typeof ap === 'object') {
    walk(ap, `${path}.additionalProperties`, ctx && child(schema, ctx), w);
  }
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    walk(prop, `${path}.properties[${name}]`, ctx && child(schema, ctx), w);
  }
  // combinators hold no type of their own: their rules are only checked for form
  if (schema.not) walk(schema.not, `${path}.not`, undefined, w);
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    schema[key]?.forEach((s, i) => walk(s, `${path}.${key}[${i}]`, undefined, w));
  }
  if (schema.items) {
    const correlatable = schema['x-kubernetes-list-type'] === 'map';
    walk(schema.items, `${path}.items`, ctx && child(schema, ctx, correlatable ? undefined : path), w);
  }
  const rules = schema['x-kubernetes-validations'] ?? [];
  rules.forEach((rule, i) =>
    checkRule(rule, schema, `${path}.x-kubernetes-validations[${i}]`, w.schemaErrors),
  );
  if (rules.length > 0 && ctx && w.schemaErrors.length === before) compileNode(schema, path, ctx, w);
  return w.schemaErrors.length - before;
}

/**
 * The errors kube reports about the x-kubernetes-validations of a CRD version's structural schema at `path`
 * (e.g. `spec.versions[0].schema.openAPIV3Schema`): rule form, compilation, estimated costs, oldSelf placement.
 * Call it once the schema is known to be structural; its errors follow the schema's own.
 */
export function compileSchemaRules(
  schema: Schema,
  path: string,
  options: CompileSchemaRulesOptions = {},
): FieldError[] {
  const w: Walk = { schemaErrors: [], celErrors: [], total: 0, expensive: [], options };
  walk(schema, path, { cardinality: 1, isRoot: true }, w);
  const errors = options.checkRuleForm ? [...w.schemaErrors, ...w.celErrors] : w.celErrors;
  if (w.total > staticEstimatedCRDCostLimit) {
    for (const e of w.expensive) {
      errors.push(
        fieldError.forbidden(
          e.path,
          'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
        ),
      );
    }
    const detail = costErrorMessage(
      'x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema',
      w.total,
      staticEstimatedCRDCostLimit,
    );
    errors.push(fieldError.forbidden(path, detail));
  }
  return errors;
}
