/**
 * The node agent's HTTPS port (KubeletConfiguration address and port): TLS with the serving certificate,
 * client certificates asked for (never required) when a client CA is set, and the kubelet's API of
 * modules/checkpoint behind it.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import {
  CheckpointService,
  CriRuntime,
  KubeletAccess,
  kubeletApi,
  SimulatedRuntime,
  type ContainerRuntime,
  type PodsOnNode,
} from '../../modules/checkpoint/index.js';
import type { WebhookConnection } from '../../modules/webhook/index.js';
import { readFlagFile } from '../config/flag-values.js';
import type { NodeAgentConfig } from './config.js';
import { agentServingTls } from './server-tls.js';

export interface AgentServerDeps {
  /** the Pods bound to this node (the agent's main loop) */
  pods: PodsOnNode;
  /** the API server with the agent's credentials: TokenReview and SubjectAccessReview go there */
  apiServer?: WebhookConnection;
  /** default: CRI on containerRuntimeEndpoint, else the simulated runtime */
  runtime?: ContainerRuntime;
  log?: (message: string) => void;
  /** listen elsewhere than address:port (tests: a free port on loopback) */
  listen?: { host?: string; port?: number };
}

export interface AgentServer {
  url: string;
  port: number;
  /** the serving certificate (and its CA, when self-signed) */
  servingCert: string;
  close(): Promise<void>;
}

export async function startAgentServer(config: NodeAgentConfig, deps: AgentServerDeps): Promise<AgentServer> {
  const log = deps.log ?? ((m: string) => console.warn(`pgkube node-agent: ${m}`));
  const k = config.kubelet;
  const tls = await agentServingTls(config);
  const caFile = k.authentication.clientCaFile;
  const clientCa = caFile
    ? {
        pem: await readFlagFile('authentication.x509.clientCAFile (--client-ca-file)', caFile),
        source: caFile,
      }
    : undefined;
  const access = new KubeletAccess({
    nodeName: config.nodeName,
    anonymous: k.authentication.anonymous,
    clientCa,
    tokenReview: k.authentication.webhook ? { cacheTtlMs: k.authentication.webhookCacheTtlMs } : undefined,
    authorization:
      k.authorization.mode === 'AlwaysAllow'
        ? { mode: 'AlwaysAllow' }
        : {
            mode: 'Webhook',
            authorizedTtlMs: k.authorization.cacheAuthorizedTtlMs,
            unauthorizedTtlMs: k.authorization.cacheUnauthorizedTtlMs,
          },
    apiServer: deps.apiServer,
    log,
  });
  const runtime =
    deps.runtime ??
    (k.containerRuntimeEndpoint ? new CriRuntime(k.containerRuntimeEndpoint) : new SimulatedRuntime());
  const handler = kubeletApi({
    access,
    checkpoint: new CheckpointService({
      rootDir: config.rootDir,
      pods: deps.pods,
      runtime,
      runtimeRequestTimeoutMs: k.runtimeRequestTimeoutMs,
      log,
    }),
    checkpointEnabled: config.featureGates.enabled('ContainerCheckpoint'),
    log,
  });
  const server: Server = createServer(
    {
      cert: tls.cert,
      key: tls.key,
      minVersion: 'TLSv1.2',
      // asked for, never required: token and anonymous callers come without one; the authenticator judges it
      requestCert: Boolean(clientCa),
      rejectUnauthorized: false,
      // the CAs named in the handshake: Go clients send only a certificate one of them issued
      ca: clientCa?.pem,
    },
    handler,
  );
  // a connection cannot change its certificate after it was judged
  server.on('secureConnection', (socket: TLSSocket) => socket.disableRenegotiation());
  const host = deps.listen?.host ?? k.address;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(deps.listen?.port ?? k.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    url: `https://${shown.includes(':') ? `[${shown}]` : shown}:${port}`,
    port,
    servingCert: tls.cert,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
