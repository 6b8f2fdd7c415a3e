/**
 * A loopback TCP proxy in front of PostgreSQL that spoils the answer to one statement, to make the failures a
 * network or a driver can cause after a commit happen on demand. Once a client message holding `marker` has
 * passed, the server's messages from the statement's first result row on are held until its ReadyForQuery (by
 * which time its transaction has committed); then the client gets nothing, its connection reset ('drop'), or
 * the answer with its first row's first length made huge, which the driver cannot read ('corrupt').
 */
import { createServer, connect, type Socket } from 'node:net';

export type Fate = 'drop' | 'corrupt';

export interface PgProxy {
  /** `url` with the proxy's port */
  url: string;
  /** spoil the answer to the next statement whose text holds `marker`; resolves once that is done */
  arm(marker: string, fate: Fate): Promise<void>;
  close(): Promise<void>;
}

const DATA_ROW = 0x44; // 'D'
const READY_FOR_QUERY = 0x5a; // 'Z'

export async function pgProxy(url: string): Promise<PgProxy> {
  const target = new URL(url);
  let armed: { marker: Buffer; fate: Fate; done: () => void } | undefined;
  const sockets = new Set<Socket>();

  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let mine: typeof armed;
    let pending = Buffer.alloc(0);
    let held: Buffer[] | undefined;
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', closeBoth).on('close', closeBoth);
    upstream.on('error', closeBoth).on('close', closeBoth);

    client.on('data', (chunk: Buffer) => {
      if (armed && !mine && chunk.includes(armed.marker)) {
        mine = armed;
        armed = undefined;
      }
      upstream.write(chunk);
    });

    // the server speaks in whole messages: a type byte and a length that counts itself
    upstream.on('data', (chunk: Buffer) => {
      if (!mine) return void client.write(chunk);
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 5 && pending.length >= 1 + pending.readUInt32BE(1)) {
        const size = 1 + pending.readUInt32BE(1);
        const message = pending.subarray(0, size);
        pending = pending.subarray(size);
        if (message[0] === DATA_ROW) held ??= [];
        if (!held) client.write(message);
        else held.push(Buffer.from(message));
        if (held && message[0] === READY_FOR_QUERY) return void spoil(mine, held);
      }
    });

    function spoil(fate: NonNullable<typeof armed>, answer: Buffer[]): void {
      if (fate.fate === 'drop') {
        client.resetAndDestroy();
        upstream.end();
      } else {
        // a DataRow: type, length, column count (2 bytes), then each column's length and bytes
        answer[0].writeInt32BE(0x7fffffff, 7);
        client.write(Buffer.concat([...answer, pending]));
      }
      mine = undefined;
      held = undefined;
      pending = Buffer.alloc(0);
      fate.done();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(typeof address === 'object' && address ? address.port : 0);

  return {
    url: proxied.toString(),
    arm: (marker, fate) => new Promise((done) => (armed = { marker: Buffer.from(marker), fate, done })),
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
