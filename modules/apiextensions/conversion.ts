/**
 * A CRD's conversion between its versions: None rewrites apiVersion (the versions share one schema shape);
 * Webhook sends a ConversionReview (the first of the CRD's conversionReviewVersions that kube speaks) to the
 * CRD's webhook and checks the answer as kube does (same uid and count, desired apiVersion, same kind; only
 * labels and annotations may change in metadata). A failure is kube's 500 "conversion webhook for ... failed".
 */
import { randomUUID } from 'node:crypto';
import { ApiError, isPlainObject, type KubeObject, type Schema } from '../api/index.js';
import { applyDefaults, hasDefaults } from '../schema/index.js';
import type { ResourceDefinition } from '../registry/index.js';
import { WebhookError, WebhookTransport } from '../webhook/index.js';
import type { CustomResourceDefinition, WebhookClientConfig } from './crd/index.js';
import { versionSchema } from './version-checks.js';

const TIMEOUT_MS = 30_000;
/** a converted list can be as large as a list answer */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
const REVIEW_VERSIONS = ['v1', 'v1beta1'];

type Convert = NonNullable<ResourceDefinition['convert']>;

/**
 * How a CRD's objects are read in each version: converted between versions (None or Webhook) when it has
 * several, then given the version's defaults (kube defaults what it reads from storage, so objects stored
 * before a default was added get it). Undefined when neither applies: objects are served as stored.
 */
export function converterOf(crd: CustomResourceDefinition, kind: string): Convert | undefined {
  const versions = crd.spec.versions ?? [];
  const defaulting = new Map<string, Schema>();
  for (const v of versions)
    if (v.name && hasDefaults(versionSchema(v))) defaulting.set(v.name, versionSchema(v));
  const change = versions.length > 1 ? versionChange(crd, kind) : undefined;
  if (!change && defaulting.size === 0) return undefined;
  return async (objects, version) => {
    const out = change ? await change(objects, version) : objects;
    const schema = defaulting.get(version);
    // stored objects are shared (the watch cache's): defaults go into copies
    return schema ? out.map((o) => applyDefaults(schema, structuredClone(o))) : out;
  };
}

function versionChange(crd: CustomResourceDefinition, kind: string): Convert {
  const group = crd.spec.group ?? '';
  const conversion = crd.spec.conversion;
  if (conversion?.strategy !== 'Webhook') {
    return async (objects, version) => {
      const apiVersion = `${group}/${version}`;
      return objects.map((o) => (o.apiVersion === apiVersion ? o : { ...o, apiVersion }));
    };
  }
  const webhook = new ConversionWebhook(
    conversion.webhook?.clientConfig ?? {},
    conversion.webhook?.conversionReviewVersions ?? [],
    kind,
  );
  return (objects, version) => webhook.convert(objects, `${group}/${version}`);
}

function endpoint(config: WebhookClientConfig): URL {
  if (config.url) return new URL(config.url);
  const s = config.service ?? {};
  return new URL(`https://${s.name}.${s.namespace}.svc:${s.port ?? 443}${s.path ?? ''}`);
}

class ConversionWebhook {
  private transport?: WebhookTransport;
  private readonly reviewVersion?: string;

  constructor(
    private readonly config: WebhookClientConfig,
    reviewVersions: string[],
    private readonly kind: string,
  ) {
    this.reviewVersion = reviewVersions.find((v) => REVIEW_VERSIONS.includes(v));
  }

  async convert(objects: KubeObject[], desired: string): Promise<KubeObject[]> {
    const indexes = objects.flatMap((o, i) => (o.apiVersion === desired ? [] : [i]));
    if (indexes.length === 0) return objects;
    const from = objects[indexes[0]].apiVersion;
    try {
      const converted = await this.review(
        indexes.map((i) => objects[i]),
        desired,
      );
      const out = [...objects];
      indexes.forEach((i, n) => (out[i] = converted[n]));
      return out;
    } catch (e) {
      const why = e instanceof WebhookError || e instanceof ConversionError ? e.message : String(e);
      throw ApiError.internal(`conversion webhook for ${from}, Kind=${this.kind} failed: ${why}`);
    }
  }

  private async review(objects: KubeObject[], desired: string): Promise<KubeObject[]> {
    if (!this.reviewVersion) throw new ConversionError('no supported conversionReviewVersions');
    const uid = randomUUID();
    const body = JSON.stringify({
      kind: 'ConversionReview',
      apiVersion: `apiextensions.k8s.io/${this.reviewVersion}`,
      request: { uid, desiredAPIVersion: desired, objects },
    });
    this.transport ??= new WebhookTransport(
      {
        url: endpoint(this.config),
        ca: this.config.caBundle ? Buffer.from(this.config.caBundle, 'base64').toString('utf8') : undefined,
        insecureSkipTlsVerify: false,
      },
      TIMEOUT_MS,
      MAX_ANSWER_BYTES,
    );
    const answer = await this.transport.post(body, (text) => JSON.parse(text) as unknown);
    const response = isPlainObject(answer) ? answer.response : undefined;
    if (!isPlainObject(response)) throw new ConversionError('no response provided');
    if (response.uid !== uid)
      throw new ConversionError(`expected response uid "${uid}", got "${String(response.uid)}"`);
    const result = isPlainObject(response.result) ? response.result : {};
    if (result.status !== 'Success') {
      throw new ConversionError(
        typeof result.message === 'string' ? result.message : 'the webhook did not succeed',
      );
    }
    const converted = Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
    if (converted.length !== objects.length) {
      throw new ConversionError(`returned ${converted.length} objects, expected ${objects.length}`);
    }
    return converted.map((c, i) => checked(c, objects[i], desired, i));
  }
}

class ConversionError extends Error {}

/** A converted object checked against its original; its metadata is the original's but for labels and annotations. */
function checked(value: unknown, original: KubeObject, desired: string, index: number): KubeObject {
  const invalid = (why: string) => new ConversionError(`invalid converted object at index ${index}: ${why}`);
  if (!isPlainObject(value)) throw invalid('not an object');
  if (value.apiVersion !== desired)
    throw invalid(`invalid apiVersion "${String(value.apiVersion)}", expected "${desired}"`);
  if (value.kind !== original.kind)
    throw invalid(`invalid kind "${String(value.kind)}", expected "${original.kind}"`);
  const meta = isPlainObject(value.metadata) ? value.metadata : {};
  for (const field of ['name', 'namespace', 'uid'] as const) {
    if ((meta[field] ?? undefined) !== (original.metadata[field] ?? undefined))
      throw invalid(`must not change metadata.${field}`);
  }
  const metadata = { ...original.metadata };
  if (isPlainObject(meta.labels)) metadata.labels = meta.labels as Record<string, string>;
  else delete metadata.labels;
  if (isPlainObject(meta.annotations)) metadata.annotations = meta.annotations as Record<string, string>;
  else delete metadata.annotations;
  return { ...(value as KubeObject), metadata };
}
