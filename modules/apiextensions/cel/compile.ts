// The rules of one schema node compiled as kube compiles them. Each rule is type-checked with `self` (and
// `oldSelf`, an optional with optionalOldSelf) typed from the node's schema, so an unknown field is a compile
// error and the estimate knows every size. The program that runs is compiled a second time with untyped
// variables over unstructured values (see modules/cel/unstructured.ts): shared by every CRD, it is compiled once
// per expression, and it takes the values as they are, without building a typed object per node.
import type { ASTNode } from '@marcbachmann/cel-js';
import type { Schema, ValidationRule } from '../../api/index.js';
import {
  celEnvironment,
  type CelEnvironment,
  type CelProgram,
  type ObjectTypeDeclaration,
} from '../../cel/index.js';
import { celTypeName, sizeSchema, type DeclType } from './decl-type.js';
import { validFieldPath } from '../crd/index.js';

export interface CompiledRule {
  rule: ValidationRule;
  /** why the rule does not compile, in kube's words */
  error?: string;
  program?: CelProgram;
  /** the rule refers to `oldSelf`: a transition rule, run on updates only (or with optionalOldSelf) */
  usesOldSelf: boolean;
  /** estimated worst-case cost of one evaluation */
  maxCost: number;
  messageError?: string;
  message?: CelProgram;
  messageMaxCost: number;
  /** the fieldPath as a field path relative to the node (`spec.x`, `[key]`), when given and valid */
  fieldPath?: string;
}

let runtime: { plain: CelEnvironment; optional: CelEnvironment } | undefined;

/** The environments the rules run in: one for every CRD, untyped, values as kube's unstructured ones. */
function runtimeEnvironments() {
  return (runtime ??= {
    plain: celEnvironment({ variables: { self: 'dyn', oldSelf: 'dyn' }, unstructured: true }),
    optional: celEnvironment({ variables: { self: 'dyn', oldSelf: 'optional<dyn>' }, unstructured: true }),
  });
}

let typeNames = 0;

/** The node's checking environments, `self` typed from its schema (kube names the type selfType<N>). */
function typedEnvironments(decl: DeclType) {
  const types: ObjectTypeDeclaration[] = [];
  const self = celTypeName(decl, `selfType${++typeNames}`, types);
  const size = sizeSchema(decl);
  const schemas = { self: size, oldSelf: size };
  let plain: CelEnvironment | undefined;
  let optional: CelEnvironment | undefined;
  return {
    plain: () => (plain ??= celEnvironment({ variables: { self, oldSelf: self }, types, schemas })),
    optional: () =>
      (optional ??= celEnvironment({ variables: { self, oldSelf: `optional<${self}>` }, types, schemas })),
  };
}

function usesVariable(ast: ASTNode, name: string): boolean {
  const seen = new Set<unknown>();
  const visit = (x: unknown): boolean => {
    if (x === null || typeof x !== 'object' || seen.has(x)) return false;
    seen.add(x);
    if (Array.isArray(x)) return x.some(visit);
    if (!('op' in x)) return false;
    const n = x as { op: string; args: unknown; meta: { alternate?: unknown; macro?: object } };
    if (n.op === 'id' && n.args === name) return true;
    if (n.meta.alternate && visit(n.meta.alternate)) return true;
    if (n.meta.macro && Object.values(n.meta.macro).some(visit)) return true;
    if (Array.isArray(n.args)) return visit(n.args);
    return (
      n.args !== null && typeof n.args === 'object' && (visit(n.args) || Object.values(n.args).some(visit))
    );
  };
  return visit(ast);
}

function compileRule(
  rule: ValidationRule,
  schema: Schema,
  typed: CelEnvironment,
  run: CelEnvironment,
): CompiledRule {
  const out: CompiledRule = { rule, usesOldSelf: false, maxCost: 0, messageMaxCost: 0 };
  if (rule.rule.trim() === '') return out;
  const checked = typed.compile(rule.rule);
  if (!checked.ok) return { ...out, error: checked.error };
  if (checked.program.type !== 'bool') return { ...out, error: 'cel expression must evaluate to a bool' };
  const program = run.compile(rule.rule);
  if (!program.ok) return { ...out, error: program.error };
  out.usesOldSelf = usesVariable(checked.program.ast, 'oldSelf');
  out.maxCost = checked.program.estimatedCost().max;
  out.program = program.program;
  if (rule.messageExpression) {
    const message = typed.compile(rule.messageExpression);
    if (!message.ok) {
      out.messageError = `messageExpression ${message.error}`;
    } else if (message.program.type !== 'string') {
      out.messageError = 'messageExpression must evaluate to a string';
    } else {
      const runnable = run.compile(rule.messageExpression);
      if (!runnable.ok) out.messageError = `messageExpression ${runnable.error}`;
      else {
        out.message = runnable.program;
        out.messageMaxCost = message.program.estimatedCost().max;
      }
    }
  }
  if (rule.fieldPath) {
    const path = validFieldPath(rule.fieldPath, schema as Record<string, unknown>, true);
    if (path.ok) out.fieldPath = path.path;
  }
  return out;
}

/**
 * Compiles the rules of a node whose schema is `schema` and CEL type `decl` (undefined: the node is not
 * visible to CEL, which kube reports as a compiler initialization error).
 */
export function compileRules(
  rules: ValidationRule[],
  schema: Schema,
  decl: DeclType | undefined,
): { rules: CompiledRule[]; error?: string } {
  if (rules.length === 0) return { rules: [] };
  if (!decl) return { rules: [], error: 'failed to convert to declType for CEL validation rules' };
  const typed = typedEnvironments(decl);
  const run = runtimeEnvironments();
  return {
    rules: rules.map((rule) =>
      rule.optionalOldSelf
        ? compileRule(rule, schema, typed.optional(), run.optional)
        : compileRule(rule, schema, typed.plain(), run.plain),
    ),
  };
}
