/**
 * A bundle of trusted CA certificates (`--client-ca-file`, `--requestheader-client-ca-file`) and the check
 * of a client's certificate chain against it, as Go's `x509.Certificate.Verify` does it for kube: a path from
 * the leaf through the intermediates the client sent to a certificate of the bundle, each signature good,
 * each intermediate a CA, each certificate's extended key usage (when it has one) allowing client auth, and
 * each certificate valid now.
 *
 * The path is built once per TLS connection (a chain array stands for one connection, see
 * peer-certificates.ts) and only its validity window is compared with the clock on each request: signature
 * checks cost a connection, not a request, and a certificate that expires during a long h2 connection stops
 * authenticating at that moment.
 */
import { X509Certificate } from 'node:crypto';

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_USAGE = '2.5.29.37.0';
/** a longer chain is refused unread: building paths costs signature checks */
const MAX_CHAIN = 10;

/** Why a chain does not verify (for the log; the client only sees 401). */
export class CertificateError extends Error {}

interface Path {
  /** leaf first, the bundle's certificate last */
  certificates: readonly X509Certificate[];
  notBefore: number;
  notAfter: number;
}

/** The PEM blocks of a bundle, each parsed; other blocks (keys, comments) are skipped as Go's ParseCertsPEM does. */
export function parseCertificates(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((block) => new X509Certificate(block));
}

/** kube's certificate bundle form: each certificate's PEM, one after the other. */
export function certificatesPem(certificates: readonly X509Certificate[]): string {
  return certificates.map((c) => c.toString()).join('');
}

function validity(c: X509Certificate): [number, number] {
  return [Date.parse(c.validFrom), Date.parse(c.validTo)];
}

function allowsClientAuth(c: X509Certificate): boolean {
  const usages = c.keyUsage;
  return !usages || usages.length === 0 || usages.includes(CLIENT_AUTH) || usages.includes(ANY_USAGE);
}

function signedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  return cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
}

export class CertificatePool {
  readonly certificates: readonly X509Certificate[];
  private readonly paths = new WeakMap<readonly X509Certificate[], Path | CertificateError>();

  /** `source` names where the bundle came from (a flag and file) in the error for a bundle without certificates. */
  constructor(pem: string, source: string) {
    let certificates: X509Certificate[];
    try {
      certificates = parseCertificates(pem);
    } catch (e) {
      throw new Error(`${source}: not a PEM certificate bundle: ${(e as Error).message}`);
    }
    if (certificates.length === 0) throw new Error(`${source}: no PEM certificate in it`);
    this.certificates = certificates;
  }

  /** The bundle as kube publishes it (extension-apiserver-authentication). */
  get pem(): string {
    return certificatesPem(this.certificates);
  }

  /**
   * The verified path of `chain` (leaf first, as the client sent it), or a CertificateError. The same array
   * is verified once; each call compares its validity with `now`.
   */
  verify(chain: readonly X509Certificate[], now = Date.now()): readonly X509Certificate[] {
    let path = this.paths.get(chain);
    if (!path) {
      path = this.build(chain);
      this.paths.set(chain, path);
    }
    if (path instanceof CertificateError) throw path;
    if (now < path.notBefore || now > path.notAfter) {
      throw new CertificateError(
        `certificate has expired or is not yet valid: current time ${new Date(now).toISOString()} is outside ` +
          `${new Date(path.notBefore).toISOString()} - ${new Date(path.notAfter).toISOString()}`,
      );
    }
    return path.certificates;
  }

  private build(chain: readonly X509Certificate[]): Path | CertificateError {
    if (chain.length === 0 || chain.length > MAX_CHAIN) {
      return new CertificateError(`a client certificate chain of ${chain.length} certificates`);
    }
    const [leaf, ...intermediates] = chain;
    const found = this.pathFrom(leaf, intermediates, [leaf]);
    if (!found) return new CertificateError('certificate signed by unknown authority');
    if (!found.every(allowsClientAuth)) {
      return new CertificateError('certificate specifies an incompatible key usage');
    }
    const windows = found.map(validity);
    return {
      certificates: found,
      notBefore: Math.max(...windows.map((w) => w[0])),
      notAfter: Math.min(...windows.map((w) => w[1])),
    };
  }

  /** Depth first, as Go: a bundle certificate that issued `cert` ends the path, else an intermediate that did. */
  private pathFrom(
    cert: X509Certificate,
    intermediates: readonly X509Certificate[],
    path: X509Certificate[],
  ): X509Certificate[] | undefined {
    for (const root of this.certificates) {
      if (root.raw.equals(cert.raw)) return path;
      if (signedBy(cert, root)) return [...path, root];
    }
    for (const next of intermediates) {
      if (path.includes(next) || !next.ca || !signedBy(cert, next)) continue;
      const found = this.pathFrom(next, intermediates, [...path, next]);
      if (found) return found;
    }
    return undefined;
  }
}
