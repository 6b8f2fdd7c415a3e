/**
 * The e2e setup of a describe block in one call: a fresh test database and the real server on it, started in
 * before() and stopped (then the database dropped) in after().
 *
 *   describe('watch', () => {
 *     const s = useServer({ args: ['--history-retention=3s'] });
 *     it('...', async () => { await s.request('GET', '/api'); });
 *   });
 *
 * The handle is a TestServer that forwards to the server running now (so it can be passed where a TestServer
 * is wanted, and `restart` replaces the server under it); its fields are there from before() on.
 */
import { after, before } from 'node:test';
import { testDatabase, type TestDatabase } from './database.js';
import { startServer, type RequestOptions, type StartOptions, type TestServer } from './server.js';

export interface UseServerOptions extends Omit<StartOptions, 'databaseUrl'> {
  /** how many servers to start on the one database (default 1); all are in `servers`, the handle is the first */
  replicas?: number;
  /** runs first in after(), before the servers stop (e.g. to close client connections) */
  beforeStop?: () => unknown;
}

export interface UsedServer extends TestServer {
  /** the database the servers use */
  readonly db: TestDatabase;
  /** the servers running now, the handle's own first (filled in before(), same array throughout) */
  readonly servers: TestServer[];
  /**
   * Stops the handle's server (if it still runs) and starts a new one on the same database, with the options
   * of useServer overridden by `options` (e.g. `{ dataDir: s.dataDir }` to keep its data dir).
   */
  restart(options?: Omit<StartOptions, 'databaseUrl'>): Promise<void>;
}

/**
 * Registers before() and after() hooks in the calling describe block (or file). `options` may be a function,
 * called in before(), for options known only then (e.g. a free port).
 */
export function useServer(options: UseServerOptions | (() => Promise<UseServerOptions>) = {}): UsedServer {
  let db: TestDatabase | undefined;
  let resolved: UseServerOptions = {};
  const servers: TestServer[] = [];
  const current = (): TestServer => {
    if (!servers[0]) throw new Error('useServer: no server yet (it starts in before())');
    return servers[0];
  };
  const start = ({ replicas: _replicas, beforeStop: _beforeStop, ...o }: UseServerOptions) =>
    startServer({ ...o, databaseUrl: db!.url });

  before(async () => {
    resolved = typeof options === 'function' ? await options() : options;
    db = await testDatabase();
    for (let i = 0; i < (resolved.replicas ?? 1); i++) servers.push(await start(resolved));
  });

  after(async () => {
    try {
      await resolved.beforeStop?.();
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await db?.drop();
    }
  });

  return {
    get url() {
      return current().url;
    },
    get pid() {
      return current().pid;
    },
    get dataDir() {
      return current().dataDir;
    },
    get kubeconfig() {
      return current().kubeconfig;
    },
    get ca() {
      return current().ca;
    },
    get token() {
      return current().token;
    },
    output: () => current().output(),
    request: (method: string, path: string, o?: RequestOptions) => current().request(method, path, o),
    stop: () => current().stop(),
    get db() {
      if (!db) throw new Error('useServer: no database yet (it is made in before())');
      return db;
    },
    servers,
    async restart(o = {}) {
      await current().stop();
      servers[0] = await start({ ...resolved, ...o });
    },
  };
}
