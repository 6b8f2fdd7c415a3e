/**
 * spec.conversion with kube's rules and messages. kube validates the internal form, so the paths say
 * `spec.conversion.webhookClientConfig` and `spec.conversion.conversionReviewVersions`, not the v1 names.
 */
import { X509Certificate } from 'node:crypto';
import { fieldError, type FieldError } from '../../api/index.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../validation/index.js';
import type { InternalSpec } from './internal.js';
import type { ServiceReference } from './types.js';

/** The ConversionReview versions this server (and the one before it) understands. */
export const acceptedReviewVersions = ['v1', 'v1beta1'];

export interface ConversionOptions {
  requireRecognizedConversionReviewVersion: boolean;
  /** on create, and until the CRD is Established, a bad caBundle is let through (the controller flags it) */
  allowInvalidCABundle: boolean;
}

export function validateConversion(spec: InternalSpec, opts: ConversionOptions, path: string): FieldError[] {
  const conversion = spec.conversion;
  if (!conversion) return [];
  const errs: FieldError[] = [];
  const strategy = conversion.strategy;
  if (!strategy) errs.push(fieldError.required(`${path}.strategy`, ''));
  else if (strategy !== 'None' && strategy !== 'Webhook')
    errs.push(fieldError.notSupported(`${path}.strategy`, strategy, ['None', 'Webhook']));
  const ccPath = `${path}.webhookClientConfig`;
  const cc = conversion.webhookClientConfig;
  if (strategy === 'Webhook') {
    if (!cc) errs.push(fieldError.required(ccPath, 'required when strategy is set to Webhook'));
    else {
      if ((cc.url === undefined) === (cc.service === undefined))
        errs.push(fieldError.required(ccPath, 'exactly one of url or service is required'));
      else if (cc.url !== undefined) errs.push(...validateWebhookURL(`${ccPath}.url`, cc.url));
      else if (cc.service) errs.push(...validateWebhookService(`${ccPath}.service`, cc.service));
      if (cc.caBundle && !opts.allowInvalidCABundle) {
        const bad = caBundleError(cc.caBundle);
        if (bad) errs.push(fieldError.invalid(`${ccPath}.caBundle`, cc.caBundle, bad));
      }
    }
    errs.push(
      ...validateReviewVersions(
        conversion.conversionReviewVersions,
        opts,
        `${path}.conversionReviewVersions`,
      ),
    );
  } else {
    const notWebhook = 'should not be set when strategy is not set to Webhook';
    if (cc) errs.push(fieldError.forbidden(ccPath, notWebhook));
    if (conversion.conversionReviewVersions?.length)
      errs.push(fieldError.forbidden(`${path}.conversionReviewVersions`, notWebhook));
  }
  return errs;
}

function validateReviewVersions(
  versions: string[] | undefined,
  opts: ConversionOptions,
  path: string,
): FieldError[] {
  if (!versions?.length) return [fieldError.required(path, '')];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(fieldError.invalid(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(fieldError.invalid(`${path}[${i}]`, v, msg));
    if (acceptedReviewVersions.includes(v)) accepted = true;
  });
  if (opts.requireRecognizedConversionReviewVersion && !accepted)
    errs.push(
      fieldError.invalid(path, versions, `must include at least one of ${acceptedReviewVersions.join(', ')}`),
    );
  return errs;
}

/** True when the versions are empty or include one this server understands (kube's ratcheting test). */
export function hasAcceptedReviewVersionOrEmpty(versions: string[] | undefined): boolean {
  return !versions?.length || versions.some((v) => acceptedReviewVersions.includes(v));
}

const form = '; desired format: https://host[/path]';

/** The parts of a URL as Go's url.Parse splits them (enough for kube's checks). */
function splitURL(url: string): {
  scheme: string;
  user?: string;
  host: string;
  query: string;
  fragment: string;
} {
  let rest = url;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) [rest, fragment] = [rest.slice(0, hash), rest.slice(hash + 1)];
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest)?.[1] ?? '';
  if (scheme) rest = rest.slice(scheme.length + 1);
  let query = '';
  const q = rest.indexOf('?');
  if (q >= 0) [rest, query] = [rest.slice(0, q), rest.slice(q + 1)];
  if (!rest.startsWith('//')) return { scheme, host: '', query, fragment };
  const authority = rest.slice(2).split('/')[0];
  const at = authority.lastIndexOf('@');
  return at >= 0
    ? { scheme, user: authority.slice(0, at), host: authority.slice(at + 1), query, fragment }
    : { scheme, host: authority, query, fragment };
}

export function validateWebhookURL(path: string, url: string): FieldError[] {
  const errs: FieldError[] = [];
  const u = splitURL(url);
  if (u.scheme !== 'https')
    errs.push(fieldError.invalid(path, u.scheme, `'https' is the only allowed URL scheme${form}`));
  if (!u.host) errs.push(fieldError.invalid(path, u.host, `host must be specified${form}`));
  if (u.user !== undefined)
    errs.push(fieldError.invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment) errs.push(fieldError.invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.query) errs.push(fieldError.invalid(path, u.query, 'query parameters are not permitted in the URL'));
  return errs;
}

export function validateWebhookService(path: string, service: ServiceReference): FieldError[] {
  const errs: FieldError[] = [];
  if (!service.name) errs.push(fieldError.required(`${path}.name`, 'service name is required'));
  if (!service.namespace)
    errs.push(fieldError.required(`${path}.namespace`, 'service namespace is required'));
  const port = service.port ?? 443;
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    errs.push(
      fieldError.invalid(`${path}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'),
    );
  const urlPath = service.path;
  if (urlPath === undefined || urlPath === '/' || urlPath === '') return errs;
  if (urlPath === '//')
    return [...errs, fieldError.invalid(`${path}.path`, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/'))
    errs.push(fieldError.invalid(`${path}.path`, urlPath, "must start with a '/'"));
  let check = urlPath.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (!step) errs.push(fieldError.invalid(`${path}.path`, urlPath, `segment[${i}] may not be empty`));
    else
      for (const msg of isDNS1123Subdomain(step))
        errs.push(fieldError.invalid(`${path}.path`, urlPath, `segment[${i}]: ${msg}`));
  });
  return errs;
}

/** Why client-go could not use the (base64) caBundle as root certificates, or undefined. */
export function caBundleError(caBundle: string): string | undefined {
  const pem = Buffer.from(caBundle, 'base64').toString('latin1');
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g);
  if (!blocks) return 'unable to load root certificates: unable to parse bytes as PEM block';
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch (e) {
      return `unable to load root certificates: failed to parse certificate: ${(e as Error).message}`;
    }
  }
  return undefined;
}
