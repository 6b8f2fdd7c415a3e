/**
 * The real server's modules in the test's own process, listening on a free port: a test can reach into the
 * application (e.g. register a kind at run time through its Registry) while talking HTTPS to it.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { migrate } from '../../modules/storage/index.js';
import { parseConfig } from '../../src/config/config.js';
import { createServer } from '../../src/server/http.js';
import { servingTls } from '../../src/server/tls.js';
import { httpsClient, type ServerClient } from './server.js';

const TOKEN = 'in-process-admin-token';
const HOST = '127.0.0.1';

export interface InProcessServer extends ServerClient {
  app: NestFastifyApplication;
  stop(): Promise<void>;
}

/** Starts the application on `databaseUrl` (migrated here) with `serve` flags `args`. */
export async function startInProcess(databaseUrl: string, args: string[] = []): Promise<InProcessServer> {
  await migrate(databaseUrl);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pgkube-in-process-'));
  const config = parseConfig(
    ['serve', `--data-dir=${dataDir}`, `--database-url=${databaseUrl}`, `--bind-address=${HOST}`, ...args],
    {},
  );
  const tls = await servingTls({ dataDir, bindAddress: HOST });
  let address = `${HOST}:0`;
  const app = await createServer(config, databaseUrl, tls, {
    tokens: new Map([[TOKEN, { name: 'admin', uid: 'admin', groups: ['system:masters'] }]]),
    serverAddress: () => address,
    shuttingDown: () => false,
  });
  await app.listen(0, HOST);
  address = `${HOST}:${(app.getHttpServer().address() as { port: number }).port}`;
  const url = `https://${address}`;
  return {
    app,
    url,
    ca: tls.ca,
    token: TOKEN,
    request: httpsClient(url, tls.ca, TOKEN),
    stop: () => app.close(),
  };
}
