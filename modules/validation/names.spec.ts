import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  maskTrailingDash,
  nameValidator,
  regexError,
} from './names.js';

const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and " +
  "end with an alphanumeric character (e.g. 'example.com', regex used for validation is " +
  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const labelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end " +
  "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is " +
  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const qualifiedNameMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an " +
  "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is " +
  "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const labelValueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start " +
  "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for " +
  "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('regexError', () => {
  it('joins examples the way kube does, double spaces included', () => {
    assert.equal(regexError('m', 'x'), "m (regex used for validation is 'x')");
    assert.equal(regexError('m', 'x', 'a', 'b'), "m (e.g. 'a',  or 'b', regex used for validation is 'x')");
  });
});

describe('isDNS1123Subdomain', () => {
  const cases: [string, string[]][] = [
    ['a', []],
    ['example.com', []],
    ['a-b.c-d', []],
    ['1.2.3', []],
    ['', [subdomainMsg]],
    ['Upper', [subdomainMsg]],
    ['-start', [subdomainMsg]],
    ['end-', [subdomainMsg]],
    ['a..b', [subdomainMsg]],
    ['under_score', [subdomainMsg]],
    ['a'.repeat(253), []],
    ['a'.repeat(254), ['must be no more than 253 characters']],
    ['A'.repeat(254), ['must be no more than 253 characters', subdomainMsg]],
  ];
  for (const [value, want] of cases) {
    it(`${JSON.stringify(value.length > 20 ? `${value.slice(0, 5)}…(${value.length})` : value)}`, () => {
      assert.deepEqual(isDNS1123Subdomain(value), want);
    });
  }
});

describe('isDNS1123Label', () => {
  const cases: [string, string[]][] = [
    ['default', []],
    ['kube-system', []],
    ['0abc', []],
    ['a.b', ['must not contain dots']],
    ['Abc', [labelMsg]],
    ['a_b', [labelMsg]],
    ['', [labelMsg]],
    ['a'.repeat(63), []],
    ['a'.repeat(64), ['must be no more than 63 characters']],
  ];
  for (const [value, want] of cases) {
    it(JSON.stringify(value.slice(0, 20)), () => assert.deepEqual(isDNS1123Label(value), want));
  }
});

describe('path segment names', () => {
  const cases: [string, string[]][] = [
    ['ok', []],
    ['Any Thing!', []],
    ['.', ["may not be '.'"]],
    ['..', ["may not be '..'"]],
    ['...', []],
    ['a/b', ["may not contain '/'"]],
    ['a%b/c', ["may not contain '/'", "may not contain '%'"]],
  ];
  for (const [value, want] of cases) {
    it(JSON.stringify(value), () => assert.deepEqual(isValidPathSegmentName(value), want));
  }
  it('prefix mode only checks the characters', () => {
    assert.deepEqual(nameValidator('pathSegment')('.', true), []);
    assert.deepEqual(nameValidator('pathSegment')('a/', true), ["may not contain '/'"]);
  });
});

describe('isQualifiedName', () => {
  const cases: [string, string[]][] = [
    ['app', []],
    ['app.kubernetes.io/name', []],
    ['MyName', []],
    ['example.com/My_Name-1', []],
    ['', ['name part must be non-empty', qualifiedNameMsg]],
    ['-bad', [qualifiedNameMsg]],
    ['/name', ['prefix part must be non-empty']],
    ['Example.com/name', [`prefix part ${subdomainMsg}`]],
    ['example.com/', ['name part must be non-empty', qualifiedNameMsg]],
    ['a'.repeat(64), ['name part must be no more than 63 characters']],
    [
      'a/b/c',
      [
        "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an " +
          "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is " +
          "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. " +
          "'example.com/MyName')",
      ],
    ],
  ];
  for (const [value, want] of cases) {
    it(JSON.stringify(value.slice(0, 30)), () => assert.deepEqual(isQualifiedName(value), want));
  }
});

describe('isValidLabelValue', () => {
  const cases: [string, string[]][] = [
    ['', []],
    ['v1.2_3-x', []],
    ['-x', [labelValueMsg]],
    ['a b', [labelValueMsg]],
    ['a'.repeat(64), ['must be no more than 63 characters']],
  ];
  for (const [value, want] of cases) {
    it(JSON.stringify(value.slice(0, 20)), () => assert.deepEqual(isValidLabelValue(value), want));
  }
});

describe('generateName (prefix mode)', () => {
  it('masks a trailing dash by replacing the last two characters with "a"', () => {
    assert.equal(maskTrailingDash('web-'), 'wea');
    assert.equal(maskTrailingDash('a-'), 'a');
    assert.equal(maskTrailingDash('-'), '-');
    assert.equal(maskTrailingDash('web'), 'web');
  });
  const cases: [string, boolean, string[]][] = [
    ['web-', true, []],
    ['web-', false, [subdomainMsg]],
    ['a.-', true, []],
    ['Web-', true, [subdomainMsg]],
    ['-', true, [subdomainMsg]],
  ];
  for (const [value, prefix, want] of cases) {
    it(`${JSON.stringify(value)} prefix=${prefix}`, () => {
      assert.deepEqual(nameValidator('dns1123Subdomain')(value, prefix), want);
    });
  }
  it('dns1123Label rule in prefix mode', () => {
    assert.deepEqual(nameValidator('dns1123Label')('team-', true), []);
    assert.deepEqual(nameValidator('dns1123Label')('team.a-', true), ['must not contain dots']);
  });
});
