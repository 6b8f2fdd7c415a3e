/**
 * `pgkube node-agent`: a node's agent, talking HTTPS to pgkube as a kubelet does. It reads its configuration,
 * serves its HTTPS API (the checkpoint endpoint), registers its Node, renews its Lease, posts its status and runs
 * the Pods bound to it on the simulated runtime.
 */
import { existsSync } from 'node:fs';
import { hostConnection } from '../../modules/authentication/index.js';
import { NodeAgent } from '../node-agent/agent.js';
import { ApiClient } from '../node-agent/api-client.js';
import { ConfigError, loadNodeAgentConfig, type NodeAgentConfig } from '../node-agent/config.js';
import { nodeAgentUsage } from '../node-agent/flags.js';
import { readHostFigures } from '../node-agent/host-figures.js';
import { hostAddress, nodeIdentity } from '../node-agent/identity.js';
import { DEFAULT_EVICTION_HARD, type EvictionThresholds } from '../node-agent/node-status.js';
import { PodFeed } from '../node-agent/pod-feed.js';
import { startAgentServer } from '../node-agent/server.js';

/**
 * The kubeconfig the agent talks with: --kubeconfig, or when that file does not exist yet, the credentials of
 * --bootstrap-kubeconfig (pgkube serves no certificates.k8s.io to trade them for a node certificate).
 */
function kubeconfigOf(config: NodeAgentConfig): { file: string; flag: string } {
  if (config.kubeconfig && existsSync(config.kubeconfig))
    return { file: config.kubeconfig, flag: '--kubeconfig' };
  if (config.bootstrapKubeconfig) {
    console.warn(
      'pgkube node-agent: warning: certificates.k8s.io is not served; the node runs with the credentials of --bootstrap-kubeconfig',
    );
    return { file: config.bootstrapKubeconfig, flag: '--bootstrap-kubeconfig' };
  }
  throw new ConfigError('--kubeconfig (an existing file) or --bootstrap-kubeconfig is required');
}

function evictionHard(config: NodeAgentConfig): EvictionThresholds {
  const set = config.document.evictionHard;
  if (set === null || typeof set !== 'object' || Array.isArray(set)) return DEFAULT_EVICTION_HARD;
  return Object.fromEntries(
    Object.entries(set).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

export async function nodeAgentCommand(argv: string[]): Promise<void> {
  let config: NodeAgentConfig;
  let kubeconfig: { file: string; flag: string };
  try {
    const parsed = await loadNodeAgentConfig(argv);
    if (parsed.help) return console.log(nodeAgentUsage);
    config = parsed.config;
    kubeconfig = kubeconfigOf(config);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`pgkube node-agent: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  for (const warning of config.warnings) console.warn(`pgkube node-agent: warning: ${warning}`);
  const connection = await hostConnection(kubeconfig.file, kubeconfig.flag);
  const api = new ApiClient(connection);
  const k = config.kubelet;
  const log = (m: string) => console.warn(`pgkube node-agent ${config.nodeName}: ${m}`);
  const pods = new PodFeed(api, config.nodeName);
  const agent = new NodeAgent({
    api,
    identity: nodeIdentity({
      name: config.nodeName,
      hostname: config.nodeName,
      internalIP: config.nodeIps[0] ?? hostAddress(),
      port: k.port,
      maxPods: k.maxPods,
      runtimeVersion: k.containerRuntimeEndpoint ? 'remote://cri' : undefined,
    }),
    leaseDurationSeconds: k.nodeLeaseDurationSeconds,
    statusUpdateMs: k.nodeStatusUpdateFrequencyMs,
    statusReportMs: k.nodeStatusReportFrequencyMs,
    evictionHard: evictionHard(config),
    host: () => readHostFigures(config.rootDir),
    pods,
    runtime: { rootDir: config.rootDir, checkSeccomp: true, log },
    log,
  });
  const server = await startAgentServer(config, { pods: agent.pods, apiServer: connection });
  console.log(`pgkube node-agent ${config.nodeName}: serving on ${server.url}`);
  await agent.start();
  pods.start();
  console.log(`pgkube node-agent ${config.nodeName}: registered`);
  const stop = async (signal: string) => {
    console.log(`pgkube node-agent: ${signal}, shutting down`);
    agent.stop();
    pods.stop();
    await server.close();
    api.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}
