import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Optional } from '@marcbachmann/cel-js';
import { CelAuthorizer, authorizerType, celEnvironment, type CelAuthzAttributes } from './index.js';

const asked: CelAuthzAttributes[] = [];
const authorizer = new CelAuthorizer({ name: 'alice', groups: ['dev'] }, (a) => {
  asked.push(a);
  return a.verb === 'get' ? { decision: 'allow', reason: 'rbac says so' } : { decision: 'noOpinion' };
});
const env = celEnvironment({
  variables: { authorizer: authorizerType, self: 'map<string, dyn>' },
});

function value(expression: string): unknown {
  const c = env.compile(expression);
  assert.ok(c.ok, c.ok ? '' : c.error);
  const r = c.program.evaluate({ authorizer, self: { a: 1n } });
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.value;
}

// results as kube's library docs and tests give them (facts)
const truths = [
  '[1, 2, 3].isSorted()',
  "['a', 'b', 'b', 'c'].isSorted()",
  '![2.0, 1.0].isSorted()',
  '[1, 2, 3].sum() == 6',
  '[1.0, 2.0].sum() == 3.0',
  '[].sum() == 0',
  '[1, 2].min() == 1',
  "['d', 'a', 'b'].max() == 'd'",
  "['a', 'b', 'b', 'c'].indexOf('b') == 1",
  "['a', 'b', 'b', 'c'].lastIndexOf('b') == 2",
  '[1, 2].indexOf(3) == -1',
  "'abc 123'.find('[0-9]+') == '123'",
  "'abc'.find('1') == ''",
  "'key=v'.find('(?P<k>[a-z]+)=') == 'key='",
  "'ABC'.matches('(?i)^abc$')",
  "'123 abc 456'.findAll('[0-9]+') == ['123', '456']",
  "'123 abc 456'.findAll('[0-9]+', 1) == ['123']",
  "isURL('https://user:pass@example.com:80/path?query=val#fragment')",
  "isURL('/absolute-path')",
  "!isURL('../relative-path')",
  "url('https://example.com/').getScheme() == 'https'",
  "url('/absolute-path').getScheme() == ''",
  "url('https://example.com:80/').getHost() == 'example.com:80'",
  "url('https://[::1]:80/').getHost() == '[::1]:80'",
  "url('https://[::1]:80/').getHostname() == '::1'",
  "url('https://example.com:80/').getPort() == '80'",
  "url('https://example.com/').getPort() == ''",
  "url('https://example.com/path with spaces/').getEscapedPath() == '/path%20with%20spaces/'",
  "url('https://example.com/a%2Fb').getEscapedPath() == '/a%2Fb'",
  "url('https://example.com/a!b').getEscapedPath() == '/a!b'",
  "url('/a b!').getEscapedPath() == '/a%20b%21'",
  "format.uri().validate('../relative').value() == ['parse \"../relative\": invalid URI for request']",
  "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}",
  "quantity('50k') == quantity('50000')",
  "isQuantity('1.3G')",
  "!isQuantity('1.3GiB')",
  "quantity('1.5G').isInteger()",
  "!quantity('50m').isInteger()",
  "quantity('50k').asInteger() == 50000",
  "quantity('50m').asApproximateFloat() == 0.05",
  "quantity('-50M').sign() == -1",
  "quantity('1Ki').asInteger() == 1024",
  "quantity('50k').add(quantity('20k')) == quantity('70k')",
  "quantity('50k').add(20) == quantity('50020')",
  "quantity('50k').sub(quantity('20k')) == quantity('30k')",
  "quantity('50M').isGreaterThan(quantity('50k'))",
  "quantity('50k').isLessThan(quantity('100k'))",
  "quantity('200M').compareTo(quantity('0.2G')) == 0",
  "isIP('127.0.0.1')",
  "isIP('::1')",
  "!isIP('127.0.0.256')",
  "!isIP('::ffff:127.0.0.1')",
  "!isIP('127.0.0.1/24')",
  "ip('127.0.0.1').family() == 4",
  "ip('::1').family() == 6",
  "ip('127.0.0.1').isLoopback()",
  "ip('0.0.0.0').isUnspecified()",
  "ip('224.0.0.1').isLinkLocalMulticast()",
  "ip('fe80::1').isLinkLocalUnicast()",
  "ip('192.168.0.1').isGlobalUnicast()",
  "ip('240.0.0.1').isGlobalUnicast()",
  "!ip('255.255.255.255').isGlobalUnicast()",
  "!ip('ff02::1').isGlobalUnicast()",
  "ip('ff12::1').isLinkLocalMulticast()",
  "ip.isCanonical('2001:db8::abcd')",
  "!ip.isCanonical('2001:DB8::ABCD')",
  "string(ip('2001:db8:0:0:0:0:0:1')) == '2001:db8::1'",
  "isCIDR('192.168.0.0/16')",
  "!isCIDR('192.168.0.0/33')",
  "cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))",
  "!cidr('192.168.0.0/24').containsIP('192.168.1.1')",
  "cidr('192.168.0.0/16').containsCIDR('192.168.10.0/24')",
  "!cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.0/16'))",
  "cidr('192.168.1.5/16').masked() == cidr('192.168.0.0/16')",
  "cidr('192.168.0.0/16').prefixLength() == 16",
  "cidr('192.168.0.0/16').ip() == ip('192.168.0.0')",
  "!format.dns1123Label().validate('my-name').hasValue()",
  "format.dns1123Label().validate('MY_NAME').hasValue()",
  "format.named('dns1123Subdomain').hasValue()",
  "!format.named('nope').hasValue()",
  "!format.uuid().validate('6BA7B810-9DAD-11D1-80B4-00C04FD430C8').hasValue()",
  "format.uuid().validate('6ba7b810').value() == ['does not match the UUID format']",
  "!format.date().validate('2024-02-29').hasValue()",
  "format.date().validate('2023-02-29').value() == ['invalid date']",
  "format.byte().validate('a').value() == ['invalid base64']",
  "!format.labelValue().validate('a').hasValue()",
  'sets.contains([1, 2, 3, 4], [2, 3])',
  '!sets.contains([1, 2], [3])',
  'sets.equivalent([1, 2], [2, 1, 1])',
  'sets.intersects([1, 2], [2, 3])',
  "'hello'.charAt(1) == 'e'",
  "'hello'.charAt(5) == ''",
  "'hello hello'.replace('he', 'we') == 'wello wello'",
  "'hello hello'.replace('he', 'we', 1) == 'wello hello'",
  "'%s is %d'.format(['x', 3]) == 'x is 3'",
  "'%.2f'.format([3.14159]) == '3.14'",
  'strings.quote(\'a"b\\n\') == \'"a\\\\"b\\\\n"\'',
  "'TacoCat'.lowerAscii() == 'tacocat'",
  "'ÉA'.lowerAscii() == 'Éa'",
  "'éa'.upperAscii() == 'éA'",
  "['Ab'].map(s, s.lowerAscii()) == ['ab']",
  "['a', 'b'].join('-') == 'a-b'",
  '[1, 2, 3].all(i, v, i < v)',
  '[1, 2, 3].exists(i, v, i == 1 && v == 2)',
  "{'a': 1, 'b': 2}.existsOne(k, v, v == 2)",
  '[1, 2, 3].transformList(i, v, i * v) == [0, 2, 6]',
  '[1, 2, 3].transformList(i, v, v > 1, v * 10) == [20, 30]',
  "{'a': 1, 'b': 2}.transformMap(k, v, v + 1) == {'a': 2, 'b': 3}",
  "{'a': 1, 'b': 2}.transformMap(k, v, v > 1, k) == {'b': 'b'}",
  "{'a': 1}.transformMapEntry(k, v, {k + 'x': v}) == {'ax': 1}",
  'optional.of(1).hasValue()',
  '!optional.ofNonZeroValue(0).hasValue()',
  "!optional.ofNonZeroValue('').hasValue()",
  'optional.ofNonZeroValue([1]).hasValue()',
  'optional.of(1).optMap(x, x + 1).value() == 2',
  '!optional.none().optMap(x, x + 1).hasValue()',
  'optional.of(1).optFlatMap(x, optional.of(x * 3)).value() == 3',
  'self.?b.orValue(5) == 5',
  'self.?a.value() == 1',
  "authorizer.group('apps').resource('deployments').namespace('ns').name('x').check('get').allowed()",
  "authorizer.group('').resource('pods').check('get').reason() == 'rbac says so'",
  "!authorizer.path('/healthz').check('post').allowed()",
  "!authorizer.serviceAccount('ns', 'sa').group('').resource('pods').check('list').errored()",
];

describe('CEL libraries (kube v1.32 results)', () => {
  for (const expression of truths) it(expression, () => assert.equal(value(expression), true));
  it('format.validate lists the errors', () => {
    const v = value(
      "format.dns1123Label().validate('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')",
    ) as Optional<string[]>;
    assert.deepEqual(v.value(), ['must be no more than 63 characters']);
  });
  it('the authorizer callback gets kube attributes, selectors included', () => {
    asked.length = 0;
    value(
      "authorizer.group('').resource('pods').fieldSelector('spec.nodeName=n').labelSelector('a=b').check('list').allowed() == false",
    );
    value("authorizer.serviceAccount('ns', 'sa').path('/metrics').check('get').allowed()");
    assert.deepEqual(asked, [
      {
        user: { name: 'alice', groups: ['dev'] },
        verb: 'list',
        resourceRequest: true,
        apiGroup: '',
        resource: 'pods',
        fieldSelector: 'spec.nodeName=n',
        labelSelector: 'a=b',
      },
      {
        user: {
          name: 'system:serviceaccount:ns:sa',
          groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'],
        },
        verb: 'get',
        resourceRequest: false,
        path: '/metrics',
      },
    ]);
  });
});

describe('CEL errors (kube wording)', () => {
  const runtime: [string, string][] = [
    ['[].min()', 'min called on empty list'],
    [
      "url('../relative-path')",
      'URL parse error during conversion from string: parse "../relative-path": invalid URI for request',
    ],
    ['self.b', 'no such key: b'],
    ["quantity('50m').asInteger()", 'cannot convert value to integer'],
    ['[1][5]', "index '5' out of range in list size '1'"],
    ['9223372036854775807 + 1', 'integer overflow'],
    ['optional.none().value()', 'optional.none() dereference'],
    ['1 / 0', 'division by zero'],
  ];
  for (const [expression, message] of runtime) {
    it(expression, () => {
      const c = env.compile(expression);
      assert.ok(c.ok);
      const r = c.program.evaluate({ authorizer, self: { a: 1n } });
      assert.equal(r.ok ? null : r.error, message);
    });
  }
  it('a variable missing from the activation', () => {
    const c = env.compile('self.a == 1');
    assert.ok(c.ok);
    const r = c.program.evaluate({ authorizer });
    assert.equal(r.ok ? null : r.error, 'no such attribute(s): self');
  });
  it('compile errors name the problem and where', () => {
    const c = env.compile('nope == 1');
    assert.equal(
      c.ok ? null : c.error,
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')\n | nope == 1\n | ^",
    );
    const sum = env.compile("[1].sum() + 'a'");
    assert.match(
      sum.ok ? '' : sum.error,
      /found no matching overload for '_\+_' applied to '\(int, string\)'/,
    );
    assert.equal(env.compile("['a'].sum()").ok, false);
  });
  it('literals are checked as kube checks them', () => {
    const problem = (expression: string) => {
      const c = env.compile(expression);
      return c.ok ? null : c.error;
    };
    assert.equal(
      problem("duration('1x') > duration('1s')"),
      "compilation failed: ERROR: <input>:1:10: invalid duration argument\n | duration('1x') > duration('1s')\n | .........^",
    );
    assert.match(
      problem("timestamp('yesterday') > timestamp('2020-01-01T00:00:00Z')") ?? '',
      /invalid timestamp argument/,
    );
    assert.match(problem("'a'.matches('[')") ?? '', /<input>:1:13: invalid matches argument/);
    assert.match(problem("'aa'.matches('(a)\\\\1')") ?? '', /invalid matches argument/);
    assert.match(problem("'a'.matches('a(?=b)')") ?? '', /invalid matches argument/);
    assert.equal(
      problem("[1, 'a'].size() > 0"),
      "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, 'a'].size() > 0\n | ....^",
    );
    assert.match(problem("{'a': 1, 'b': 'c'}.size() > 0") ?? '', /expected type 'int' but found 'string'/);
    assert.equal(problem("'%s=%d'.format(['a', 1]) == 'a=1'"), null);
    // cel-js extras that kube v1.32 does not have
    assert.match(problem('cel.bind(x, 1, x + 1) == 2') ?? '', /undeclared reference to 'cel'/);
    assert.match(
      problem("b'abc'.hex() == '616263'") ?? '',
      /found no matching overload for 'hex' applied to 'bytes\.\(\)'/,
    );
  });
  it('caches a compiled program per expression', () => {
    const a = env.compile('1 + 1');
    assert.equal(env.compile('1 + 1'), a);
  });
});
