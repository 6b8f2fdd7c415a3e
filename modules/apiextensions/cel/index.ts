// x-kubernetes-validations of CRD schemas, as kube v1.32 checks and runs them.
//
// On a CRD write, once a version's schema is known to be structural: compileSchemaRules(schema, path) gives the
// CEL errors kube reports (rules that do not compile, estimated costs over budget, oldSelf where values do not
// correlate, optionalOldSelf without oldSelf), after the schema's own errors.
//
// When a version is served: compileValidator(schema) compiles its rules once; keep it with the definition. On each
// create (validate(obj)) and update (validate(obj, old)) of a custom resource, after schema validation: if
// blockingError(schemaErrors) (modules/schema) gives an error, report it instead of running the rules; else report
// validate()'s errors (422, field `<nil>` for rules at the root) and send the ratcheted ones as warnings.
export { compileSchemaRules, ruleText, type CompileSchemaRulesOptions } from './crd-rules.js';
export { compileValidator, type RuleValidator, type ValidateOptions } from './validator.js';
export { escapeName, unescapeName } from './escape.js';
export { declType, withTypeAndObjectMeta, type DeclType } from './decl-type.js';
