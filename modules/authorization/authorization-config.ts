/**
 * The AuthorizationConfiguration file (--authorization-config), as kube-apiserver v1.32 reads it:
 * `apiserver.config.k8s.io/v1`, `v1beta1` or `v1alpha1`, YAML or JSON, decoded strictly (unknown or repeated
 * fields refuse the file), defaulted (webhook TTLs 5m / 30s), then validated with kube's field errors. The
 * match conditions' CEL is compiled by the caller's `compile` (modules/cel), which reports each expression's
 * problem; this file only checks what kube checks before compiling.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  configFileObject,
  fieldError,
  formatFieldError,
  goDurationString,
  isPlainObject,
  parseGoDuration,
  type FieldError,
} from '../api/index.js';
import { isDNS1123Subdomain } from '../validation/index.js';
import { AUTHORIZATION_MODES } from './modes.js';

const GROUP = 'apiserver.config.k8s.io';
const KIND = 'AuthorizationConfiguration';
const VERSIONS = ['v1', 'v1beta1', 'v1alpha1'];
/** kube: only webhooks may appear more than once */
const REPEATABLE = new Set(['Webhook']);
const MAX_MATCH_CONDITIONS = 64;
const MAX_TIMEOUT_MS = 30_000;

export type FailurePolicy = 'NoOpinion' | 'Deny';

export interface WebhookAuthorizerConfig {
  authorizedTtlMs: number;
  unauthorizedTtlMs: number;
  timeoutMs: number;
  subjectAccessReviewVersion: 'v1' | 'v1beta1';
  /** `v1`; empty when there are no match conditions */
  matchConditionSubjectAccessReviewVersion: string;
  failurePolicy: FailurePolicy;
  connectionInfo: { type: 'KubeConfigFile'; kubeConfigFile: string } | { type: 'InClusterConfig' };
  matchConditions: { expression: string }[];
}

export interface AuthorizerConfig {
  type: string;
  name: string;
  webhook?: WebhookAuthorizerConfig;
}

export interface AuthorizationConfiguration {
  authorizers: AuthorizerConfig[];
}

/** Compiles one match condition; a string is kube's detail of why it does not compile. */
export type MatchConditionCheck = (expression: string) => string | undefined;

/** Go's encoding/json names for a value that does not fit */
function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'object' : typeof v;
}

class Decoder {
  readonly unknown: string[] = [];

  constructor(private readonly version: string) {}

  object(v: unknown, field: string, goType: string, known: readonly string[], at: string) {
    if (v === undefined || v === null) return undefined;
    if (!isPlainObject(v)) throw this.mismatch(v, field, `${this.version}.${goType}`);
    for (const k of Object.keys(v)) if (!known.includes(k)) this.unknown.push(at ? `${at}.${k}` : k);
    return v;
  }

  string(v: unknown, field: string): string {
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') throw this.mismatch(v, field, 'string');
    return v;
  }

  /** metav1.Duration: a Go duration string; unset is 0 */
  duration(v: unknown, field: string): number {
    if (v === undefined || v === null) return 0;
    if (typeof v !== 'string') throw this.mismatch(v, field, 'v1.Duration');
    return parseGoDuration(v);
  }

  list(v: unknown, field: string, goType: string): unknown[] {
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) throw this.mismatch(v, field, `[]${this.version}.${goType}`);
    return v;
  }

  private mismatch(value: unknown, field: string, goType: string): Error {
    return new Error(
      `json: cannot unmarshal ${jsonType(value)} into Go struct field ${field} of type ${goType}`,
    );
  }
}

const WEBHOOK_FIELDS = [
  'authorizedTTL',
  'unauthorizedTTL',
  'timeout',
  'subjectAccessReviewVersion',
  'matchConditionSubjectAccessReviewVersion',
  'failurePolicy',
  'connectionInfo',
  'matchConditions',
];

/** The decoded file, before validation: what the fields say, as strings and milliseconds. */
interface RawWebhook {
  authorizedTtlMs: number;
  unauthorizedTtlMs: number;
  timeoutMs: number;
  subjectAccessReviewVersion: string;
  matchConditionSubjectAccessReviewVersion: string;
  failurePolicy: string;
  connectionType: string;
  kubeConfigFile?: string;
  matchConditions: { expression: string }[];
}

interface RawAuthorizer {
  type: string;
  name: string;
  webhook?: RawWebhook;
}

function decodeWebhook(d: Decoder, raw: unknown, at: string): RawWebhook | undefined {
  const w = d.object(
    raw,
    'AuthorizerConfiguration.authorizers.webhook',
    'WebhookConfiguration',
    WEBHOOK_FIELDS,
    at,
  );
  if (!w) return undefined;
  const f = (name: string) => `WebhookConfiguration.authorizers.webhook.${name}`;
  const info = d.object(
    w.connectionInfo,
    f('connectionInfo'),
    'WebhookConnectionInfo',
    ['type', 'kubeConfigFile'],
    `${at}.connectionInfo`,
  );
  const conditions = d.list(w.matchConditions, f('matchConditions'), 'WebhookMatchCondition').map((c, i) => {
    const o = d.object(
      c,
      f('matchConditions'),
      'WebhookMatchCondition',
      ['expression'],
      `${at}.matchConditions[${i}]`,
    );
    return {
      expression: d.string(
        o?.expression,
        'WebhookMatchCondition.authorizers.webhook.matchConditions.expression',
      ),
    };
  });
  const kubeConfigFile = info?.kubeConfigFile;
  return {
    // kube's defaults (SetDefaults_WebhookConfiguration)
    authorizedTtlMs: d.duration(w.authorizedTTL, f('authorizedTTL')) || 5 * 60_000,
    unauthorizedTtlMs: d.duration(w.unauthorizedTTL, f('unauthorizedTTL')) || 30_000,
    timeoutMs: d.duration(w.timeout, f('timeout')),
    subjectAccessReviewVersion: d.string(w.subjectAccessReviewVersion, f('subjectAccessReviewVersion')),
    matchConditionSubjectAccessReviewVersion: d.string(
      w.matchConditionSubjectAccessReviewVersion,
      f('matchConditionSubjectAccessReviewVersion'),
    ),
    failurePolicy: d.string(w.failurePolicy, f('failurePolicy')),
    connectionType: d.string(info?.type, 'WebhookConnectionInfo.authorizers.webhook.connectionInfo.type'),
    ...(kubeConfigFile === undefined || kubeConfigFile === null
      ? {}
      : {
          kubeConfigFile: d.string(
            kubeConfigFile,
            'WebhookConnectionInfo.authorizers.webhook.connectionInfo.kubeConfigFile',
          ),
        }),
    matchConditions: conditions,
  };
}

/** apiVersion/kind first, then every field, strictly, as kube's UniversalDecoder with EnableStrict. */
function decode(text: string): RawAuthorizer[] {
  const { raw, version } = configFileObject(text, GROUP, KIND, VERSIONS);
  const d = new Decoder(version);
  d.object(raw, '', KIND, ['apiVersion', 'kind', 'authorizers'], '');
  const authorizers = d
    .list(raw.authorizers, 'AuthorizationConfiguration.authorizers', 'AuthorizerConfiguration')
    .map((a, i): RawAuthorizer => {
      const at = `authorizers[${i}]`;
      const o =
        d.object(
          a,
          'AuthorizationConfiguration.authorizers',
          'AuthorizerConfiguration',
          ['type', 'name', 'webhook'],
          at,
        ) ?? {};
      const webhook = decodeWebhook(d, o.webhook, `${at}.webhook`);
      return {
        type: d.string(o.type, 'AuthorizerConfiguration.authorizers.type'),
        name: d.string(o.name, 'AuthorizerConfiguration.authorizers.name'),
        ...(webhook ? { webhook } : {}),
      };
    });
  if (d.unknown.length > 0)
    throw new Error(`strict decoding error: ${d.unknown.map((f) => `unknown field "${f}"`).join(', ')}`);
  return authorizers;
}

function validateWebhook(w: RawWebhook, at: string, check: MatchConditionCheck): FieldError[] {
  const errors: FieldError[] = [];
  if (w.timeoutMs === 0) errors.push(fieldError.required(`${at}.timeout`));
  else if (w.timeoutMs > MAX_TIMEOUT_MS || w.timeoutMs < 0)
    errors.push(
      fieldError.invalid(`${at}.timeout`, goDurationString(w.timeoutMs), 'must be > 0s and <= 30s'),
    );
  if (w.authorizedTtlMs < 0)
    errors.push(
      fieldError.invalid(`${at}.authorizedTTL`, goDurationString(w.authorizedTtlMs), 'must be > 0s'),
    );
  if (w.unauthorizedTtlMs < 0)
    errors.push(
      fieldError.invalid(`${at}.unauthorizedTTL`, goDurationString(w.unauthorizedTtlMs), 'must be > 0s'),
    );
  if (w.subjectAccessReviewVersion === '')
    errors.push(fieldError.required(`${at}.subjectAccessReviewVersion`));
  else if (!['v1', 'v1beta1'].includes(w.subjectAccessReviewVersion))
    errors.push(
      fieldError.notSupported(`${at}.subjectAccessReviewVersion`, w.subjectAccessReviewVersion, [
        'v1',
        'v1beta1',
      ]),
    );
  const mcVersion = w.matchConditionSubjectAccessReviewVersion;
  if (mcVersion === '' && w.matchConditions.length > 0)
    errors.push(
      fieldError.required(
        `${at}.matchConditionSubjectAccessReviewVersion`,
        'required if match conditions are specified',
      ),
    );
  else if (mcVersion !== '' && mcVersion !== 'v1')
    errors.push(fieldError.notSupported(`${at}.matchConditionSubjectAccessReviewVersion`, mcVersion, ['v1']));
  if (w.failurePolicy === '') errors.push(fieldError.required(`${at}.failurePolicy`));
  else if (!['NoOpinion', 'Deny'].includes(w.failurePolicy))
    errors.push(fieldError.notSupported(`${at}.failurePolicy`, w.failurePolicy, ['NoOpinion', 'Deny']));
  errors.push(...validateConnection(w, `${at}.connectionInfo`));
  errors.push(...validateMatchConditions(w.matchConditions, `${at}.matchConditions`, check));
  return errors;
}

function validateConnection(w: RawWebhook, at: string): FieldError[] {
  const file = w.kubeConfigFile;
  switch (w.connectionType) {
    case '':
      return [fieldError.required(`${at}.type`)];
    case 'InClusterConfig':
      // kube validates it, then refuses it for the API server's own authorizers (it would call itself)
      if (file !== undefined)
        return [fieldError.invalid(`${at}.kubeConfigFile`, file, 'can only be set when type=KubeConfigFile')];
      return [
        fieldError.invalid(
          `${at}.type`,
          'InClusterConfig',
          "InClusterConfig is not supported for the API server's own authorizers",
        ),
      ];
    case 'KubeConfigFile':
      if (!file) return [fieldError.required(`${at}.kubeConfigFile`)];
      if (!path.isAbsolute(file))
        return [fieldError.invalid(`${at}.kubeConfigFile`, file, 'must be an absolute path')];
      if (!existsSync(file))
        return [
          fieldError.invalid(
            `${at}.kubeConfigFile`,
            file,
            `error loading file: stat ${file}: no such file or directory`,
          ),
        ];
      if (!statSync(file).isFile())
        return [fieldError.invalid(`${at}.kubeConfigFile`, file, 'must be a regular file')];
      return [];
    default:
      return [fieldError.notSupported(`${at}.type`, w.connectionType, ['InClusterConfig', 'KubeConfigFile'])];
  }
}

function validateMatchConditions(
  conditions: readonly { expression: string }[],
  at: string,
  check: MatchConditionCheck,
): FieldError[] {
  if (conditions.length > MAX_MATCH_CONDITIONS)
    return [
      {
        type: 'TooMany',
        field: at,
        detail: `${conditions.length}: must have at most ${MAX_MATCH_CONDITIONS} items`,
      },
    ];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  conditions.forEach(({ expression }, i) => {
    const field = `${at}[${i}].expression`;
    if (expression.trim() === '') errors.push(fieldError.required(field));
    else if (seen.has(expression)) errors.push(fieldError.duplicate(field, expression));
    else {
      seen.add(expression);
      const problem = check(expression);
      if (problem !== undefined) errors.push(fieldError.invalid(field, expression, problem));
    }
  });
  return errors;
}

/** kube's ValidateAuthorizationConfiguration, with every mode a known type and only Webhook repeatable. */
function validate(authorizers: readonly RawAuthorizer[], check: MatchConditionCheck): FieldError[] {
  const errors: FieldError[] = [];
  if (authorizers.length === 0)
    errors.push(fieldError.required('authorizers', 'at least one authorization mode must be defined'));
  const known: string[] = [...AUTHORIZATION_MODES].sort();
  const types = new Set<string>();
  const names = new Set<string>();
  authorizers.forEach((a, i) => {
    const at = `authorizers[${i}]`;
    if (a.type === '') return errors.push(fieldError.required(`${at}.type`));
    if (!known.includes(a.type)) return errors.push(fieldError.notSupported(`${at}.type`, a.type, known));
    if (types.has(a.type) && !REPEATABLE.has(a.type))
      return errors.push(fieldError.duplicate(`${at}.type`, a.type));
    types.add(a.type);
    if (a.name === '') errors.push(fieldError.required(`${at}.name`));
    else if (names.has(a.name)) errors.push(fieldError.duplicate(`${at}.name`, a.name));
    else {
      const problems = isDNS1123Subdomain(a.name);
      if (problems.length > 0)
        errors.push(
          fieldError.invalid(`${at}.name`, a.name, `authorizer name is invalid: ${problems.join(', ')}`),
        );
    }
    names.add(a.name);
    if (a.type === 'Webhook') {
      if (!a.webhook) return errors.push(fieldError.required(`${at}.webhook`, 'required when type=Webhook'));
      errors.push(...validateWebhook(a.webhook, `${at}.webhook`, check));
    } else if (a.webhook) {
      errors.push(fieldError.invalid(`${at}.webhook`, 'non-null', 'may only be specified when type=Webhook'));
    }
    return undefined;
  });
  return errors;
}

/** kube's utilerrors aggregate: one message as it is, several in brackets */
function aggregate(messages: readonly string[]): string {
  return messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
}

function typed(a: RawAuthorizer): AuthorizerConfig {
  if (!a.webhook) return { type: a.type, name: a.name };
  const w = a.webhook;
  return {
    type: a.type,
    name: a.name,
    webhook: {
      authorizedTtlMs: w.authorizedTtlMs,
      unauthorizedTtlMs: w.unauthorizedTtlMs,
      timeoutMs: w.timeoutMs,
      subjectAccessReviewVersion: w.subjectAccessReviewVersion as 'v1' | 'v1beta1',
      matchConditionSubjectAccessReviewVersion: w.matchConditionSubjectAccessReviewVersion,
      failurePolicy: w.failurePolicy as FailurePolicy,
      connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: w.kubeConfigFile! },
      matchConditions: w.matchConditions,
    },
  };
}

/**
 * Reads an AuthorizationConfiguration from the text of `file`; errors say what kube says ("failed to load
 * ..." for a file that does not decode, "invalid ..." with every field error for one that does not validate).
 */
export function parseAuthorizationConfiguration(
  text: string,
  file: string,
  check: MatchConditionCheck,
): AuthorizationConfiguration {
  let authorizers: RawAuthorizer[];
  try {
    authorizers = decode(text);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new Error(
      `failed to load authorization configuration from file ${JSON.stringify(file)}: ${message}`,
    );
  }
  const errors = validate(authorizers, check);
  if (errors.length > 0)
    throw new Error(`invalid authorization configuration: ${aggregate(errors.map(formatFieldError))}`);
  // kube-apiserver's own rule: a built-in authorizer has its mode's name in lower case
  for (const a of authorizers) {
    if (a.type !== 'Webhook' && a.name !== a.type.toLowerCase())
      throw new Error(`expected name ${a.type.toLowerCase()} for authorizer ${a.type} instead of ${a.name}`);
  }
  return { authorizers: authorizers.map(typed) };
}

/**
 * kube's reload rule: a new file may change, add, remove and reorder webhooks, and reorder the others, but
 * not add or remove a non-webhook authorizer. Returns why a reload is refused, or undefined.
 */
export function refusedReload(
  current: AuthorizationConfiguration,
  next: AuthorizationConfiguration,
): string | undefined {
  const others = (c: AuthorizationConfiguration) =>
    c.authorizers
      .filter((a) => a.type !== 'Webhook')
      .map((a) => `${a.type}/${a.name}`)
      .sort()
      .join(',');
  if (others(current) !== others(next))
    return 'non-webhook authorizers (Node, RBAC, ...) cannot be added or removed on reload, only reordered';
  return undefined;
}
