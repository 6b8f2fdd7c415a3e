import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hasProtobufPrefix, unwrap, wrap } from './envelope.js';
import { hex, kubectlBodies, pb, rejects400, toHex } from '../../../test/support/protobuf.js';

describe('the k8s\\0 envelope', () => {
  it('unwraps what kubectl sends', () => {
    const env = unwrap(hex(kubectlBodies.namespace));
    assert.equal(env.apiVersion, 'v1');
    assert.equal(env.kind, 'Namespace');
    assert.equal(env.contentEncoding, '');
    assert.equal(env.contentType, '');
    assert.equal(toHex(env.raw), '0a130a03666f6f12001a0022002a0032003800420012001a020a00');
  });

  it('wraps it back byte for byte (every Unknown field written)', () => {
    const env = unwrap(hex(kubectlBodies.namespace));
    assert.equal(toHex(wrap({ apiVersion: 'v1', kind: 'Namespace', raw: env.raw })), kubectlBodies.namespace);
  });

  it('leaves apiVersion and kind empty when the client sent no typeMeta, and skips unknown fields', () => {
    const env = unwrap(
      hex('6b387300' + pb.bytes(2, '0a00') + pb.int(9, 1) + pb.str(4, 'application/vnd.kubernetes.protobuf')),
    );
    assert.deepEqual(
      { ...env, raw: toHex(env.raw) },
      {
        apiVersion: '',
        kind: '',
        raw: '0a00',
        contentEncoding: '',
        contentType: 'application/vnd.kubernetes.protobuf',
      },
    );
  });

  it('recognises the prefix', () => {
    assert.equal(hasProtobufPrefix(hex('6b387300')), true);
    assert.equal(hasProtobufPrefix(hex('6b3873')), false);
    assert.equal(hasProtobufPrefix(Buffer.from('{}')), false);
  });

  const bad: { name: string; body: string; message: string | RegExp }[] = [
    { name: 'no prefix', body: '0a00', message: /^provided data does not appear to be a protobuf message/ },
    {
      name: 'typeMeta as a varint',
      body: '6b387300' + pb.int(1, 1),
      message: 'proto: wrong wireType = 0 for field TypeMeta',
    },
    {
      name: 'kind as a varint',
      body: '6b387300' + pb.msg(1, pb.int(2, 1)),
      message: 'proto: wrong wireType = 0 for field Kind',
    },
    { name: 'raw cut short', body: '6b387300' + '1205000000', message: 'unexpected EOF' },
  ];
  for (const c of bad) it(c.name, () => assert.throws(() => unwrap(hex(c.body)), rejects400(c.message)));
});
