/**
 * The label selector lexer and recursive-descent parser. It follows kube's token rules closely because
 * clients see the error text: which token is reported, NUL ending the input, `in`/`notin` being plain
 * identifiers where values are expected, `()` meaning one empty value.
 */
import { ApiError } from '../status.js';
import { everything, LabelSelector } from './label-selector.js';
import type { CompiledRequirement, LabelOperator } from './label-selector.js';
import { byKey, invalid, newRequirement, sortedUnique } from './requirement.js';
import { isQualifiedName } from './validation.js';
import { goQuote } from './quote.js';

const enum Tok {
  Error = 0,
  End,
  ClosedPar,
  Comma,
  Not,
  DoubleEquals,
  Equals,
  GreaterThan,
  Identifier,
  In,
  LessThan,
  NotEquals,
  NotIn,
  OpenPar,
}

function isWhitespace(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 10;
}

function isSpecial(c: number): boolean {
  // = ! ( ) , > <
  return c === 61 || c === 33 || c === 40 || c === 41 || c === 44 || c === 62 || c === 60;
}

function symbolToken(s: string, start: number, len: number): Tok {
  const a = s.charCodeAt(start);
  if (len === 1) {
    switch (a) {
      case 41:
        return Tok.ClosedPar;
      case 44:
        return Tok.Comma;
      case 33:
        return Tok.Not;
      case 61:
        return Tok.Equals;
      case 62:
        return Tok.GreaterThan;
      case 60:
        return Tok.LessThan;
      case 40:
        return Tok.OpenPar;
    }
    return Tok.Error;
  }
  if (len === 2 && s.charCodeAt(start + 1) === 61) {
    if (a === 61) return Tok.DoubleEquals;
    if (a === 33) return Tok.NotEquals;
  }
  return Tok.Error;
}

/** Tokens of the whole input, as kube scans everything before parsing. */
function scan(s: string): { toks: Tok[]; lits: string[] } {
  const toks: Tok[] = [];
  const lits: string[] = [];
  const n = s.length;
  let pos = 0;
  for (;;) {
    // skip whitespace; a NUL character reads as end of input
    let c = pos < n ? s.charCodeAt(pos++) : 0;
    while (isWhitespace(c)) c = pos < n ? s.charCodeAt(pos++) : 0;
    if (c === 0) {
      toks.push(Tok.End);
      lits.push('');
      return { toks, lits };
    }
    pos--;
    const start = pos;
    if (isSpecial(c)) {
      let tok = Tok.Error;
      let litLen = 0;
      while (pos < n) {
        const ch = s.charCodeAt(pos++);
        if (ch === 0) break;
        if (!isSpecial(ch)) {
          pos--;
          break;
        }
        const t = symbolToken(s, start, pos - start);
        if (t !== Tok.Error) {
          tok = t;
          litLen = pos - start;
        } else if (tok !== Tok.Error) {
          pos--;
          break;
        }
      }
      toks.push(tok);
      lits.push(s.slice(start, start + litLen));
      continue;
    }
    let end = n;
    while (pos < n) {
      const ch = s.charCodeAt(pos);
      if (ch === 0) {
        end = pos++;
        break;
      }
      if (isSpecial(ch) || isWhitespace(ch)) {
        end = pos;
        break;
      }
      pos++;
    }
    const lit = s.slice(start, end);
    toks.push(lit === 'in' ? Tok.In : lit === 'notin' ? Tok.NotIn : Tok.Identifier);
    lits.push(lit);
  }
}

class ParseFailure extends Error {}

const binaryOperators = 'in, notin, =, ==, !=, gt, lt';

const exactOperators: Partial<Record<Tok, LabelOperator>> = {
  [Tok.Equals]: '=',
  [Tok.DoubleEquals]: '==',
  [Tok.NotEquals]: '!=',
  [Tok.GreaterThan]: 'gt',
  [Tok.LessThan]: 'lt',
};

class Parser {
  private p = 0;

  constructor(
    private readonly toks: Tok[],
    private readonly lits: string[],
  ) {}

  /** In value position `in` and `notin` are ordinary identifiers. */
  private look(values: boolean): Tok {
    const t = this.p < this.toks.length ? this.toks[this.p] : Tok.End;
    return values && (t === Tok.In || t === Tok.NotIn) ? Tok.Identifier : t;
  }

  private lit(): string {
    return this.p < this.lits.length ? this.lits[this.p] : '';
  }

  private next(values: boolean): Tok {
    const t = this.look(values);
    this.p++;
    return t;
  }

  /** the literal of the token `next` returned last */
  private prevLit(): string {
    return this.p <= this.lits.length ? this.lits[this.p - 1] : '';
  }

  parse(): CompiledRequirement[] {
    const reqs: CompiledRequirement[] = [];
    for (;;) {
      const t = this.look(true);
      if (t === Tok.Identifier || t === Tok.Not) {
        try {
          reqs.push(this.requirement());
        } catch (e) {
          if (e instanceof ParseFailure || e instanceof ApiError)
            throw new ParseFailure(`unable to parse requirement: ${e.message}`);
          throw e;
        }
        const after = this.next(true);
        if (after === Tok.End) return reqs;
        if (after !== Tok.Comma)
          throw new ParseFailure(`found '${this.prevLit()}', expected: ',' or 'end of string'`);
        const t2 = this.look(true);
        if (t2 !== Tok.Identifier && t2 !== Tok.Not)
          throw new ParseFailure(`found '${this.lit()}', expected: identifier after ','`);
        continue;
      }
      if (t === Tok.End) return reqs;
      throw new ParseFailure(`found '${this.lit()}', expected: !, identifier, or 'end of string'`);
    }
  }

  private requirement(): CompiledRequirement {
    let op: LabelOperator | undefined;
    let t = this.next(true);
    if (t === Tok.Not) {
      op = '!';
      t = this.next(true);
    }
    const key = this.prevLit();
    if (t !== Tok.Identifier) throw new ParseFailure(`found '${key}', expected: identifier`);
    const errs = isQualifiedName(key);
    if (errs.length > 0) throw new ParseFailure(invalid('<nil>', goQuote(key), errs.join('; ')));
    const ahead = this.look(true);
    if (ahead === Tok.End || ahead === Tok.Comma) op ??= 'exists';
    if (op === 'exists' || op === '!') return newRequirement(key, op, []);

    let values: string[];
    const opTok = this.next(false);
    switch (opTok) {
      case Tok.In:
      case Tok.NotIn:
        op = opTok === Tok.In ? 'in' : 'notin';
        values = this.valueSet();
        break;
      case Tok.Equals:
      case Tok.DoubleEquals:
      case Tok.NotEquals:
      case Tok.GreaterThan:
      case Tok.LessThan:
        op = exactOperators[opTok]!;
        values = this.exactValue();
        break;
      default:
        throw new ParseFailure(`found '${this.prevLit()}', expected: ${binaryOperators}`);
    }
    return newRequirement(key, op, sortedUnique(values));
  }

  /** `( v1, v2 )`; empty entries are the empty value, and `()` is one empty value. */
  private valueSet(): string[] {
    if (this.next(true) !== Tok.OpenPar) throw new ParseFailure(`found '${this.prevLit()}' expected: '('`);
    const t = this.look(true);
    if (t === Tok.ClosedPar) {
      this.next(true);
      return [''];
    }
    if (t !== Tok.Identifier && t !== Tok.Comma)
      throw new ParseFailure(`found '${this.lit()}', expected: ',', ')' or identifier`);
    const values: string[] = [];
    for (;;) {
      const v = this.next(true);
      if (v === Tok.Identifier) {
        values.push(this.prevLit());
        const t2 = this.look(true);
        if (t2 === Tok.Comma) continue;
        if (t2 === Tok.ClosedPar) break;
        throw new ParseFailure(`found '${this.lit()}', expected: ',' or ')'`);
      }
      if (v === Tok.Comma) {
        if (values.length === 0) values.push('');
        const t2 = this.look(true);
        if (t2 === Tok.ClosedPar) {
          values.push('');
          break;
        }
        if (t2 === Tok.Comma) {
          this.next(true);
          values.push('');
        }
        continue;
      }
      throw new ParseFailure(`found '${this.prevLit()}', expected: ',', or identifier`);
    }
    this.next(true); // the closing parenthesis
    return values;
  }

  private exactValue(): string[] {
    const t = this.look(true);
    if (t === Tok.End || t === Tok.Comma) return [''];
    if (this.next(true) === Tok.Identifier) return [this.prevLit()];
    throw new ParseFailure(`found '${this.prevLit()}', expected: identifier`);
  }
}

/** Parses `?labelSelector=`; an empty or blank string selects everything. */
export function parseLabelSelector(text: string): LabelSelector {
  if (text === '') return everything;
  const { toks, lits } = scan(text);
  let reqs: CompiledRequirement[];
  try {
    reqs = new Parser(toks, lits).parse();
  } catch (e) {
    if (e instanceof ParseFailure) throw ApiError.badRequest(e.message);
    throw e;
  }
  return reqs.length === 0 ? everything : new LabelSelector(reqs.sort(byKey));
}
