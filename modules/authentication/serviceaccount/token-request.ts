/**
 * TokenRequest (authentication.k8s.io/v1, the body of serviceaccounts/token) as kube's TokenREST reads it:
 * defaults, validation with kube's messages, the object a token may be bound to, the capped lifetime.
 */
import { ApiError, fieldError, isPlainObject, type FieldError, type KubeObject } from '../../api/index.js';

export const TOKEN_REQUEST_GROUP = 'authentication.k8s.io';
export const TOKEN_REQUEST_KIND = 'TokenRequest';
/** kube's MinTokenAgeSec and the largest lifetime it accepts */
export const MIN_EXPIRATION_SECONDS = 600;
export const MAX_EXPIRATION_SECONDS = 2 ** 32;
/** SetDefaults_TokenRequestSpec */
export const DEFAULT_EXPIRATION_SECONDS = 3600;

export interface BoundObjectReference {
  kind: string;
  apiVersion: string;
  name: string;
  uid: string;
}

export interface TokenRequestSpec {
  audiences: string[];
  expirationSeconds: number;
  boundObjectRef?: BoundObjectReference;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The spec with kube's defaults: audiences from the server, one hour. */
export function tokenRequestSpec(body: KubeObject, apiAudiences: readonly string[]): TokenRequestSpec {
  const spec = isPlainObject(body.spec) ? body.spec : {};
  const audiences = Array.isArray(spec.audiences) ? spec.audiences.map(text) : [];
  const seconds = spec.expirationSeconds;
  const ref = isPlainObject(spec.boundObjectRef) ? spec.boundObjectRef : undefined;
  return {
    audiences: audiences.length > 0 ? audiences : [...apiAudiences],
    expirationSeconds: typeof seconds === 'number' ? seconds : DEFAULT_EXPIRATION_SECONDS,
    boundObjectRef: ref && {
      kind: text(ref.kind),
      apiVersion: text(ref.apiVersion),
      name: text(ref.name),
      uid: text(ref.uid),
    },
  };
}

/** 422 as kube answers it: `TokenRequest.authentication.k8s.io "<name>" is invalid: ...`. */
export function invalidTokenRequest(name: string, errors: FieldError[]): ApiError {
  const invalid = ApiError.invalid(TOKEN_REQUEST_KIND, TOKEN_REQUEST_GROUP, name, errors);
  // kube names the kind with its group (GroupKind.String())
  const message = `${TOKEN_REQUEST_KIND}.${TOKEN_REQUEST_GROUP}${invalid.message.slice(TOKEN_REQUEST_KIND.length)}`;
  return new ApiError(422, 'Invalid', message, invalid.details);
}

/** A body naming another account than the URL does (kube checks before it reads the account). */
export function addressErrors(body: KubeObject, namespace: string, name: string): FieldError[] {
  const errors: FieldError[] = [];
  const { name: bodyName, namespace: bodyNamespace } = body.metadata;
  if (bodyName && bodyName !== name)
    errors.push(
      fieldError.invalid('metadata.name', bodyName, 'must match the service account name if specified'),
    );
  if (bodyNamespace && bodyNamespace !== namespace) {
    errors.push(
      fieldError.invalid(
        'metadata.namespace',
        bodyNamespace,
        'must match the service account namespace if specified',
      ),
    );
  }
  return errors;
}

/** kube's ValidateTokenRequest. */
export function tokenRequestErrors(spec: TokenRequestSpec): FieldError[] {
  const errors: FieldError[] = [];
  if (spec.expirationSeconds < MIN_EXPIRATION_SECONDS) {
    errors.push(
      fieldError.invalid(
        'spec.expirationSeconds',
        spec.expirationSeconds,
        'may not specify a duration less than 10 minutes',
      ),
    );
  }
  if (spec.expirationSeconds > MAX_EXPIRATION_SECONDS) {
    errors.push(
      fieldError.invalid(
        'spec.expirationSeconds',
        spec.expirationSeconds,
        'may not specify a duration larger than 2^32 seconds',
      ),
    );
  }
  return errors;
}

/** The kinds a token may be bound to, by resource; anything else is a 400 naming its group-version-kind. */
const BINDABLE: Record<string, 'pods' | 'secrets' | 'nodes'> = {
  Pod: 'pods',
  Secret: 'secrets',
  Node: 'nodes',
};

/** The core resource `ref` names, or kube's 400 (`/v1, Kind=ConfigMap` is Go's GroupVersionKind.String()). */
export function boundResource(ref: BoundObjectReference): 'pods' | 'secrets' | 'nodes' {
  const slash = ref.apiVersion.indexOf('/');
  const group = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
  const version = slash < 0 ? ref.apiVersion : ref.apiVersion.slice(slash + 1);
  const resource = group === '' ? BINDABLE[ref.kind] : undefined;
  if (!resource)
    throw ApiError.badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${ref.kind}`);
  return resource;
}

/** A bound object whose uid is not the one the request names: 409, as kube answers it. */
export function boundUidConflict(ref: BoundObjectReference): ApiError {
  return ApiError.conflict(
    { group: '', resource: ref.kind },
    ref.name,
    `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
  );
}

/** The lifetime actually granted, and kube's warning when --service-account-max-token-expiration shortened it. */
export function cappedExpiration(
  requested: number,
  maxSeconds: number,
): { expirationSeconds: number; warning?: string } {
  if (maxSeconds > 0 && requested > maxSeconds) {
    return {
      expirationSeconds: maxSeconds,
      warning: `requested expiration of ${requested} seconds shortened to ${maxSeconds} seconds`,
    };
  }
  return { expirationSeconds: requested };
}
