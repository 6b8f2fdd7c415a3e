/**
 * The watch benchmark's HTTP/2 client: `count` GET streams multiplexed on one raw TLS connection, read with a
 * minimal frame scanner (RFC 9113). Node's h2 client costs several microseconds per DATA frame; with 2,000
 * streams on the same two cores as both servers, that would be queueing inside the latencies measured.
 *
 * It reads only what a watch needs and fails loudly on the rest: the `:status` of each response (HPACK, RFC
 * 7541: the first field of the block, static-table or plain literal forms), DATA, and the connection's control
 * frames. It returns the flow-control credit of every DATA frame it consumes, so a run of any length never
 * stalls on a window; a stream reset, a GOAWAY or a stream the server ends is reported, never ignored.
 */
import { connect as tlsConnect } from 'node:tls';

const DATA = 0x0;
const HEADERS = 0x1;
const RST_STREAM = 0x3;
const SETTINGS = 0x4;
const PUSH_PROMISE = 0x5;
const PING = 0x6;
const GOAWAY = 0x7;
const WINDOW_UPDATE = 0x8;
const CONTINUATION = 0x9;
const END_STREAM = 0x1;
const ACK = 0x1;
const END_HEADERS = 0x4;
const PADDED = 0x8;
const PRIORITY_FLAG = 0x20;
const SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;
/** the connection's receive window before any WINDOW_UPDATE (RFC 9113 section 6.9.2) */
const DEFAULT_WINDOW = 65_535;
/** HPACK static table entries 8-14 are `:status` with these values (RFC 7541 appendix A) */
const STATIC_STATUS = [200, 204, 206, 304, 400, 404, 500];

export interface H2Target {
  url: string;
  token: string;
  ca: string;
}

export interface H2Windows {
  /** the connection's receive window (Go's client: 1 GiB) */
  connection: number;
  /** each stream's receive window (Go's client: 4 MiB) */
  stream: number;
}

export interface H2Handlers {
  /** whole lines of one stream's body (a watch's JSON events), with the time their bytes were read; streams
   * are numbered from 0 */
  onLines(stream: number, lines: Buffer, at: number): void;
  /** something that breaks a watch after every stream has answered (reset, GOAWAY, end of stream, close) */
  onProblem(message: string): void;
}

export function frame(type: number, flags: number, stream: number, payload: Buffer): Buffer {
  const out = Buffer.allocUnsafe(9 + payload.length);
  out.writeUIntBE(payload.length, 0, 3);
  out[3] = type;
  out[4] = flags;
  out.writeUInt32BE(stream, 5);
  payload.copy(out, 9);
  return out;
}

function windowUpdate(stream: number, increment: number): Buffer {
  const payload = Buffer.allocUnsafe(4);
  payload.writeUInt32BE(increment);
  return frame(WINDOW_UPDATE, 0, stream, payload);
}

/** An HPACK integer with an n-bit prefix (RFC 7541 section 5.1) at `at`: its value and the offset after it. */
export function hpackInteger(block: Buffer, at: number, prefixBits: number): [number, number] {
  const max = (1 << prefixBits) - 1;
  let value = block[at] & max;
  let next = at + 1;
  if (value < max) return [value, next];
  for (let shift = 0; ; shift += 7) {
    if (next >= block.length || shift > 28) throw new Error('HPACK: truncated integer');
    const b = block[next++];
    value += (b & 127) * 2 ** shift;
    if (!(b & 128)) return [value, next];
  }
}

function encodeInteger(value: number, prefixBits: number, firstBits: number): number[] {
  const max = (1 << prefixBits) - 1;
  if (value < max) return [firstBits | value];
  const out = [firstBits | max];
  let n = value - max;
  for (; n >= 128; n = Math.floor(n / 128)) out.push((n % 128) | 128);
  out.push(n);
  return out;
}

/** A literal header field without indexing, its name a static-table index (RFC 7541 section 6.2.2). */
function literalField(nameIndex: number, value: string): Buffer {
  const bytes = Buffer.from(value, 'latin1');
  return Buffer.concat([
    Buffer.from(encodeInteger(nameIndex, 4, 0x00)),
    Buffer.from(encodeInteger(bytes.length, 7, 0x00)),
    bytes,
  ]);
}

/**
 * The `:status` of a response header block: its first field (RFC 9113 section 8.3: pseudo-headers come first),
 * after any dynamic table size updates. Throws on forms this reader does not decode (a dynamic-table index, a
 * Huffman-coded literal) rather than guessing.
 */
export function responseStatus(block: Buffer): number {
  let at = 0;
  while (at < block.length && (block[at] & 0xe0) === 0x20) at = hpackInteger(block, at, 5)[1];
  if (at >= block.length) throw new Error('HPACK: empty header block');
  const first = block[at];
  if (first & 0x80) {
    const [index] = hpackInteger(block, at, 7);
    if (index >= 8 && index <= 14) return STATIC_STATUS[index - 8];
    throw new Error(`HPACK: first field is table entry ${index}, not a static :status`);
  }
  // literal: with incremental indexing (01), or without / never indexed (0000, 0001)
  const [nameIndex, valueAt] = first & 0x40 ? hpackInteger(block, at, 6) : hpackInteger(block, at, 4);
  if (nameIndex < 8 || nameIndex > 14) throw new Error(`HPACK: first field's name is entry ${nameIndex}`);
  if (block[valueAt] & 0x80) throw new Error('HPACK: Huffman-coded :status (not decoded here)');
  const [length, from] = hpackInteger(block, valueAt, 7);
  const status = Number(block.subarray(from, from + length).toString('latin1'));
  if (!Number.isInteger(status)) throw new Error('HPACK: unreadable :status');
  return status;
}

/**
 * Opens `count` GET streams for `path` on one h2 connection; resolves with a closer once every stream has
 * answered 200, rejects if any does not (or the connection fails first).
 */
export function openH2Streams(
  target: H2Target,
  path: string,
  count: number,
  windows: H2Windows,
  handlers: H2Handlers,
): Promise<() => void> {
  const url = new URL(target.url);
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({
      host: url.hostname,
      port: Number(url.port),
      ca: target.ca,
      servername: 'localhost',
      ALPNProtocols: ['h2'],
    });
    let ready = false;
    let closing = false;
    /** before every stream has answered, a failure rejects; afterwards it is a problem of the run */
    const fail = (message: string) => {
      if (closing) return;
      if (ready) handlers.onProblem(message);
      else reject(new Error(message));
      closing = true;
      socket.destroy();
    };
    const block = Buffer.concat([
      Buffer.from([0x82, 0x87]), // :method GET, :scheme https (static entries 2 and 7)
      literalField(4, path),
      literalField(1, url.host),
      literalField(23, `Bearer ${target.token}`),
    ]);
    const answered = new Uint8Array(count);
    let answers = 0;
    /** the partial last line of each stream */
    const partial = new Map<number, Buffer>();
    /** DATA bytes consumed and not yet returned as window, per stream and for the connection */
    const unacked = new Map<number, number>();
    let connectionUnacked = 0;
    /** a header block split over CONTINUATION frames */
    let headerBlock: { stream: number; parts: Buffer[]; endStream: boolean } | undefined;
    let buf: Buffer = Buffer.alloc(0);

    socket.on('secureConnect', () => {
      if (socket.alpnProtocol !== 'h2') return fail(`ALPN chose ${String(socket.alpnProtocol)}, not h2`);
      const settings = Buffer.alloc(12);
      settings.writeUInt16BE(0x2, 0); // ENABLE_PUSH 0
      settings.writeUInt16BE(0x4, 6); // INITIAL_WINDOW_SIZE
      settings.writeUInt32BE(windows.stream, 8);
      const out = [Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), frame(SETTINGS, 0, 0, settings)];
      if (windows.connection > DEFAULT_WINDOW) out.push(windowUpdate(0, windows.connection - DEFAULT_WINDOW));
      for (let i = 0; i < count; i++) out.push(frame(HEADERS, END_HEADERS | END_STREAM, 2 * i + 1, block));
      socket.write(Buffer.concat(out));
    });
    socket.on('error', (e) => fail(`connection: ${e.message}`));
    socket.on('close', () => fail('the connection closed'));

    const streamEnded = (stream: number) => fail(`the server ended stream ${stream}`);

    const headersDone = (stream: number, parts: Buffer[], endStream: boolean) => {
      const index = (stream - 1) / 2;
      if (!Number.isInteger(index) || index >= count) return fail(`HEADERS on unknown stream ${stream}`);
      // a second header block on a stream is trailers: nothing in them matters here
      if (!answered[index]) {
        const status = responseStatus(parts.length === 1 ? parts[0] : Buffer.concat(parts));
        if (status !== 200) return fail(`stream ${stream} answered ${status}`);
        answered[index] = 1;
        if (++answers === count) {
          ready = true;
          resolve(() => {
            closing = true;
            socket.destroy();
          });
        }
      }
      if (endStream) streamEnded(stream);
    };

    /** one frame; control answers are collected in `out` and written once per read */
    const onFrame = (
      type: number,
      flags: number,
      stream: number,
      payload: Buffer,
      at: number,
      out: Buffer[],
    ) => {
      if (headerBlock && type !== CONTINUATION) throw new Error(`frame type ${type} inside a header block`);
      switch (type) {
        case DATA: {
          // flow control counts the whole payload, padding included
          connectionUnacked += payload.length;
          if (connectionUnacked >= windows.connection / 2) {
            out.push(windowUpdate(0, connectionUnacked));
            connectionUnacked = 0;
          }
          const consumed = (unacked.get(stream) ?? 0) + payload.length;
          if (consumed >= windows.stream / 2 && !(flags & END_STREAM)) {
            out.push(windowUpdate(stream, consumed));
            unacked.set(stream, 0);
          } else unacked.set(stream, consumed);
          if (flags & PADDED) payload = payload.subarray(1, payload.length - payload[0]);
          if (!answered[(stream - 1) / 2]) throw new Error(`DATA before HEADERS on stream ${stream}`);
          if (payload.length > 0) {
            const before = partial.get(stream);
            const data = before ? Buffer.concat([before, payload]) : payload;
            const end = data.lastIndexOf(10) + 1;
            if (end > 0) handlers.onLines((stream - 1) / 2, data.subarray(0, end), at);
            if (end < data.length) partial.set(stream, Buffer.from(data.subarray(end)));
            else if (before) partial.delete(stream);
          }
          if (flags & END_STREAM) streamEnded(stream);
          return;
        }
        case HEADERS: {
          if (flags & PADDED) payload = payload.subarray(1, payload.length - payload[0]);
          if (flags & PRIORITY_FLAG) payload = payload.subarray(5);
          const endStream = (flags & END_STREAM) !== 0;
          if (flags & END_HEADERS) headersDone(stream, [payload], endStream);
          else headerBlock = { stream, parts: [payload], endStream };
          return;
        }
        case CONTINUATION: {
          if (!headerBlock || headerBlock.stream !== stream) throw new Error('CONTINUATION out of place');
          headerBlock.parts.push(payload);
          if (flags & END_HEADERS) {
            const done = headerBlock;
            headerBlock = undefined;
            headersDone(done.stream, done.parts, done.endStream);
          }
          return;
        }
        case RST_STREAM:
          return fail(`the server reset stream ${stream} (error code ${payload.readUInt32BE(0)})`);
        case SETTINGS:
          if (flags & ACK) return;
          for (let i = 0; i + 6 <= payload.length; i += 6) {
            const limit = payload.readUInt32BE(i + 2);
            if (payload.readUInt16BE(i) === SETTINGS_MAX_CONCURRENT_STREAMS && limit < count)
              return fail(`the server allows ${limit} streams per connection, not ${count}`);
          }
          out.push(frame(SETTINGS, ACK, 0, Buffer.alloc(0)));
          return;
        case PING:
          if (!(flags & ACK)) out.push(frame(PING, ACK, 0, payload));
          return;
        case GOAWAY:
          return fail(
            `GOAWAY (last stream ${payload.readUInt32BE(0) & 0x7fffffff}, code ${payload.readUInt32BE(4)})`,
          );
        case PUSH_PROMISE:
          throw new Error('PUSH_PROMISE although push is disabled');
        default:
          // WINDOW_UPDATE (nothing is sent on the streams), PRIORITY, unknown types: ignored (section 5.5)
          return;
      }
    };

    socket.on('data', (chunk: Buffer) => {
      const at = performance.timeOrigin + performance.now();
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      const out: Buffer[] = [];
      try {
        while (buf.length >= 9 && !closing) {
          const length = buf.readUIntBE(0, 3);
          if (buf.length < 9 + length) break;
          const type = buf[3];
          const flags = buf[4];
          const stream = buf.readUInt32BE(5) & 0x7fffffff;
          const payload = buf.subarray(9, 9 + length);
          buf = buf.subarray(9 + length);
          onFrame(type, flags, stream, payload, at, out);
        }
      } catch (e) {
        fail(`h2: ${(e as Error).message}`);
      }
      if (out.length > 0 && !closing) socket.write(out.length === 1 ? out[0] : Buffer.concat(out));
      // keep no reference into the read chunk beyond what is unread
      if (buf.length > 0) buf = Buffer.from(buf);
    });
  });
}
