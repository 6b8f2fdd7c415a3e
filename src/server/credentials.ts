/**
 * What the server presents and whom it trusts, set up once at start from the flags and the data dir: the
 * data dir's CA (made if missing), the serving certificate, the client and proxy CAs.
 */
import type { HostTrust } from '../../modules/authentication/index.js';
import type { Config } from '../config/config.js';
import { readFlagFile } from '../config/flag-values.js';
import type { KeyPair } from '../pki/certificates.js';
import { dataDirCa } from '../pki/data-dir-ca.js';
import { frontProxy } from '../pki/front-proxy.js';
import { clientTrust, type ClientTrust } from './client-trust.js';
import { servingTls, type ServingTls } from './tls.js';

export interface ServerCredentials {
  tls: ServingTls;
  trust: ClientTrust;
  /** what this server presents to aggregated servers it proxies to (unset: nothing) */
  proxyClient?: KeyPair;
  /** to log at start */
  warnings: string[];
}

export async function serverCredentials(config: Config): Promise<ServerCredentials> {
  const ca = await dataDirCa(config.dataDir);
  const generated =
    config.builtinApis && !config.proxyClientCertFile ? await frontProxy(config.dataDir) : undefined;
  const trust = await clientTrust(config, ca.cert, generated?.caPem);
  const proxyClient = config.proxyClientCertFile
    ? {
        cert: await readFlagFile('--proxy-client-cert-file', config.proxyClientCertFile),
        key: await readFlagFile('--proxy-client-key-file', config.proxyClientKeyFile!),
      }
    : generated?.client;
  const tls = await servingTls({
    dataDir: config.dataDir,
    bindAddress: config.bindAddress,
    ca,
    certFile: config.tlsCertFile,
    keyFile: config.tlsPrivateKeyFile,
    sans: config.tlsSans,
  });
  tls.clientCas = [trust.clientCa.pem, ...(trust.requestHeader ? [trust.requestHeader.ca.pem] : [])];
  const warnings = [...trust.warnings];
  if (ca.replaced) {
    warnings.push(
      `${config.dataDir}/pki had a CA without its key (made by an older pgkube): a new CA and serving certificate ` +
        'were made; admin.kubeconfig is written anew, other kubeconfigs that trust the old CA must be made again',
    );
  }
  return { tls, trust, proxyClient, warnings };
}

/**
 * The CAs named in the TLS handshake as acceptable client certificate issuers: a Go client whose certificate
 * is not issued by one of them sends none. A delegating server names its host's CAs where it reads them.
 */
export function acceptableClientCas(trust: ClientTrust, host: HostTrust): string[] {
  const clientCa = host.readsClientCa ? host.clientCa() : trust.clientCa;
  const proxyCa = host.readsRequestHeader ? host.requestHeader()?.ca : trust.requestHeader?.ca;
  return [clientCa, proxyCa].flatMap((pool) => (pool ? [pool.pem] : []));
}
