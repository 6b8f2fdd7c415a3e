import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatMicroTime, formatTime, parseTimestamp, zeroTimeSeconds } from './time.js';

describe('Time and MicroTime', () => {
  const formats: { seconds: bigint; nanos: number; time: string | null; micro: string | null }[] = [
    { seconds: 1704067200n, nanos: 0, time: '2024-01-01T00:00:00Z', micro: '2024-01-01T00:00:00.000000Z' },
    {
      seconds: 1704067200n,
      nanos: 999999999,
      time: '2024-01-01T00:00:00Z',
      micro: '2024-01-01T00:00:00.999999Z',
    },
    { seconds: 0n, nanos: 0, time: '1970-01-01T00:00:00Z', micro: '1970-01-01T00:00:00.000000Z' },
    { seconds: -1n, nanos: 1000, time: '1969-12-31T23:59:59Z', micro: '1969-12-31T23:59:59.000001Z' },
    {
      seconds: 1704067200n,
      nanos: 1500000000,
      time: '2024-01-01T00:00:00Z',
      micro: '2024-01-01T00:00:01.500000Z',
    },
    { seconds: zeroTimeSeconds, nanos: 0, time: null, micro: null },
    {
      seconds: -62135596800n + 1n,
      nanos: 0,
      time: '0001-01-01T00:00:01Z',
      micro: '0001-01-01T00:00:01.000000Z',
    },
  ];
  for (const f of formats) {
    it(`formats ${f.seconds}s ${f.nanos}ns`, () => {
      assert.equal(formatTime(f), f.time);
      assert.equal(formatMicroTime(f), f.micro);
    });
  }

  const parses: { text: string; want: { seconds: bigint; nanos: number } | undefined }[] = [
    { text: '2024-01-01T00:00:00Z', want: { seconds: 1704067200n, nanos: 0 } },
    { text: '2024-01-01T00:00:00.000010Z', want: { seconds: 1704067200n, nanos: 10000 } },
    { text: '2024-01-01T01:30:00+01:30', want: { seconds: 1704067200n, nanos: 0 } },
    { text: '2023-12-31T23:00:00-01:00', want: { seconds: 1704067200n, nanos: 0 } },
    { text: '0001-01-01T00:00:00Z', want: { seconds: zeroTimeSeconds, nanos: 0 } },
    { text: '2024-02-30T00:00:00Z', want: undefined },
    { text: '2024-01-01 00:00:00Z', want: undefined },
    { text: '2024-01-01T24:00:00Z', want: undefined },
    { text: '', want: undefined },
  ];
  for (const p of parses)
    it(`parses ${JSON.stringify(p.text)}`, () => assert.deepEqual(parseTimestamp(p.text), p.want));
});
