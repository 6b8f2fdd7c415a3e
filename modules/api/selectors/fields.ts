/**
 * Field selectors as k8s.io/apimachinery/pkg/fields parses them (v1.32): comma-separated `f=v`, `f==v`,
 * `f!=v`; `\,` `\=` `\\` escape those characters in values; the field part is taken literally (no
 * trimming). Terms are sorted as text before use, which decides which error kube reports first.
 */
import { ApiError } from '../status.js';
import { goQuote } from './quote.js';

export interface FieldRequirement {
  readonly field: string;
  /** `==` is kept as `=`: the two mean the same */
  readonly operator: '=' | '!=';
  /** the unescaped value */
  readonly value: string;
}

function fieldValue(fields: Record<string, string>, field: string): string {
  const v = fields[field];
  // a field the object does not set reads as "" (fields.Set.Get), so `f!=x` matches it
  return typeof v === 'string' ? v : '';
}

const valueEscapes = /[\\,=]/g;

/** fields.EscapeValue */
export function escapeFieldValue(value: string): string {
  return value.replace(valueEscapes, '\\$&');
}

export class FieldSelector {
  readonly empty: boolean;

  constructor(readonly requirements: readonly FieldRequirement[]) {
    this.empty = requirements.length === 0;
  }

  matches(fields: Record<string, string>): boolean {
    const reqs = this.requirements;
    for (let i = 0; i < reqs.length; i++) {
      const r = reqs[i];
      const v = fieldValue(fields, r.field);
      if (r.operator === '=' ? v !== r.value : v === r.value) return false;
    }
    return true;
  }

  /** The value an `f=v` term pins `field` to (fields.Selector.RequiresExactMatch). */
  requiresExactMatch(field: string): string | undefined {
    for (const r of this.requirements) {
      if (r.field === field && r.operator === '=') return r.value;
    }
    return undefined;
  }

  /** The name a `metadata.name=<x>` term pins, which lets a list or watch read one key. */
  exactName(): string | undefined {
    return this.requiresExactMatch('metadata.name');
  }

  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
  }
}

export const everythingFields = new FieldSelector([]);

export function exactName(sel: FieldSelector | undefined): string | undefined {
  return sel?.exactName();
}

/** Splits on commas not escaped by a backslash; the backslashes stay in the terms. */
function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inSlash) inSlash = false;
    else if (c === 92) inSlash = true;
    else if (c === 44) {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

/** The first operator occurrence splits the term; `!=` and `==` win over `=` at the same position. */
function splitTerm(term: string): { lhs: string; op: '=' | '==' | '!='; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    const next = term.charCodeAt(i + 1);
    if (c === 33 && next === 61) return { lhs: term.slice(0, i), op: '!=', rhs: term.slice(i + 2) };
    if (c === 61) {
      if (next === 61) return { lhs: term.slice(0, i), op: '==', rhs: term.slice(i + 2) };
      return { lhs: term.slice(0, i), op: '=', rhs: term.slice(i + 1) };
    }
  }
  return undefined;
}

const needsUnescape = /[\\,=]/;

/** fields.UnescapeValue, with its error texts. */
function unescapeValue(s: string): string {
  if (!needsUnescape.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const ch of s) {
    if (inSlash) {
      if (ch !== '\\' && ch !== ',' && ch !== '=')
        throw ApiError.badRequest(`invalid field selector: invalid escape sequence: \\${ch}`);
      out += ch;
      inSlash = false;
      continue;
    }
    if (ch === '\\') inSlash = true;
    else if (ch === ',' || ch === '=')
      // Go prints the rune with %v, i.e. as its code point number
      throw ApiError.badRequest(`invalid field selector: unescaped character in value: ${ch.codePointAt(0)}`);
    else out += ch;
  }
  if (inSlash) throw ApiError.badRequest('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Parses `?fieldSelector=`; throws kube's 400 for malformed input. */
export function parseFieldSelector(text: string): FieldSelector {
  if (text === '') return everythingFields;
  const parts = splitTerms(text).sort();
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const term = splitTerm(part);
    if (!term) throw ApiError.badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
    reqs.push({ field: term.lhs, operator: term.op === '!=' ? '!=' : '=', value: unescapeValue(term.rhs) });
  }
  return reqs.length === 0 ? everythingFields : new FieldSelector(reqs);
}

/**
 * How a kind words a rejected field: most kinds and all custom resources say `field label not supported`;
 * kinds without their own field rules (ConfigMap, the apps group, ...) fall back to the generic text.
 */
export type FieldLabelMessage = 'notSupported' | 'notKnown' | ((field: string) => string);

export interface FieldValidationOptions {
  message?: FieldLabelMessage;
  /** legacy spellings rewritten before matching, e.g. pods' `spec.host` → `spec.nodeName` */
  aliases?: Readonly<Record<string, string>>;
}

function rejection(field: string, message: FieldLabelMessage | undefined): string {
  if (typeof message === 'function') return message(field);
  if (message === 'notKnown')
    return `${goQuote(field)} is not a known field selector: only "metadata.name", "metadata.namespace"`;
  return `field label not supported: ${field}`;
}

/**
 * The field-label check kube runs on list, watch and deletecollection (Scheme.ConvertFieldLabel through
 * fields.Selector.Transform): the first unsupported field in sorted term order is a 400. Returns the
 * selector with aliases rewritten (the same object when nothing changed).
 */
export function validateFieldSelector(
  sel: FieldSelector,
  allowed: ReadonlySet<string>,
  options: FieldValidationOptions = {},
): FieldSelector {
  const aliases = options.aliases;
  let rewritten: FieldRequirement[] | undefined;
  const reqs = sel.requirements;
  for (let i = 0; i < reqs.length; i++) {
    const r = reqs[i];
    const alias = aliases && Object.hasOwn(aliases, r.field) ? aliases[r.field] : undefined;
    if (alias !== undefined) {
      rewritten ??= reqs.slice();
      rewritten[i] = { ...r, field: alias };
      continue;
    }
    if (!allowed.has(r.field)) throw ApiError.badRequest(rejection(r.field, options.message));
  }
  return rewritten ? new FieldSelector(rewritten) : sel;
}
