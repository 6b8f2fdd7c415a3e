/**
 * The CAs that judge client certificates, read once at start: `--client-ca-file` (else the data dir's CA)
 * for users, `--requestheader-client-ca-file` for an authenticating proxy. A file that cannot be read or
 * holds no certificate stops the server with an error naming its flag.
 */
import { readFlagFile } from '../config/flag-values.js';
import { CertificatePool, type RequestHeaderOptions } from '../../modules/authentication/index.js';
import type { Config } from '../config/config.js';
import { FRONT_PROXY_CLIENT } from '../pki/front-proxy.js';

export interface ClientTrust {
  clientCa: CertificatePool;
  requestHeader?: RequestHeaderOptions;
  /** to log at start */
  warnings: string[];
}

async function pool(flag: string, file: string): Promise<CertificatePool> {
  return new CertificatePool(await readFlagFile(flag, file), `${flag} ${file}`);
}

/**
 * `frontProxyCaPem`: the generated front-proxy CA, trusted as the authenticating proxy when
 * --requestheader-client-ca-file is not given (the host of aggregated servers, as kubeadm sets it up).
 */
export async function clientTrust(
  config: Config,
  dataDirCaPem: string,
  frontProxyCaPem?: string,
): Promise<ClientTrust> {
  const clientCa = config.clientCaFile
    ? await pool('--client-ca-file', config.clientCaFile)
    : new CertificatePool(dataDirCaPem, 'the data dir CA (pki/ca.crt)');
  const warnings: string[] = [];
  if (!config.requestheaderClientCaFile && frontProxyCaPem) {
    return {
      clientCa,
      warnings,
      requestHeader: {
        ca: new CertificatePool(frontProxyCaPem, 'the front-proxy CA (pki/front-proxy-ca.crt)'),
        allowedNames: [FRONT_PROXY_CLIENT],
        usernameHeaders: config.requestheaderUsernameHeaders,
        uidHeaders: config.requestheaderUidHeaders,
        groupHeaders: config.requestheaderGroupHeaders,
        extraHeaderPrefixes: config.requestheaderExtraHeadersPrefix,
      },
    };
  }
  if (!config.requestheaderClientCaFile) return { clientCa, warnings };
  const proxyCa = await pool('--requestheader-client-ca-file', config.requestheaderClientCaFile);
  const shared = proxyCa.certificates.some((p) => clientCa.certificates.some((c) => c.raw.equals(p.raw)));
  if (shared && config.requestheaderAllowedNames.length === 0) {
    // kube allows it; but then every user with a client certificate may name any user in X-Remote-User
    warnings.push(
      '--requestheader-client-ca-file shares a CA with the client CA and --requestheader-allowed-names is empty: every client certificate can act as the authenticating proxy',
    );
  }
  return {
    clientCa,
    warnings,
    requestHeader: {
      ca: proxyCa,
      allowedNames: config.requestheaderAllowedNames,
      usernameHeaders: config.requestheaderUsernameHeaders,
      uidHeaders: config.requestheaderUidHeaders,
      groupHeaders: config.requestheaderGroupHeaders,
      extraHeaderPrefixes: config.requestheaderExtraHeadersPrefix,
    },
  };
}
