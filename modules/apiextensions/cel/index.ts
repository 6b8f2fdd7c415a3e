// x-kubernetes-validations of CRD schemas: checked and compiled when a CRD is written (compileSchemaRules),
// compiled once per served version and run on every write of its custom resources (compileValidator).
export { compileSchemaRules, ruleText, type CompileSchemaRulesOptions } from './crd-rules.js';
export { compileValidator, type RuleValidator, type ValidateOptions } from './validator.js';
export { blockingError } from './blocking.js';
export { escapeName, unescapeName } from './escape.js';
export { validFieldPath, type FieldPathResult } from './field-path.js';
export { declType, withTypeAndObjectMeta, type DeclType } from './decl-type.js';
