/** kube's JSONPath: parsing (with its error messages), evaluation, and printing as kubectl prints. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { executeJSONPath, findResults, goFloat, goJSON } from './jsonpath-eval.js';
import { parseJSONPath } from './jsonpath.js';

const pod = {
  kind: 'Pod',
  metadata: { name: 'p1', labels: { app: 'web', 'kubernetes.io/role': 'x' }, annotations: { 'a.b': 'dots' } },
  spec: {
    containers: [
      { name: 'c1', image: 'nginx', ports: [{ containerPort: 80 }, { containerPort: 443 }] },
      { name: 'c2', image: 'busybox', ready: true },
      { name: 'c3', image: 'redis', restarts: 2.5 },
    ],
    replicas: 3,
  },
  status: {
    conditions: [
      { type: 'Ready', status: 'True' },
      { type: 'Scheduled', status: 'False', count: 1 },
    ],
    empty: null,
  },
};

describe('JSONPath evaluation', () => {
  const cases: { name: string; template: string; want: string }[] = [
    { name: 'a field', template: '{.metadata.name}', want: 'p1' },
    { name: 'text around actions', template: 'name={.metadata.name} kind={.kind}', want: 'name=p1 kind=Pod' },
    { name: 'the leading $ or @', template: '{$.kind}{@.kind}', want: 'PodPod' },
    { name: 'an index', template: '{.spec.containers[1].name}', want: 'c2' },
    { name: 'a negative index', template: '{.spec.containers[-1].name}', want: 'c3' },
    { name: 'a slice', template: '{.spec.containers[0:2].name}', want: 'c1 c2' },
    { name: 'a slice with a step', template: '{.spec.containers[::2].name}', want: 'c1 c3' },
    { name: 'a slice to the end', template: '{.spec.containers[1:].name}', want: 'c2 c3' },
    { name: 'a wildcard', template: '{.spec.containers[*].image}', want: 'nginx busybox redis' },
    { name: 'a field wildcard', template: '{.metadata.labels.*}', want: 'web x' },
    { name: 'recursive descent', template: '{..containerPort}', want: '80 443' },
    { name: 'a union of indexes', template: '{.spec.containers[0,2].name}', want: 'c1 c3' },
    { name: 'a union of fields', template: "{.spec.containers[0]['name','image']}", want: 'c1 nginx' },
    { name: 'a quoted key', template: "{.metadata['labels']['app']}", want: 'web' },
    { name: 'an escaped dot', template: '{.metadata.annotations.a\\.b}', want: 'dots' },
    { name: 'an escaped dot in a quoted key', template: "{.metadata.annotations['a\\.b']}", want: 'dots' },
    { name: 'a filter ==', template: '{.status.conditions[?(@.type=="Ready")].status}', want: 'True' },
    {
      name: 'a filter with spaces and single quotes',
      template: "{.status.conditions[?(@.type == 'Scheduled')].status}",
      want: 'False',
    },
    { name: 'a filter !=', template: '{.status.conditions[?(@.type!="Ready")].type}', want: 'Scheduled' },
    {
      name: 'a filter on numbers',
      template: '{.spec.containers[0].ports[?(@.containerPort>100)].containerPort}',
      want: '443',
    },
    {
      name: 'a filter <=',
      template: '{.spec.containers[0].ports[?(@.containerPort<=80)].containerPort}',
      want: '80',
    },
    { name: 'an existence filter', template: '{.spec.containers[?(@.ready)].name}', want: 'c2' },
    { name: 'a filter on a boolean', template: '{.spec.containers[?(@.ready==true)].name}', want: 'c2' },
    {
      name: 'objects print as JSON with sorted keys',
      template: '{.status.conditions[0]}',
      want: '{"status":"True","type":"Ready"}',
    },
    {
      name: 'lists print as JSON',
      template: '{.spec.containers[0].ports}',
      want: '[{"containerPort":80},{"containerPort":443}]',
    },
    {
      name: 'numbers and booleans',
      template: '{.spec.replicas} {.spec.containers[1].ready} {.spec.containers[2].restarts}',
      want: '3 true 2.5',
    },
    { name: 'null', template: '{.status.empty}', want: 'null' },
    { name: 'a missing key is nothing (allowMissingKeys)', template: '[{.metadata.nothing}]', want: '[]' },
    { name: 'an empty slice', template: '{.spec.containers[1:1]}', want: '' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(executeJSONPath(c.template, pod), c.want));

  it('results come per part, all matches', () => {
    assert.deepEqual(findResults(parseJSONPath('x{.spec.containers[*].name}'), pod), [
      ['x'],
      ['c1', 'c2', 'c3'],
    ]);
  });
});

describe('JSONPath errors', () => {
  const parseErrors: { template: string; want: string }[] = [
    { template: '{.a', want: 'unclosed action' },
    { template: '{.a[1}', want: 'unterminated array' },
    { template: '{.a[?(@.b=="c"}', want: 'unterminated filter' },
    { template: '{.a[?(@.b=="c")}', want: 'unclosed array expect ]' },
    { template: '{"abc}', want: 'unterminated quoted string' },
    { template: '{.a[x]}', want: 'invalid array index x' },
    { template: '{.a[1:-]}', want: 'array index - is not a number' },
    { template: '{....a}', want: 'invalid multiple recursive descent' },
    { template: '{(}', want: "unrecognized character in action: U+0028 '('" },
    { template: '{1.2.3}', want: 'cannot parse number 1.2.3' },
  ];
  for (const c of parseErrors)
    it(`parse ${c.template}`, () => assert.throws(() => parseJSONPath(c.template), { message: c.want }));

  const evalErrors: { template: string; want: string }[] = [
    { template: '{.metadata.nothing}', want: 'nothing is not found' },
    { template: '{.spec.containers[5]}', want: 'array index out of bounds: index 5, length 3' },
    { template: '{.spec.containers[0:9]}', want: 'array index out of bounds: index 8, length 3' },
    { template: '{.spec.containers[2:1]}', want: 'starting index 2 is greater than ending index 1' },
    { template: '{.spec.containers[::0]}', want: 'step must be > 0' },
    { template: '{.kind[0]}', want: 'string is not array or slice' },
    { template: '{.spec.containers[?(@.name==1)]}', want: 'incompatible types for comparison' },
    { template: '{.status.conditions[?(@.type<true)]}', want: 'incompatible types for comparison' },
    { template: '{.spec.containers[?(@.ready<true)]}', want: 'invalid type for comparison' },
    { template: '{.spec.containers[?(@.restarts==2)]}', want: 'incompatible types for comparison' },
    { template: '{.spec.containers[?(@.name=<"c")]}', want: 'unrecognized filter operator =<' },
  ];
  for (const c of evalErrors)
    it(`evaluate ${c.template}`, () => {
      const missing = c.want.endsWith('is not found') ? {} : { allowMissingKeys: true };
      assert.throws(() => findResults(parseJSONPath(c.template), pod, missing), { message: c.want });
    });
});

describe('Go printing', () => {
  it('floats as fmt.Print', () => {
    assert.deepEqual([0.5, 1e-5, 123456.5, 1234567.5, -2.25].map(goFloat), [
      '0.5',
      '1e-05',
      '123456.5',
      '1.2345675e+06',
      '-2.25',
    ]);
  });
  it('JSON as encoding/json', () => {
    assert.equal(
      goJSON({ b: '<a&b>', a: [1, { d: 1, c: 2 }] }),
      '{"a":[1,{"c":2,"d":1}],"b":"\\u003ca\\u0026b\\u003e"}',
    );
  });
});
