import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { configMapDefinition, secretDefinition } from '../../kinds/index.js';
import { decodeCbor } from './decode.js';
import { encodeCbor } from './encode.js';
import { CborDecodeError } from './errors.js';
import {
  applyPatchCborMediaType,
  cborMediaType,
  cborSequenceMediaType,
  hasSelfDescribedPrefix,
} from './media-types.js';
import { CborSequenceReader, encodeCborWatchEvent, splitCborSequence } from './sequence.js';
import { c, diagnose, toHex } from '../../../test/support/cbor.js';

const configMap = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', resourceVersion: '5' } };

const events = [
  { type: 'ADDED', object: configMap, schema: configMapDefinition.schema },
  {
    type: 'MODIFIED',
    object: { kind: 'Secret', apiVersion: 'v1', metadata: { name: 's' }, data: { k: 'AQI=' } },
    schema: secretDefinition.schema,
  },
  { type: 'DELETED', object: { ...configMap, metadata: { name: 'a', resourceVersion: '9' } } },
  {
    type: 'BOOKMARK',
    object: {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { resourceVersion: '12', annotations: { 'k8s.io/initial-events-end': 'true' } },
    },
  },
  {
    type: 'ERROR',
    object: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'too old resource version: 1 (12)',
      reason: 'Expired',
      code: 410,
    },
  },
];

const stream = () => Buffer.concat(events.map((e) => encodeCborWatchEvent(e.type, e.object, e.schema)));

describe('CBOR watch streams (application/cbor-seq)', () => {
  it('names the media types kube uses', () => {
    assert.equal(cborMediaType, 'application/cbor');
    assert.equal(cborSequenceMediaType, 'application/cbor-seq');
    assert.equal(applyPatchCborMediaType, 'application/apply-patch+cbor');
  });

  it('writes an event as a self-described {type, object} map embedding the object with its own tag', () => {
    const object = c.obj(
      c.map(
        ['kind', c.bs('ConfigMap')],
        ['metadata', c.map(['name', c.bs('a')], ['resourceVersion', c.bs('5')])],
        ['apiVersion', c.bs('v1')],
      ),
    );
    const event = encodeCborWatchEvent('ADDED', configMap);
    assert.equal(toHex(event), c.obj(c.map(['type', c.bs('ADDED')], ['object', object])));
    assert.equal(
      diagnose(event),
      "55799({'type': 'ADDED', 'object': 55799({'kind': 'ConfigMap', 'metadata': {'name': 'a', " +
        "'resourceVersion': '5'}, 'apiVersion': 'v1'})})",
    );
    // an object encoded once can be framed for every watcher
    assert.deepEqual(encodeCborWatchEvent('ADDED', encodeCbor(configMap)), event);
    assert.throws(() => encodeCborWatchEvent('ADDED', Uint8Array.of(0xa0)), /encodeCbor/);
  });

  it('reads a sequence of events back item by item, however the bytes are chunked', () => {
    const bytes = stream();
    for (const size of [1, 7, 64, bytes.length]) {
      const reader = new CborSequenceReader();
      const items: Uint8Array[] = [];
      for (let off = 0; off < bytes.length; off += size)
        items.push(...reader.push(bytes.subarray(off, off + size)));
      assert.equal(reader.buffered, 0);
      assert.equal(items.length, events.length, `chunks of ${size}`);
      items.forEach((item, i) => {
        assert.ok(hasSelfDescribedPrefix(item));
        const decoded = decodeCbor(item) as { type: string; object: unknown };
        assert.deepEqual(decoded, { type: events[i].type, object: events[i].object });
      });
    }
  });

  it('keeps a partial item until it completes', () => {
    const event = encodeCborWatchEvent('ADDED', configMap);
    const reader = new CborSequenceReader();
    assert.deepEqual(reader.push(event.subarray(0, 10)), []);
    assert.equal(reader.buffered, 10);
    assert.deepEqual(reader.push(event.subarray(10)), [event]);
  });

  it('splits a complete sequence, and refuses one cut short or malformed', () => {
    const bytes = stream();
    assert.deepEqual(
      splitCborSequence(bytes).map((item) => (decodeCbor(item) as { type: string }).type),
      events.map((e) => e.type),
    );
    assert.throws(() => splitCborSequence(bytes.subarray(0, bytes.length - 1)), /unexpected EOF/);
    assert.throws(() => new CborSequenceReader().push(Uint8Array.of(0xa1, 0x1c)), CborDecodeError);
  });
});
