/** The text wire formats (JSON and YAML), and negotiation between them and Protobuf (406/415). */
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { ApiError } from '../api/status.js';
import { parseAccept, parseMediaType, type MediaType } from './media-type.js';

export type Format = 'json' | 'yaml';

export const contentTypes: Record<Format, string> = {
  json: 'application/json',
  yaml: 'application/yaml',
};

/** what kube lists as serializable (406, 415) */
const supportedMediaTypes = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
/** what kube lists for watch streams: YAML has no stream form */
const streamMediaTypes = [
  'application/json;stream=watch',
  'application/vnd.kubernetes.protobuf;stream=watch',
];

/** kube's Protobuf media type, and the spec's alias for it */
const protobufSubtypes = new Set(['vnd.kubernetes.protobuf', 'vnd.orch.protobuf']);

type Serializer = Format | 'protobuf';
/** in kube's order: a wildcard picks the first that fits */
const serializers: Serializer[] = ['json', 'yaml', 'protobuf'];

function matches(m: MediaType, s: Serializer): boolean {
  if (m.type === '*' && m.subtype === '*') return true;
  if (m.type !== 'application') return false;
  if (m.subtype === '*') return true;
  return s === 'protobuf' ? protobufSubtypes.has(m.subtype) : m.subtype === s;
}

/** A conversion the client asked for with `as=` (meta.k8s.io v1 / v1beta1). */
export interface Conversion {
  as: 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';
  version: string;
}

export interface Negotiated {
  format: Format;
  conversion?: Conversion;
  /** the answer is Protobuf (of the kind, or of PartialObjectMetadata(List)) */
  protobuf?: boolean;
}

const conversions = new Set(['Table', 'PartialObjectMetadata', 'PartialObjectMetadataList']);

function conversionOf(params: Record<string, string>): Conversion | undefined | null {
  if (!params.as) return undefined;
  if (
    params.g !== 'meta.k8s.io' ||
    (params.v !== 'v1' && params.v !== 'v1beta1') ||
    !conversions.has(params.as)
  ) {
    return null;
  }
  return { as: params.as as Conversion['as'], version: params.v };
}

/** Whether serializer `s` can answer media type `m`, as kube's endpoint restrictions decide. */
function serves(
  m: MediaType,
  s: Serializer,
  accepts: (c: Conversion) => boolean,
  protobuf: boolean,
): Negotiated | undefined {
  if (m.params.stream && (s === 'yaml' || m.params.stream !== 'watch')) return undefined;
  const conversion = conversionOf(m.params);
  if (conversion === null) return undefined;
  if (conversion) {
    // kube prints Tables only as JSON or YAML; PartialObjectMetadata has a Protobuf form for every kind
    if (conversion.as === 'Table' && s === 'protobuf') return undefined;
    if (!accepts(conversion)) return undefined;
  } else if (s === 'protobuf' && !protobuf) return undefined;
  const format = s === 'protobuf' ? 'json' : s;
  const out: Negotiated = conversion ? { format, conversion } : { format };
  if (s === 'protobuf') out.protobuf = true;
  return out;
}

/**
 * Picks the response form from Accept, in order of preference, as kube does: JSON, YAML or Protobuf (only for
 * kinds with a Protobuf form: `protobuf`), optionally converted to Table or PartialObjectMetadata(List) when
 * the request can give it (`accepts`). A media type that cannot be served is skipped; nothing left → 406.
 * A watch (`stream`) takes the first fit too, and 406s when that has no stream form (YAML).
 */
export function negotiateOutput(
  accept: string | undefined,
  accepts: (c: Conversion) => boolean = () => false,
  protobuf = false,
  stream = false,
): Negotiated {
  const list = parseAccept(accept);
  if (list.length === 0) return { format: 'json' };
  for (const m of list) {
    for (const s of serializers) {
      if (!matches(m, s)) continue;
      const out = serves(m, s, accepts, protobuf);
      if (!out) continue;
      if (stream && out.format === 'yaml') throw ApiError.notAcceptable(streamMediaTypes);
      return out;
    }
  }
  throw ApiError.notAcceptable(stream ? streamMediaTypes : supportedMediaTypes);
}

/** Request bodies may also be Protobuf (kube's media type, and the spec's alias for it). */
export type InputFormat = Format | 'protobuf';

export function negotiateInput(contentType: string | undefined): InputFormat {
  if (!contentType) return 'json';
  const m = parseMediaType(contentType);
  if (m?.type === 'application' && !m.params.as) {
    if (protobufSubtypes.has(m.subtype)) return 'protobuf';
    if (m.subtype === 'json' || m.subtype === 'yaml') return m.subtype;
  }
  throw ApiError.unsupportedMediaType(supportedMediaTypes);
}

export function decodeBody(body: Buffer | string, format: Format): unknown {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (format === 'json') {
    try {
      return JSON.parse(text);
    } catch (e) {
      throw ApiError.badRequest(`json parse error: ${(e as Error).message}`);
    }
  }
  try {
    // kube reads YAML as YAML 1.1 (sigs.k8s.io/yaml): yes/no/on/off are booleans there
    return parseYaml(text, { version: '1.1', uniqueKeys: false, maxAliasCount: 100 });
  } catch (e) {
    throw ApiError.badRequest(`yaml: ${(e as Error).message.split('\n')[0]}`);
  }
}

export function encodeBody(value: unknown, format: Format, pretty: boolean): string {
  // written for YAML 1.1 readers (kube's clients): strings such as "yes" or a timestamp stay quoted strings
  if (format === 'yaml') return stringifyYaml(value, { version: '1.1', sortMapEntries: true, lineWidth: 0 });
  return pretty ? JSON.stringify(value, null, 2) + '\n' : JSON.stringify(value);
}
