import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatCheck } from './openapi-formats.js';

const cases: [format: string, value: string, valid: boolean][] = [
  ['uri', 'https://example.com/a?b=c', true],
  ['uri', '/just/a/path', true],
  ['uri', 'mailto:someone@example.com', true],
  ['uri', 'relative/path', false],
  ['uri', '', false],
  ['uri', 'http://host:port/', false],
  ['uri', 'http://example.com/%zz', false],
  ['email', 'a@example.com', true],
  ['email', 'Jane Doe <jane@example.com>', true],
  ['email', 'no-at-sign', false],
  ['hostname', 'example.com', true],
  ['hostname', 'localhost', true],
  ['hostname', '-bad.example.com', false],
  ['hostname', `${'a'.repeat(64)}.com`, false],
  ['ipv4', '10.0.0.1', true],
  ['ipv4', '010.0.0.1', true],
  ['ipv4', '10.0.0', false],
  ['ipv4', '::ffff:10.0.0.1', true],
  ['ipv6', '::1', true],
  ['ipv6', '2001:db8::1', true],
  ['ipv6', '1:2:3:4:5:6:7:8', true],
  ['ipv6', '1:2:3:4:5:6:7:8:9', false],
  ['ipv6', '10.0.0.1', false],
  ['ipv6', '12345::1', false],
  ['cidr', '10.0.0.0/8', true],
  ['cidr', '2001:db8::/32', true],
  ['cidr', '10.0.0.0/33', false],
  ['cidr', '10.0.0.0', false],
  ['mac', '00:1a:2b:3c:4d:5e', true],
  ['mac', '00-1A-2B-3C-4D-5E', true],
  ['mac', '001a.2b3c.4d5e', true],
  ['mac', '00:1a:2b:3c:4d', false],
  ['uuid', '123e4567-e89b-12d3-a456-426614174000', true],
  ['uuid', '123E4567E89B12D3A456426614174000', true],
  ['uuid', '123e4567-e89b-12d3-a456', false],
  ['uuid3', '123e4567-e89b-32d3-a456-426614174000', true],
  ['uuid4', '123e4567-e89b-42d3-a456-426614174000', true],
  ['uuid4', '123e4567-e89b-42d3-c456-426614174000', false],
  ['uuid5', '123e4567-e89b-52d3-8456-426614174000', true],
  ['isbn10', '0321751043', true],
  ['isbn10', '0-321-75104-3', true],
  ['isbn10', '0321751044', false],
  ['isbn13', '978-0321751041', true],
  ['isbn', '9780321751041', true],
  ['creditcard', '4111 1111 1111 1111', true],
  ['creditcard', '4111 1111 1111 1112', false],
  ['ssn', '123-45-6789', true],
  ['ssn', '123456789', false],
  ['hexcolor', '#FFF', true],
  ['hexcolor', 'ff00ff', true],
  ['hexcolor', '#ff00f', false],
  ['rgbcolor', 'rgb(255, 0, 12)', true],
  ['rgbcolor', 'rgb(256,0,0)', false],
  ['byte', 'aGVsbG8=', true],
  ['byte', 'aGVsbG8', false],
  ['byte', '', false],
  ['password', 'anything at all', true],
  ['date', '2024-02-29', true],
  ['date', '2023-02-29', false],
  ['date', '2024-1-01', false],
  ['date-time', '2024-01-02T03:04:05Z', true],
  ['date-time', '2024-01-02t03:04:05.123+01:00', true],
  ['date-time', '2024-01-02T24:04:05Z', false],
  ['date-time', '2024-01-02', false],
  ['datetime', '2024-01-02T03:04:05Z', true],
  ['duration', '1h30m', true],
  ['duration', '3 days', true],
  ['duration', '5 parsecs', false],
  ['duration', 'soon', false],
  ['bsonobjectid', '507f1f77bcf86cd799439011', true],
  ['bsonobjectid', '507f1f77bcf86cd79943901', false],
];

describe('formatCheck', () => {
  for (const [format, value, valid] of cases) {
    it(`${format} ${JSON.stringify(value)}`, () => assert.equal(formatCheck(format)!(value), valid));
  }

  it('ignores what kube strips from CRD schemas', () => {
    for (const format of ['int32', 'int64', 'float', 'double', 'k8s-name', '', undefined])
      assert.equal(formatCheck(format), undefined);
  });
});
