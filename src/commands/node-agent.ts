/**
 * `pgkube node-agent`: a node's agent, talking HTTPS to pgkube as a kubelet does. Today it reads its
 * configuration and serves its HTTPS API (the checkpoint endpoint); registration, the Lease, status and Pods
 * are the main loop's.
 */
import { hostConnection } from '../../modules/authentication/index.js';
import type { PodsOnNode } from '../../modules/checkpoint/index.js';
import { ConfigError, loadNodeAgentConfig } from '../node-agent/config.js';
import { nodeAgentUsage } from '../node-agent/flags.js';
import { startAgentServer } from '../node-agent/server.js';

/** until the main loop runs Pods, none is on this node */
const noPods: PodsOnNode = { find: () => undefined };

export async function nodeAgentCommand(argv: string[]): Promise<void> {
  let parsed: Awaited<ReturnType<typeof loadNodeAgentConfig>>;
  try {
    parsed = await loadNodeAgentConfig(argv);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`pgkube node-agent: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  if (parsed.help) {
    console.log(nodeAgentUsage);
    return;
  }
  const config = parsed.config;
  for (const warning of config.warnings) console.warn(`pgkube node-agent: warning: ${warning}`);
  const apiServer = config.kubeconfig ? await hostConnection(config.kubeconfig, '--kubeconfig') : undefined;
  const server = await startAgentServer(config, { pods: noPods, apiServer });
  console.log(`pgkube node-agent ${config.nodeName}: serving on ${server.url}`);
  const stop = async (signal: string) => {
    console.log(`pgkube node-agent: ${signal}, shutting down`);
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}
