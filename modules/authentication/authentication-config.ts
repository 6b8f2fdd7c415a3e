/**
 * The AuthenticationConfiguration file (--authentication-config), as kube-apiserver v1.32 reads it:
 * `apiserver.config.k8s.io/v1beta1` or `v1alpha1`, YAML or JSON, decoded strictly (unknown or repeated fields
 * refuse the file), then validated. pgkube uses its `anonymous` section; JWT authenticators are not built
 * here, so a `jwt` section with entries refuses the file rather than being ignored.
 */
import { configFileObject, isPlainObject } from '../api/index.js';
import type { AnonymousAccess } from './union.js';

const GROUP = 'apiserver.config.k8s.io';
const KIND = 'AuthenticationConfiguration';
/** the versions kube v1.32 registers the kind in (v1 came with 1.34) */
const VERSIONS = ['v1beta1', 'v1alpha1'];

export interface AnonymousCondition {
  path: string;
}

export interface AuthenticationConfiguration {
  /** absent: the file says nothing about anonymous access (--anonymous-auth decides) */
  anonymous?: { enabled: boolean; conditions: AnonymousCondition[] };
}

/** A feature gate's state, asked by name (modules/versioning's gates). */
export type GateCheck = (name: string) => boolean;

/** Go's encoding/json names for a value that does not fit */
function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'object' : typeof v;
}

function mismatch(value: unknown, field: string, goType: string): Error {
  return new Error(
    `json: cannot unmarshal ${jsonType(value)} into Go struct field ${field} of type ${goType}`,
  );
}

/** Fields of `obj` outside `known`, as paths under `at` (kube's strict decoding reports every one). */
function unknownFields(obj: Record<string, unknown>, known: readonly string[], at: string): string[] {
  return Object.keys(obj)
    .filter((k) => !known.includes(k))
    .map((k) => (at ? `${at}.${k}` : k));
}

function decodeAnonymous(raw: unknown, unknown: string[]): AuthenticationConfiguration['anonymous'] {
  if (raw === null || raw === undefined) return undefined;
  if (!isPlainObject(raw))
    throw mismatch(raw, 'AuthenticationConfiguration.anonymous', 'v1beta1.AnonymousAuthConfig');
  unknown.push(...unknownFields(raw, ['enabled', 'conditions'], 'anonymous'));
  const enabled = raw.enabled ?? false;
  if (typeof enabled !== 'boolean') throw mismatch(enabled, 'AnonymousAuthConfig.anonymous.enabled', 'bool');
  const list = raw.conditions ?? [];
  if (!Array.isArray(list))
    throw mismatch(list, 'AnonymousAuthConfig.anonymous.conditions', '[]v1beta1.AnonymousAuthCondition');
  const conditions = list.map((c, i): AnonymousCondition => {
    if (c === null) return { path: '' };
    if (!isPlainObject(c))
      throw mismatch(c, 'AnonymousAuthConfig.anonymous.conditions', 'v1beta1.AnonymousAuthCondition');
    unknown.push(...unknownFields(c, ['path'], `anonymous.conditions[${i}]`));
    const path = c.path ?? '';
    if (typeof path !== 'string')
      throw mismatch(path, 'AnonymousAuthCondition.anonymous.conditions.path', 'string');
    return { path };
  });
  return { enabled, conditions };
}

/** apiVersion/kind first, then every field, strictly, as kube's UniversalDecoder with EnableStrict. */
function decode(text: string): { config: AuthenticationConfiguration; jwt: unknown[] } {
  const { raw } = configFileObject(text, GROUP, KIND, VERSIONS);
  const unknown = unknownFields(raw, ['apiVersion', 'kind', 'jwt', 'anonymous'], '');
  const anonymous = decodeAnonymous(raw.anonymous, unknown);
  const jwt = raw.jwt ?? [];
  if (!Array.isArray(jwt))
    throw mismatch(jwt, 'AuthenticationConfiguration.jwt', '[]v1beta1.JWTAuthenticator');
  if (unknown.length > 0)
    throw new Error(`strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`);
  return { config: anonymous ? { anonymous } : {}, jwt };
}

/** Go's %#v of the conditions, as kube's field error quotes the value */
function goConditions(conditions: readonly AnonymousCondition[]): string {
  const items = conditions.map((c) => `apiserver.AnonymousAuthCondition{Path:${JSON.stringify(c.path)}}`);
  return `[]apiserver.AnonymousAuthCondition{${items.join(', ')}}`;
}

/** kube's ValidateAuthenticationConfiguration, for the sections pgkube reads; field errors as kube words them. */
function validate(config: AuthenticationConfiguration, jwt: unknown[], enabled: GateCheck): string[] {
  const errors: string[] = [];
  if (jwt.length > 0)
    errors.push('jwt: Forbidden: JWT authenticators are not supported by pgkube; remove the jwt section');
  const anonymous = config.anonymous;
  if (anonymous) {
    if (!enabled('AnonymousAuthConfigurableEndpoints'))
      errors.push(
        'anonymous: Forbidden: anonymous is not supported when AnonymousAuthConfigurableEndpoints feature gate is disabled',
      );
    if (!anonymous.enabled && anonymous.conditions.length > 0)
      errors.push(
        `anonymous.conditions: Invalid value: ${goConditions(anonymous.conditions)}: enabled should be set to true when conditions are defined`,
      );
  }
  return errors;
}

/** kube's utilerrors aggregate: one message as it is, several in brackets */
function aggregate(messages: readonly string[]): string {
  return messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
}

/**
 * Reads an AuthenticationConfiguration from the text of `file`. Errors name the flag, then say what kube
 * says: "failed to load ..." for a file that does not decode, "invalid ..." for one that does not validate.
 */
export function parseAuthenticationConfiguration(
  text: string,
  file: string,
  enabled: GateCheck,
): AuthenticationConfiguration {
  const flag = '--authentication-config';
  if (!enabled('StructuredAuthenticationConfiguration'))
    throw new Error(
      `${flag}: set --feature-gates=StructuredAuthenticationConfiguration=true to use authentication-config file`,
    );
  let decoded: ReturnType<typeof decode>;
  try {
    decoded = decode(text);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new Error(
      `${flag}: failed to load authentication configuration from file ${JSON.stringify(file)}: ${message}`,
    );
  }
  const errors = validate(decoded.config, decoded.jwt, enabled);
  if (errors.length > 0)
    throw new Error(`${flag}: invalid authentication configuration: ${aggregate(errors)}`);
  return decoded.config;
}

/**
 * Who may come without credentials: the file's `anonymous` section, or --anonymous-auth (default true). Both
 * at once is refused at start, in kube's words.
 */
export function anonymousAccess(
  flag: boolean | undefined,
  config: AuthenticationConfiguration | undefined,
): AnonymousAccess {
  const section = config?.anonymous;
  if (section && flag !== undefined)
    throw new Error(
      '--anonymous-auth and --authentication-config: anonymous: Forbidden: --anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file',
    );
  if (section) return { enabled: section.enabled, paths: section.conditions.map((c) => c.path) };
  return { enabled: flag ?? true };
}
