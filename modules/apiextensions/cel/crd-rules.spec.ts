import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fieldError, formatFieldError, type Schema, type ValidationRule } from '../../api/index.js';
import { blockingError } from '../../schema/index.js';
import { compileSchemaRules } from './index.js';

const root = 'spec.versions[0].schema.openAPIV3Schema';

/** A CRD schema whose spec holds `spec` and carries `rules`. */
function withSpec(spec: Schema, rules: ValidationRule[]): Schema {
  return {
    type: 'object',
    properties: { spec: { ...spec, 'x-kubernetes-validations': rules } },
  };
}

const specSchema: Schema = {
  type: 'object',
  properties: {
    replicas: { type: 'integer' },
    ratio: { type: 'number' },
    name: { type: 'string', maxLength: 63 },
    'max-surge': { 'x-kubernetes-int-or-string': true },
    namespace: { type: 'string' },
    start: { type: 'string', format: 'date-time' },
    timeout: { type: 'string', format: 'duration' },
    tags: {
      type: 'array',
      items: { type: 'string', maxLength: 10 },
      maxItems: 10,
      'x-kubernetes-list-type': 'set',
    },
    labels: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 20 },
    free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  },
};

const compiles: string[] = [
  'self.replicas > 0',
  'self.ratio >= 0.5',
  'self.name.startsWith("a")',
  "type(self.max__dash__surge) == string ? self.max__dash__surge.matches('^[0-9]+%$') : self.max__dash__surge >= 0",
  'self.__namespace__ != ""',
  "self.start > timestamp('2020-01-01T00:00:00Z')",
  "self.timeout < duration('1h')",
  'self.tags.all(t, t.size() < 5)',
  "self.labels.all(k, k.startsWith('app'))",
  "'app' in self.labels && self.labels['app'] != ''",
  'has(self.replicas) || self.tags.size() == 0',
  'self == oldSelf',
  'self.tags == oldSelf.tags',
  '!has(self.free)',
  'self.?name.orValue("") != "x"',
  'self.replicas == oldSelf.replicas || oldSelf.replicas == 0',
  "has(self.tags) && self.tags.size() > 0 && self.tags[0] != ''",
  "string(self.timeout) == '60s' || string(self.start) != ''",
];

describe('rules that compile', () => {
  for (const rule of compiles) {
    it(rule, () => assert.deepEqual(compileSchemaRules(withSpec(specSchema, [{ rule }]), root), []));
  }
  it('the root sees apiVersion, kind, metadata.name and metadata.generateName', () => {
    const schema: Schema = {
      type: 'object',
      properties: { metadata: { type: 'object' } },
      'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('a') && self.kind == 'Foo'" }],
    };
    assert.deepEqual(compileSchemaRules(schema, root), []);
  });
});

const at = `${root}.properties[spec].x-kubernetes-validations[0]`;

/** The field errors of a spec rule, as kube's messages. */
function errors(rule: ValidationRule, spec: Schema = specSchema): string[] {
  return compileSchemaRules(withSpec(spec, [rule]), root).map(formatFieldError);
}

const valueOf = (rule: string) =>
  `apiextensions.ValidationRule{Rule:${JSON.stringify(rule)}, Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}`;

describe('rules that do not compile (kube wording)', () => {
  it('an undefined field', () => {
    assert.deepEqual(errors({ rule: 'self.foo == 1' }), [
      `${at}.rule: Invalid value: ${valueOf('self.foo == 1')}: compilation failed: ERROR: <input>:1:5: undefined field 'foo'\n | self.foo == 1\n | ....^`,
    ]);
  });
  it('a field the root does not expose', () => {
    const schema: Schema = {
      type: 'object',
      properties: { metadata: { type: 'object' } },
      'x-kubernetes-validations': [{ rule: 'has(self.metadata.labels)' }],
    };
    const [e] = compileSchemaRules(schema, root).map(formatFieldError);
    assert.match(e, /x-kubernetes-validations\[0\]\.rule: .*undefined field 'labels'/);
  });
  it('has() and .? of an undefined field', () => {
    for (const rule of ['has(self.foo)', "self.?foo.orValue('') == ''"]) {
      const [e] = errors({ rule });
      assert.match(e, /compilation failed: ERROR: <input>:1:\d+: undefined field 'foo'/, rule);
    }
  });
  it('a rule that is not a bool', () => {
    assert.deepEqual(errors({ rule: 'self.replicas' }), [
      `${at}.rule: Invalid value: ${valueOf('self.replicas')}: cel expression must evaluate to a bool`,
    ]);
  });
  it('mismatched types', () => {
    const [e] = errors({ rule: 'self.replicas == "a"' });
    assert.match(
      e,
      /compilation failed: ERROR: <input>:1:\d+: found no matching overload for '_==_' applied to '\(int, string\)'/,
    );
  });
  it('a messageExpression that is not a string', () => {
    const rule = { rule: 'self.replicas > 0', messageExpression: 'self.replicas' };
    assert.deepEqual(errors(rule), [
      `${at}.messageExpression: Invalid value: apiextensions.ValidationRule{Rule:"self.replicas > 0", Message:"", MessageExpression:"self.replicas", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: messageExpression must evaluate to a string`,
    ]);
  });
  it('a messageExpression that does not compile', () => {
    const [e] = errors({ rule: 'self.replicas > 0', messageExpression: 'self.nope' });
    assert.match(
      e,
      /\.messageExpression: Invalid value: .*: messageExpression compilation failed: ERROR: <input>:1:5: undefined field 'nope'/,
    );
  });
});

const costHint =
  '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';

describe('estimated cost', () => {
  const unbounded: Schema = {
    type: 'object',
    properties: { xs: { type: 'array', items: { type: 'string' } } },
  };
  it('a quadratic rule over an unbounded list is over budget, and so is the schema', () => {
    assert.deepEqual(errors({ rule: 'self.xs.all(x, self.xs.all(y, x == y))' }, unbounded), [
      `${at}.rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${costHint}`,
      `${at}.rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${root}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${costHint}`,
    ]);
  });
  it('maxItems and maxLength bring it within budget', () => {
    const bounded: Schema = {
      type: 'object',
      properties: { xs: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 64 } } },
    };
    assert.deepEqual(errors({ rule: 'self.xs.all(x, self.xs.all(y, x == y))' }, bounded), []);
  });
  it('a rule under an unbounded list is multiplied by how often its node fits in a request', () => {
    // a string of unbounded length costs 314,574 to search; items of at least 2 bytes repeat ~1M times
    const items: Schema = {
      type: 'object',
      properties: {
        xs: {
          type: 'array',
          items: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.contains('a')" }] },
        },
      },
    };
    const [e] = compileSchemaRules(withSpec(items, []), root).map(formatFieldError);
    assert.match(
      e,
      /properties\[xs\]\.items\.x-kubernetes-validations\[0\]\.rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x/,
    );
    const bounded: Schema = {
      type: 'object',
      properties: {
        xs: {
          type: 'array',
          maxItems: 10,
          items: {
            type: 'string',
            maxLength: 100,
            'x-kubernetes-validations': [{ rule: "self.contains('a')" }],
          },
        },
      },
    };
    assert.deepEqual(compileSchemaRules(withSpec(bounded, []), root), []);
  });
  it('the total of a schema has its own limit, naming the most expensive rules', () => {
    // each rule: a 3 MiB string matched against a 40-character pattern, ~3.1M, under the per-rule limit;
    // 40 of them are over 100M
    const pattern = (i: number) => `^${String(i).padStart(2, '0')}${'x'.repeat(36)}$`;
    const rules = Array.from({ length: 40 }, (_, i) => ({ rule: `self.s.matches('${pattern(i)}')` }));
    const schema: Schema = { type: 'object', properties: { s: { type: 'string' } } };
    const errs = compileSchemaRules(withSpec(schema, rules), root).map(formatFieldError);
    const total = errs.at(-1)!;
    assert.match(
      total,
      new RegExp(
        `^${root.replace(/[.[\]]/g, '\\$&')}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1\\.\\d+x`,
      ),
    );
    const named = errs.slice(0, -1);
    assert.equal(named.length, 4);
    for (const e of named) {
      assert.match(
        e,
        /x-kubernetes-validations\[\d+\]\.rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema/,
      );
    }
  });
});

describe('oldSelf and optionalOldSelf', () => {
  const list = (listType?: 'atomic' | 'set' | 'map'): Schema => ({
    type: 'object',
    properties: {
      items: {
        type: 'array',
        maxItems: 10,
        ...(listType && { 'x-kubernetes-list-type': listType }),
        ...(listType === 'map' && { 'x-kubernetes-list-map-keys': ['name'] }),
        items: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string', maxLength: 10 }, v: { type: 'integer' } },
          'x-kubernetes-validations': [{ rule: 'self.v >= oldSelf.v' }],
        },
      },
    },
  });
  it('a transition rule inside an atomic list cannot correlate', () => {
    for (const t of [undefined, 'atomic', 'set'] as const) {
      assert.deepEqual(compileSchemaRules(withSpec(list(t), []), root).map(formatFieldError), [
        `${root}.properties[spec].properties[items].items.x-kubernetes-validations[0].rule: Invalid value: "self.v >= oldSelf.v": oldSelf cannot be used on the uncorrelatable portion of the schema within ${root}.properties[spec].properties[items]`,
      ]);
    }
  });
  it('items of a map list correlate by key', () => {
    assert.deepEqual(compileSchemaRules(withSpec(list('map'), []), root), []);
  });
  it('optionalOldSelf needs a transition rule', () => {
    assert.deepEqual(errors({ rule: 'self.replicas > 0', optionalOldSelf: true }), [
      `${at}.optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`,
    ]);
    assert.deepEqual(
      errors({
        rule: '!oldSelf.hasValue() || self.replicas >= oldSelf.value().replicas',
        optionalOldSelf: true,
      }),
      [],
    );
  });
  it('without optionalOldSelf, oldSelf is not an optional', () => {
    const [e] = errors({ rule: 'oldSelf.hasValue()' });
    assert.match(e, /compilation failed/);
  });
});

describe('the form of rules (checkRuleForm)', () => {
  const form = (rule: ValidationRule) =>
    compileSchemaRules(withSpec(specSchema, [rule]), root, { checkRuleForm: true }).map(formatFieldError);
  const cases: [ValidationRule, string][] = [
    [{ rule: '  ' }, `${at}.rule: Required value: rule is not specified`],
    [
      { rule: 'true', message: ' ' },
      `${at}.message: Invalid value: " ": message must be non-empty if specified`,
    ],
    [
      { rule: 'true', message: 'a\nb' },
      `${at}.message: Invalid value: "a\\nb": message must not contain line breaks`,
    ],
    [
      { rule: 'true &&\ntrue' },
      `${at}.message: Required value: message must be specified if rule contains line breaks`,
    ],
    [
      { rule: 'true', messageExpression: ' ' },
      `${at}.messageExpression: Required value: messageExpression must be non-empty if specified`,
    ],
    [
      { rule: 'true', reason: 'Nope' },
      `${at}.reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
    ],
    [
      { rule: 'true', fieldPath: '.nope' },
      `${at}.fieldPath: Invalid value: ".nope": fieldPath must be a valid path`,
    ],
  ];
  for (const [rule, want] of cases) it(want, () => assert.deepEqual(form(rule), [want]));
  it('a valid fieldPath and reason pass', () => {
    assert.deepEqual(form({ rule: 'true', fieldPath: '.replicas', reason: 'FieldValueForbidden' }), []);
  });
});

describe('nodes CEL cannot see', () => {
  it('rules on a node without a type are an internal error, as in kube', () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        free: {
          'x-kubernetes-preserve-unknown-fields': true,
          'x-kubernetes-validations': [{ rule: 'true' }],
        },
      },
    };
    assert.deepEqual(compileSchemaRules(schema, root).map(formatFieldError), [
      `${root}.properties[free].x-kubernetes-validations: Internal error: internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations`,
    ]);
  });
});

describe('blockingError', () => {
  it('stands in for the rules when schema errors make them meaningless', () => {
    assert.equal(blockingError([fieldError.invalid('spec.x', 'a', 'bad')]), undefined);
    const e = blockingError([fieldError.required('spec.x', '')]);
    assert.equal(
      e && formatFieldError(e),
      '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    );
  });
});
