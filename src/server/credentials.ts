/**
 * What the server presents and whom it trusts, set up once at start from the flags and the data dir: the
 * data dir's CA (made if missing), the serving certificate, the client and proxy CAs.
 */
import type { Config } from '../config/config.js';
import { dataDirCa } from '../pki/data-dir-ca.js';
import { clientTrust, type ClientTrust } from './client-trust.js';
import { servingTls, type ServingTls } from './tls.js';

export interface ServerCredentials {
  tls: ServingTls;
  trust: ClientTrust;
  /** to log at start */
  warnings: string[];
}

export async function serverCredentials(config: Config): Promise<ServerCredentials> {
  const ca = await dataDirCa(config.dataDir);
  const trust = await clientTrust(config, ca.cert);
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
  return { tls, trust, warnings };
}
