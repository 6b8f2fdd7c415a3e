import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../api/index.js';
import {
  isFullyQualifiedDomainName,
  isIPv6String,
  isValidCIDR,
  isValidIP,
  isValidPortName,
  parseIPSloppy,
  validateNonSpecialIP,
} from './network.js';

describe('parseIPSloppy (Go net.ParseIP, leading zeros allowed)', () => {
  const valid = [
    '1.2.3.4',
    '010.001.0.1',
    '::',
    '::1',
    'fd00::1',
    '1:2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7::',
    '::ffff:1.2.3.4',
    '1:2:3:4:5:6:1.2.3.4',
  ];
  const invalid = [
    '',
    '1.2.3',
    '1.2.3.256',
    '1.2.3.4.5',
    '1.2.3.-1',
    ':1',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    'fe80::1%eth0',
    '12345::',
    'a.b.c.d',
    '1:2:3:4:5:6:7:1.2.3.4',
  ];
  for (const ip of valid) it(`accepts ${ip}`, () => assert.ok(parseIPSloppy(ip)));
  for (const ip of invalid)
    it(`refuses ${JSON.stringify(ip)}`, () => assert.equal(parseIPSloppy(ip), undefined));
  it('an IPv4-mapped address is IPv4', () => assert.equal(isIPv6String('::ffff:1.2.3.4'), false));
});

describe('validateNonSpecialIP', () => {
  const msgs = (ip: string) => validateNonSpecialIP('ip', ip).map(formatFieldError);
  it('accepts ordinary addresses', () => {
    for (const ip of ['10.0.0.1', '192.0.2.1', '2001:db8::1', '224.0.1.1', 'ff05::2'])
      assert.deepEqual(msgs(ip), [], ip);
  });
  it('refuses the special ranges with kube messages', () => {
    assert.deepEqual(msgs('127.1.2.3'), [
      'ip: Invalid value: "127.1.2.3": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    ]);
    assert.deepEqual(msgs('::ffff:127.0.0.1'), [
      'ip: Invalid value: "::ffff:127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    ]);
    assert.deepEqual(msgs('::'), ['ip: Invalid value: "::": may not be unspecified (::)']);
    assert.deepEqual(msgs('febf::1'), [
      'ip: Invalid value: "febf::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
    ]);
    assert.deepEqual(msgs('ff02::1'), [
      'ip: Invalid value: "ff02::1": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
    ]);
  });
});

describe('other network checks', () => {
  it('isValidIP message', () => {
    assert.deepEqual(isValidIP('x', 'nope').map(formatFieldError), [
      'x: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
  });
  it('CIDRs', () => {
    for (const ok of ['10.0.0.0/8', '0.0.0.0/0', 'fd00::/64', '10.0.0.1/32'])
      assert.deepEqual(isValidCIDR('c', ok), [], ok);
    for (const bad of ['10.0.0.0', '10.0.0.0/33', 'fd00::/129', '/8', '10.0.0.0/x'])
      assert.equal(isValidCIDR('c', bad).length, 1, bad);
  });
  it('IANA service port names', () => {
    assert.deepEqual(isValidPortName('http'), []);
    assert.deepEqual(isValidPortName('-a-'), ['must not begin or end with a hyphen']);
    assert.deepEqual(isValidPortName('HTTP'), [
      'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
    ]);
  });
  it('fully qualified domain names', () => {
    assert.deepEqual(isFullyQualifiedDomainName('a', 'db.example.com.'), []);
    assert.deepEqual(isFullyQualifiedDomainName('a', '').map(formatFieldError), ['a: Required value']);
  });
});
