import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, type Schema, type ValidationRule } from '../../api/index.js';
import { compileValidator } from './index.js';

/** A custom resource schema whose spec has `properties` and `rules`. */
function crd(
  properties: Record<string, Schema>,
  rules: ValidationRule[],
  extra: Partial<Schema> = {},
): Schema {
  return {
    type: 'object',
    properties: {
      metadata: { type: 'object' },
      spec: { type: 'object', properties, 'x-kubernetes-validations': rules, ...extra },
    },
  };
}

function run(schema: Schema, spec: unknown, oldSpec?: unknown, warnings?: string[]): string[] {
  const v = compileValidator(schema);
  assert.ok(v);
  const obj = { apiVersion: 'x.io/v1', kind: 'Foo', metadata: { name: 'a' }, spec };
  const old = oldSpec === undefined ? undefined : { ...obj, spec: oldSpec };
  return v.validate(obj, old, { warnings }).map(formatFieldError);
}

const scalars: Record<string, Schema> = {
  replicas: { type: 'integer' },
  ratio: { type: 'number' },
  name: { type: 'string' },
  'max-surge': { 'x-kubernetes-int-or-string': true },
  start: { type: 'string', format: 'date-time' },
  end: { type: 'string', format: 'date-time' },
  timeout: { type: 'string', format: 'duration' },
  day: { type: 'string', format: 'date' },
  data: { type: 'string', format: 'byte' },
  enabled: { type: 'boolean' },
  opt: { type: 'string', nullable: true },
};

// [rule, spec, errors]: values reach CEL as kube types them
const values: [string, Record<string, unknown>, string[]][] = [
  ['self.replicas + 1 == 4', { replicas: 3 }, []],
  ['type(self.replicas) == int', { replicas: 3 }, []],
  ['self.ratio > 0.5 && type(self.ratio) == double', { ratio: 1 }, []],
  ["self.name.endsWith('x')", { name: 'abx' }, []],
  [
    "type(self.max__dash__surge) == string && self.max__dash__surge.endsWith('%')",
    { 'max-surge': '25%' },
    [],
  ],
  ['type(self.max__dash__surge) == int && self.max__dash__surge > 1', { 'max-surge': 2 }, []],
  ['self.start < self.end', { start: '2024-01-01T00:00:00Z', end: '2024-01-02T00:00:00+01:00' }, []],
  [
    "self.end - self.start == duration('23h')",
    { start: '2024-01-01T00:00:00Z', end: '2024-01-02T00:00:00+01:00' },
    [],
  ],
  ["self.timeout > duration('90s') && self.timeout < duration('1h')", { timeout: '5m' }, []],
  ["self.day == timestamp('2024-02-29T00:00:00Z')", { day: '2024-02-29' }, []],
  ["self.data == b'hi'", { data: 'aGk=' }, []],
  ['self.enabled', { enabled: true }, []],
  ['!has(self.opt)', { opt: null }, []],
  ['self.replicas > 5', { replicas: 3 }, ['spec: Invalid value: "object": failed rule: self.replicas > 5']],
  [
    'self.replicas > 0',
    {},
    ['spec: Invalid value: "object": no such key: replicas evaluating rule: self.replicas > 0'],
  ],
  // int-or-string is dyn: an operator the value's type lacks fails at run time
  [
    'self.max__dash__surge > 0',
    { 'max-surge': '25%' },
    [
      `spec: Invalid value: "object": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: self.max__dash__surge > 0`,
    ],
  ],
];

describe('values as CEL sees them', () => {
  for (const [rule, spec, want] of values) {
    it(`${rule} on ${JSON.stringify(spec)}`, () =>
      assert.deepEqual(run(crd(scalars, [{ rule }]), spec), want));
  }
});

const props = { x: { type: 'integer' }, y: { type: 'integer' } } satisfies Record<string, Schema>;

// [rule, errors]: how a failed rule is reported (spec {x: 1, y: 2})
const failures: [ValidationRule, string[]][] = [
  [
    { rule: 'self.x > self.y', message: ' x must exceed y ' },
    ['spec: Invalid value: "object": x must exceed y'],
  ],
  [
    { rule: 'self.x > self.y', messageExpression: "'x is ' + string(self.x) + ', y is ' + string(self.y)" },
    ['spec: Invalid value: "object": x is 1, y is 2'],
  ],
  [
    { rule: 'self.x > self.y', message: 'fallback', messageExpression: "''" },
    ['spec: Invalid value: "object": fallback'],
  ],
  [
    { rule: 'self.x > self.y', messageExpression: 'string(self.x / 0)' },
    ['spec: Invalid value: "object": failed rule: self.x > self.y'],
  ],
  [
    { rule: 'self.x > self.y', fieldPath: '.x' },
    ['spec.x: Invalid value: "object": failed rule: self.x > self.y'],
  ],
  [{ rule: 'self.x > self.y', reason: 'FieldValueForbidden', message: 'no' }, ['spec: Forbidden: no']],
  [{ rule: 'self.x > self.y', reason: 'FieldValueRequired', message: 'no' }, ['spec: Required value: no']],
  [
    { rule: 'self.x > self.y', reason: 'FieldValueDuplicate', message: 'no' },
    ['spec: Duplicate value: "object"'],
  ],
  [
    { rule: 'self.x / (self.y - 2) > 0' },
    ['spec: Invalid value: "object": division by zero evaluating rule: self.x / (self.y - 2) > 0'],
  ],
];

describe('failures, as kube reports them', () => {
  for (const [rule, want] of failures) {
    it(JSON.stringify(rule), () => assert.deepEqual(run(crd(props, [rule]), { x: 1, y: 2 }), want));
  }
  it('a rule at the root is reported at <nil>', () => {
    const schema: Schema = {
      type: 'object',
      properties: { metadata: { type: 'object' } },
      'x-kubernetes-validations': [
        { rule: "self.metadata.name.startsWith('z')", message: 'name must start with z' },
      ],
    };
    assert.deepEqual(run(schema, undefined), ['<nil>: Invalid value: "object": name must start with z']);
  });
  it('rules below run with their own value, at their own path', () => {
    const schema = crd(
      {
        ports: {
          type: 'array',
          items: {
            type: 'object',
            properties: { port: { type: 'integer' } },
            'x-kubernetes-validations': [{ rule: 'self.port < 1024', message: 'privileged ports only' }],
          },
        },
        labels: {
          type: 'object',
          additionalProperties: { type: 'string', 'x-kubernetes-validations': [{ rule: "self != ''" }] },
        },
      },
      [],
    );
    assert.deepEqual(run(schema, { ports: [{ port: 80 }, { port: 8080 }], labels: { a: 'x', b: '' } }), [
      'spec.ports[1]: Invalid value: "object": privileged ports only',
      `spec.labels[b]: Invalid value: "string": failed rule: self != ''`,
    ]);
  });
});

const versioned: Record<string, Schema> = {
  version: { type: 'integer' },
  mode: { type: 'string' },
  tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
  routes: {
    type: 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['name'],
    items: {
      type: 'object',
      properties: { name: { type: 'string' }, weight: { type: 'integer' } },
      'x-kubernetes-validations': [
        { rule: 'self.weight >= oldSelf.weight', message: 'weight may only grow' },
      ],
    },
  },
};

describe('transition rules (oldSelf)', () => {
  const immutable = crd(versioned, [{ rule: 'self.mode == oldSelf.mode', message: 'mode is immutable' }]);
  it('do not run on create', () => assert.deepEqual(run(immutable, { mode: 'a' }), []));
  it('run on update', () => {
    assert.deepEqual(run(immutable, { mode: 'a' }, { mode: 'a' }), []);
    assert.deepEqual(run(immutable, { mode: 'b' }, { mode: 'a' }), [
      'spec: Invalid value: "object": mode is immutable',
    ]);
  });
  it('with optionalOldSelf run on create too, oldSelf being none', () => {
    const schema = crd(versioned, [
      {
        rule: '!oldSelf.hasValue() ? self.version == 1 : self.version > oldSelf.value().version',
        optionalOldSelf: true,
      },
    ]);
    assert.deepEqual(run(schema, { version: 1 }), []);
    assert.equal(run(schema, { version: 2 }).length, 1);
    assert.deepEqual(run(schema, { version: 3 }, { version: 2 }), []);
    assert.equal(run(schema, { version: 2 }, { version: 2 }).length, 1);
  });
  it('items of a map list meet their old item by key, wherever it moved', () => {
    const old = {
      routes: [
        { name: 'a', weight: 1 },
        { name: 'b', weight: 5 },
      ],
    };
    assert.deepEqual(
      run(
        crd(versioned, []),
        {
          routes: [
            { name: 'b', weight: 5 },
            { name: 'a', weight: 2 },
          ],
        },
        old,
      ),
      [],
    );
    assert.deepEqual(
      run(
        crd(versioned, []),
        {
          routes: [
            { name: 'b', weight: 4 },
            { name: 'c', weight: 0 },
          ],
        },
        old,
      ),
      ['spec.routes[0]: Invalid value: "object": weight may only grow'],
    );
  });
  it('sets and map lists equal their old value in any order', () => {
    const schema = crd(versioned, [{ rule: 'self.tags == oldSelf.tags && self.routes == oldSelf.routes' }]);
    const old = {
      tags: ['a', 'b'],
      routes: [
        { name: 'a', weight: 1 },
        { name: 'b', weight: 2 },
      ],
    };
    assert.deepEqual(
      run(
        schema,
        {
          tags: ['b', 'a'],
          routes: [
            { name: 'b', weight: 2 },
            { name: 'a', weight: 1 },
          ],
        },
        old,
      ),
      [],
    );
    assert.equal(run(schema, { tags: ['b', 'c'], routes: old.routes }, old).length, 1);
    assert.equal(
      run(
        schema,
        {
          tags: old.tags,
          routes: [
            { name: 'a', weight: 2 },
            { name: 'b', weight: 2 },
          ],
        },
        old,
      ).length,
      1,
    );
  });
  it('+ on a set adds what it lacks, on a map list replaces items by key', () => {
    const schema = crd(versioned, [
      { rule: "(self.tags + ['a', 'c']).size() == 3 && (self.routes + oldSelf.routes).size() == 3" },
    ]);
    const routes = (...names: string[]) => names.map((name) => ({ name, weight: 1 }));
    assert.deepEqual(
      run(schema, { tags: ['a', 'b'], routes: routes('a', 'b') }, { routes: routes('b', 'c') }),
      [],
    );
  });
});

describe('ratcheting (kube v1.32)', () => {
  const schema = crd(props, [{ rule: 'self.x > self.y', message: 'x must exceed y' }]);
  it('an unchanged invalid value only warns', () => {
    const warnings: string[] = [];
    assert.deepEqual(run(schema, { x: 1, y: 2 }, { x: 1, y: 2 }, warnings), []);
    assert.deepEqual(warnings, ['spec: Invalid value: "object": x must exceed y']);
  });
  it('a changed one fails', () => assert.equal(run(schema, { x: 0, y: 2 }, { x: 1, y: 2 }).length, 1));
  it('unless ratcheting is off', () => {
    const v = compileValidator(schema)!;
    const obj = { spec: { x: 1, y: 2 } };
    assert.equal(v.validate(obj, obj, { ratcheting: false }).length, 1);
  });
  it('transition rules are never ratcheted', () => {
    const transition = crd(props, [{ rule: 'self.x > oldSelf.y' }]);
    assert.equal(run(transition, { x: 1, y: 2 }, { x: 1, y: 2 }).length, 1);
  });
});

describe('runtime cost budget', () => {
  const big: Record<string, Schema> = { xs: { type: 'array', items: { type: 'integer' } } };
  const xs = Array.from({ length: 2000 }, (_, i) => i);
  it('one call over its limit stops validation', () => {
    const rule = 'self.xs.all(x, self.xs.all(y, x >= 0))';
    assert.deepEqual(run(crd(big, [{ rule }, { rule: 'false' }]), { xs }), [
      `spec: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${rule}`,
    ]);
  });
  it('the object budget spent stops validation', () => {
    const v = compileValidator(crd(big, [{ rule: 'self.xs.all(x, x >= 0)' }, { rule: 'false' }]))!;
    assert.deepEqual(v.validate({ spec: { xs } }, undefined, { budget: 100 }).map(formatFieldError), [
      'spec: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run',
    ]);
  });
});

describe('embedded resources and unknown fields', () => {
  it('an embedded resource exposes apiVersion, kind and metadata.name', () => {
    const schema = crd(
      {
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
          'x-kubernetes-validations': [{ rule: "self.kind == 'Pod' && self.metadata.name != ''" }],
        },
      },
      [],
    );
    assert.deepEqual(
      run(schema, { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} } }),
      [],
    );
    assert.equal(
      run(schema, { template: { apiVersion: 'v1', kind: 'Job', metadata: { name: 'p' } } }).length,
      1,
    );
  });
  it('a schema without rules needs no validator', () =>
    assert.equal(compileValidator(crd(props, [])), undefined));
});
