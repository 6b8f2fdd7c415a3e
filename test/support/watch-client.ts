/** Reads a watch stream (newline-delimited JSON events) from the test server, event by event. */
import { request as httpsRequest } from 'node:https';
import type { TestServer } from './server.js';

export interface WatchEvent {
  type: string;
  object: any;
}

export interface WatchStream {
  status: number;
  events: WatchEvent[];
  /** the next event not yet taken; fails after `timeoutMs` */
  next(timeoutMs?: number): Promise<WatchEvent>;
  /** resolves when the server ends the stream */
  ended: Promise<void>;
  /** true once the server ended the stream */
  finished(): boolean;
  close(): void;
}

export function openWatch(s: TestServer, path: string): Promise<WatchStream> {
  return new Promise((resolve, reject) => {
    const events: WatchEvent[] = [];
    let taken = 0;
    let wake: (() => void) | undefined;
    let endResolve!: () => void;
    let finished = false;
    const ended = new Promise<void>((r) => (endResolve = r));
    const req = httpsRequest(
      new URL(path, s.url),
      { method: 'GET', ca: s.ca, headers: { authorization: `Bearer ${s.token}` } },
      (res) => {
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let nl;
          while ((nl = buffer.indexOf('\n')) >= 0) {
            const line = buffer.slice(0, nl);
            buffer = buffer.slice(nl + 1);
            if (line.trim()) events.push(JSON.parse(line));
          }
          wake?.();
        });
        res.on('end', () => {
          finished = true;
          endResolve();
          wake?.();
        });
        res.on('error', () => {
          finished = true;
          endResolve();
        });
        res.on('close', () => {
          finished = true;
          endResolve();
        });
        resolve({
          status: res.statusCode ?? 0,
          events,
          ended,
          finished: () => finished,
          async next(timeoutMs = 5000) {
            const deadline = Date.now() + timeoutMs;
            while (taken >= events.length) {
              if (Date.now() > deadline) throw new Error(`no watch event within ${timeoutMs} ms`);
              await new Promise<void>((r) => {
                wake = r;
                setTimeout(r, 50);
              });
            }
            return events[taken++];
          },
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
