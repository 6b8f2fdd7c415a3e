/** The wire formats of this slice (JSON and YAML) and negotiation between them (406/415). */
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { ApiError } from '../api/status.js';
import { parseAccept, parseMediaType } from './media-type.js';

export type Format = 'json' | 'yaml';

export const contentTypes: Record<Format, string> = {
  json: 'application/json',
  yaml: 'application/yaml',
};

/** what kube lists as serializable; Protobuf is accepted on the wire later */
const supportedMediaTypes = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

function formatOf(type: string, subtype: string): Format | undefined {
  if (type === '*' && subtype === '*') return 'json';
  if (type !== 'application') return undefined;
  if (subtype === 'json' || subtype === '*') return 'json';
  if (subtype === 'yaml') return 'yaml';
  return undefined;
}

/** A conversion the client asked for with `as=` (meta.k8s.io v1 / v1beta1). */
export interface Conversion {
  as: 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';
  version: string;
}

export interface Negotiated {
  format: Format;
  conversion?: Conversion;
  /** Protobuf was preferred and this response can be given in it */
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

/**
 * Picks the response form from Accept, in order of preference: JSON or YAML, optionally converted to Table or
 * PartialObjectMetadata(List). Forms not served yet (Protobuf) are skipped, so a client that also listed JSON
 * gets JSON, as kube falls back; nothing left → 406. `accepts` says which conversions this request can give.
 */
export function negotiateOutput(
  accept: string | undefined,
  accepts: (c: Conversion) => boolean = () => false,
  protobuf = false,
): Negotiated {
  const list = parseAccept(accept);
  if (list.length === 0) return { format: 'json' };
  for (const m of list) {
    if (m.type === 'application' && protobufSubtypes.has(m.subtype)) {
      if (protobuf && !m.params.as) return { format: 'json', protobuf: true };
      continue;
    }
    const conversion = conversionOf(m.params);
    if (conversion === null || (conversion && !accepts(conversion))) continue;
    const format = formatOf(m.type, m.subtype);
    if (format) return conversion ? { format, conversion } : { format };
  }
  throw ApiError.notAcceptable(supportedMediaTypes);
}

/** Request bodies may also be Protobuf (kube's media type, and the spec's alias for it). */
export type InputFormat = Format | 'protobuf';

const protobufSubtypes = new Set(['vnd.kubernetes.protobuf', 'vnd.orch.protobuf']);

export function negotiateInput(contentType: string | undefined): InputFormat {
  if (!contentType) return 'json';
  const m = parseMediaType(contentType);
  if (m && m.type === 'application' && protobufSubtypes.has(m.subtype)) return 'protobuf';
  const format = m && !m.params.as ? formatOf(m.type, m.subtype) : undefined;
  if (!format || m?.type === '*' || m?.subtype === '*') {
    throw ApiError.unsupportedMediaType(contentType, supportedMediaTypes);
  }
  return format;
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
  if (format === 'yaml') return stringifyYaml(value, { sortMapEntries: true, lineWidth: 0 });
  return pretty ? JSON.stringify(value, null, 2) + '\n' : JSON.stringify(value);
}
