import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../api/index.js';
import { encodeEvent, jsonEventLine, type WatchEncoding } from './events.js';

function counting(shared?: string): WatchEncoding & { calls: number } {
  const encoding = {
    calls: 0,
    contentType: 'test',
    shared,
    encode(type: string, object: object) {
      encoding.calls++;
      return `${type} ${JSON.stringify(object)}`;
    },
  };
  return encoding;
}

describe('watch events', () => {
  const obj: KubeObject = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a' } };

  it('a shared encoding encodes each object once per event type, for every watcher', () => {
    const first = counting('x');
    const second = counting('x');
    const one = encodeEvent(first, 'ADDED', obj);
    assert.equal(encodeEvent(second, 'ADDED', obj), one);
    assert.equal(first.calls + second.calls, 1);
    encodeEvent(second, 'DELETED', obj);
    assert.equal(first.calls + second.calls, 2);
    // another object, or an encoding of another name, is encoded afresh
    encodeEvent(first, 'ADDED', { ...obj });
    encodeEvent(counting('y'), 'ADDED', obj);
    assert.equal(first.calls, 2);
  });

  it('an encoding that depends on more than the object (a Table’s ages) encodes every time', () => {
    const table = counting(undefined);
    encodeEvent(table, 'ADDED', obj);
    encodeEvent(table, 'ADDED', obj);
    assert.equal(table.calls, 2);
  });

  it('JSON events are kube’s lines', () => {
    assert.equal(
      jsonEventLine('ADDED', obj),
      '{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a"}}}\n',
    );
  });
});
