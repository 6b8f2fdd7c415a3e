/**
 * Validation of a custom resource's values against its CRD schema, as kube v1.32 does it with kube-openapi:
 * the same checks in the same order per value (type, anyOf/oneOf/allOf/not, string, format, number, list,
 * enum, object), the same messages, and the same choice of which failing alternative of an anyOf or oneOf
 * to report (the one that passed the most checks, kube-openapi's MatchCount).
 *
 * On update, with the old object given, errors in values unchanged from the old object are dropped
 * (CRDValidationRatcheting, on in v1.32): a value whose own check fails, or that holds a failing value, is
 * forgiven when it equals its correlated old value (see correlate.ts). Root apiVersion and kind never are.
 *
 * Numbers follow kube's unstructured decoding: an integral number is an int64 (bounds and multipleOf are
 * then compared as integers, with the schema's bound truncated, as kube does), any other a float64.
 */
import { goQuote, type FieldError, type Schema } from '../api/index.js';
import { Correlation, correlate } from './correlate.js';
import { goFloat, goV, isGoInt, isJSONInteger } from './go-values.js';
import { enumMatches, hasDuplicates, kindOf, runeCount, type JsonKind } from './value-checks.js';
import { openAPIError as E, toFieldErrors, type OpenAPIError } from './openapi-errors.js';
import { compileValueNode, type ValueNode } from './value-node.js';

export interface ValidateValuesOptions {
  /**
   * The field path of the validated value, prefixed to every error's field. Leave it out for a whole custom
   * resource (kube passes none: errors of anyOf/oneOf/allOf/not then sit at `<nil>`); `status` for the value
   * of the status subresource validated against the status schema.
   */
  path?: string;
  /** On update: the old value. Errors in parts that did not change are dropped (ratcheting). */
  old?: unknown;
  /** A correlation of value and old value already made (to share it with CEL); wins over `old`. */
  correlation?: Correlation;
}

/** How a path segment joins the name before it, as kube-openapi writes names. */
const propSeg = 0;
/** a map value: always `.key`, even at the root (`.key`, where a property is `key`) */
const mapSeg = 1;
const indexSeg = 2;

class Walker {
  errs: OpenAPIError[] = [];
  /** the path to the current value, turned into a name only for an error */
  private segs: (string | number)[] = [];
  private segKinds: number[] = [];

  reset(): void {
    this.errs = [];
    this.segs.length = 0;
    this.segKinds.length = 0;
  }

  /** The current value's name as kube-openapi writes it: `spec.items[0].name`. */
  private name(): string {
    let out = '';
    for (let i = 0; i < this.segs.length; i++) {
      const seg = this.segs[i];
      const kind = this.segKinds[i];
      if (kind === indexSeg) out += `[${seg}]`;
      else if (kind === mapSeg || out !== '') out += `.${seg}`;
      else out += seg;
    }
    return out;
  }

  /** kube-openapi's SchemaValidator.Validate: reports into errs, returns its MatchCount. */
  validate(node: ValueNode, v: unknown, corr: Correlation | undefined): number {
    const kind = kindOf(v);
    if (kind === 'null') {
      // kube-openapi runs only the type and enum checks on null, the type check even without a type
      const count = this.checkType(node, null, kind);
      if (node.enum) this.checkEnum(node, null);
      return count;
    }
    // MatchCount: one per check that applies, plus what the check itself counts, plus one
    let count = 1;
    if (node.hasTypeCheck) count += this.checkType(node, v, kind) + 1;
    count += this.checkCombinators(node, v, corr) + 2;
    if (kind === 'string') {
      this.checkString(node, v as string);
      count++;
      if (node.formatCheck) {
        if (!node.formatCheck(v as string))
          this.errs.push(E.invalidType(this.name(), node.format, v as string));
        count++;
      }
    } else if (kind === 'number') {
      this.checkNumber(node, v as number);
      count += 2;
    } else if (kind === 'array') {
      count += this.checkList(node, v as unknown[], corr) + 2;
    }
    if (node.enum) this.checkEnum(node, v);
    count++;
    if (kind === 'object') count += this.checkObject(node, v as Record<string, unknown>, corr) + 1;
    return count;
  }

  /** The type check; 1 when it passes (its own MatchCount), else 0. */
  private checkType(node: ValueNode, v: unknown, kind: JsonKind): number {
    const types = node.types;
    if (kind === 'null') {
      if (types.length > 0 && !node.nullable) {
        this.errs.push(E.invalidType(this.name(), node.typeText, 'null'));
        return 0;
      }
      return 1;
    }
    let schType: string = kind;
    let format = '';
    if (kind === 'number') {
      if (isGoInt(v as number)) {
        schType = 'integer';
        format = 'int64';
      } else {
        schType = 'number';
        format = 'float64';
      }
    }
    const numeric = node.allowsNumber;
    const integer = node.allowsInteger;
    const floatInt = schType === 'number' && integer && isJSONInteger(v as number);
    const intFloat = schType === 'integer' && numeric;
    const ofType = types.length === 1 ? types[0] === schType : types.includes(schType);
    if (
      kind !== 'string' &&
      kind !== 'array' &&
      node.format !== '' &&
      !(ofType || format === node.format || floatInt || intFloat)
    ) {
      // kube names the format, and the value's Go format, when a formatted field gets a non-string
      this.errs.push(E.invalidType(this.name(), node.format, format));
      return 0;
    }
    if (!numeric && !integer && node.format !== '' && (kind === 'string' || kind === 'array')) return 1;
    if (!(ofType || floatInt || intFloat)) {
      this.errs.push(E.invalidType(this.name(), node.typeText, schType));
      return 0;
    }
    return 1;
  }

  private checkString(node: ValueNode, s: string): void {
    // only the first failing check is reported
    if (node.maxLength !== undefined && s.length > node.maxLength && runeCount(s) > node.maxLength) {
      this.errs.push(E.tooLong(this.name(), node.maxLength, s));
      return;
    }
    if (node.minLength !== undefined && s.length < 2 * node.minLength && runeCount(s) < node.minLength) {
      this.errs.push(E.tooShort(this.name(), node.minLength, s));
      return;
    }
    if (node.regexp !== undefined && !node.regexp.test(s))
      this.errs.push(E.pattern(this.name(), node.pattern, s));
  }

  private checkNumber(node: ValueNode, v: number): void {
    const int = isGoInt(v);
    if (node.multipleOf !== undefined) {
      if (int) {
        const factor = Math.trunc(node.multipleOf);
        if (factor <= 0) this.errs.push(E.multipleOfNotPositive(this.name(), String(factor)));
        else if (v % factor !== 0) this.errs.push(E.multipleOf(this.name(), String(factor), v));
      } else {
        const factor = node.multipleOf;
        if (factor <= 0) this.errs.push(E.multipleOfNotPositive(this.name(), goFloat(factor)));
        else if (!isJSONInteger(factor < 1 ? (1 / factor) * v : v / factor))
          this.errs.push(E.multipleOf(this.name(), goFloat(factor), v));
      }
    }
    if (node.minimum !== undefined) {
      const min = int ? Math.trunc(node.minimum) : node.minimum;
      const excl = node.exclusiveMinimum;
      if (excl ? v <= min : v < min)
        this.errs.push(E.minimum(this.name(), int ? String(min) : goFloat(min), excl, v));
    }
    if (node.maximum !== undefined) {
      const max = int ? Math.trunc(node.maximum) : node.maximum;
      const excl = node.exclusiveMaximum;
      if (excl ? v >= max : v > max)
        this.errs.push(E.maximum(this.name(), int ? String(max) : goFloat(max), excl, v));
    }
  }

  private checkEnum(node: ValueNode, v: unknown): void {
    const values = node.enum!;
    if (v !== null) for (const e of values) if (enumMatches(v, e)) return;
    this.errs.push(E.enum(this.name(), v, values, goV(values)));
  }

  private checkList(node: ValueNode, list: unknown[], corr: Correlation | undefined): number {
    let count = 0;
    const items = node.items;
    if (items !== undefined) {
      for (let i = 0; i < list.length; i++) count += this.child(items, list[i], indexSeg, i, corr?.index(i));
    }
    if (node.minItems !== undefined && list.length < node.minItems)
      this.errs.push(E.minItems(this.name(), node.minItems, list.length));
    if (node.maxItems !== undefined && list.length > node.maxItems)
      this.errs.push(E.maxItems(this.name(), node.maxItems, list.length));
    if (node.uniqueItems && hasDuplicates(list)) this.errs.push(E.unique(this.name()));
    return count;
  }

  private checkObject(node: ValueNode, obj: Record<string, unknown>, corr: Correlation | undefined): number {
    let count = 0;
    const props = node.props;
    if (node.minProperties !== undefined || node.maxProperties !== undefined) {
      const size = Object.keys(obj).length;
      if (node.minProperties !== undefined && size < node.minProperties)
        this.errs.push(E.tooFewProperties(this.name(), node.minProperties, size));
      if (node.maxProperties !== undefined && size > node.maxProperties)
        this.errs.push(E.tooManyProperties(this.name(), node.maxProperties, size));
    }
    if (node.noAdditional) {
      for (const key in obj) if (!props?.has(key)) this.errs.push(E.unallowed(this.name(), key));
    } else if (node.additional !== undefined) {
      const additional = node.additional;
      for (const key in obj) {
        if (props?.has(key)) continue;
        count += this.child(additional, obj[key], mapSeg, key, this.key(corr, key));
      }
    }
    if (props !== undefined) {
      const names = node.propNames;
      for (let i = 0; i < names.length; i++) {
        const key = names[i];
        // parsed JSON never holds undefined: a missing key reads as undefined, unless Object.prototype has it
        const value = obj[key];
        if (value === undefined) continue;
        if (node.propInherited[i] && !Object.prototype.hasOwnProperty.call(obj, key)) continue;
        count += this.child(node.propNodes[i], value, propSeg, key, this.key(corr, key));
      }
    }
    if (node.required !== undefined) {
      for (const key of node.required)
        if (!Object.prototype.hasOwnProperty.call(obj, key))
          this.errs.push(E.required(`${this.name()}.${key}`));
    }
    return count;
  }

  /** The correlated property; the root's apiVersion and kind are never ratcheted. */
  private key(corr: Correlation | undefined, key: string): Correlation | undefined {
    if (corr === undefined || (this.segs.length === 0 && (key === 'apiVersion' || key === 'kind')))
      return undefined;
    return corr.key(key);
  }

  /** Validates a child value; with a correlated old value, its errors go when it did not change. */
  private child(
    node: ValueNode,
    v: unknown,
    kind: number,
    seg: string | number,
    corr: Correlation | undefined,
  ): number {
    this.segs.push(seg);
    this.segKinds.push(kind);
    const mark = this.errs.length;
    const count = this.validate(node, v, corr);
    if (corr !== undefined && this.errs.length > mark && corr.unchanged()) this.errs.length = mark;
    this.segs.pop();
    this.segKinds.pop();
    return count;
  }

  /** Validates against a sub-schema into a buffer of its own. */
  private isolated(
    node: ValueNode,
    v: unknown,
    corr: Correlation | undefined,
  ): { errs: OpenAPIError[]; count: number } {
    const saved = this.errs;
    this.errs = [];
    const count = this.validate(node, v, corr);
    const errs = this.errs;
    this.errs = saved;
    return { errs, count };
  }

  /** anyOf, oneOf, allOf and not; returns the MatchCount merged from the alternatives. */
  private checkCombinators(node: ValueNode, v: unknown, corr: Correlation | undefined): number {
    if (!node.anyOf && !node.oneOf && !node.allOf && !node.not) return 0;
    let count = 0;
    if (node.anyOf) {
      let best: { errs: OpenAPIError[]; count: number } | undefined;
      let success: { count: number } | undefined;
      for (const alt of node.anyOf) {
        const r = this.isolated(alt, v, corr);
        if (r.errs.length === 0) {
          success = r;
          best = undefined;
          break;
        }
        if (best === undefined || r.count > best.count) best = r;
      }
      if (!success)
        this.errs.push(E.composite(`${goQuote(this.name())} must validate at least one schema (anyOf)`));
      if (best) {
        this.errs.push(...best.errs);
        count += best.count;
      } else if (success) count += success.count;
    }
    if (node.oneOf) {
      let best: { errs: OpenAPIError[]; count: number } | undefined;
      let success: { count: number } | undefined;
      let valid = 0;
      for (const alt of node.oneOf) {
        const r = this.isolated(alt, v, corr);
        if (r.errs.length === 0) {
          valid++;
          best = undefined;
          success ??= r;
          continue;
        }
        if (valid === 0 && (best === undefined || r.count > best.count)) best = r;
      }
      if (valid !== 1) {
        const why = valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`;
        this.errs.push(
          E.composite(`${goQuote(this.name())} must validate one and only one schema (oneOf). ${why}`),
        );
        if (best) {
          this.errs.push(...best.errs);
          count += best.count;
        }
      } else if (success) count += success.count;
    }
    if (node.allOf) {
      let valid = 0;
      for (const alt of node.allOf) {
        const mark = this.errs.length;
        count += this.validate(alt, v, corr);
        if (this.errs.length === mark) valid++;
      }
      if (valid !== node.allOf.length) {
        const none = valid === 0 ? '. None validated' : '';
        this.errs.push(E.composite(`${goQuote(this.name())} must validate all the schemas (allOf)${none}`));
      }
    }
    if (node.not) {
      const r = this.isolated(node.not, v, corr);
      if (r.errs.length === 0)
        this.errs.push(E.composite(`${goQuote(this.name())} must not validate the schema (not)`));
    }
    return count;
  }
}

const shared = new Walker();

/**
 * The schema errors of `value` as kube reports them for a custom resource (create: no `old`; update: the
 * old object, for ratcheting), in kube's order, one per message.
 */
export function validateValues(
  schema: Schema,
  value: unknown,
  options: ValidateValuesOptions = {},
): FieldError[] {
  const node = compileValueNode(schema);
  let corr = options.correlation;
  if (corr === undefined && 'old' in options && options.old !== undefined)
    corr = correlate(value, options.old, schema);
  const walker = shared.errs.length === 0 ? shared : new Walker();
  try {
    walker.validate(node, value, corr);
    if (walker.errs.length > 0 && corr?.unchanged()) walker.errs.length = 0;
    return toFieldErrors(walker.errs, options.path);
  } finally {
    walker.reset();
  }
}
