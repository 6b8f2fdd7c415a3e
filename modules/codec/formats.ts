/** The text wire formats (JSON and YAML), and negotiation between them, Protobuf and CBOR (406/415). */
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { ApiError } from '../api/index.js';
import { parseAccept, parseMediaType, type MediaType } from './media-type.js';

export type Format = 'json' | 'yaml';

export const contentTypes: Record<Format, string> = {
  json: 'application/json',
  yaml: 'application/yaml',
};

/**
 * What kube lists as serializable (406, 415): Protobuf for kinds that have that form (not custom resources),
 * CBOR while its feature gate is on.
 */
function supportedMediaTypes(cbor: boolean, protobuf = true): string[] {
  const types = ['application/json', 'application/yaml'];
  if (protobuf) types.push('application/vnd.kubernetes.protobuf');
  return cbor ? [...types, 'application/cbor'] : types;
}
/** what kube lists for watch streams: YAML has no stream form */
function streamMediaTypes(cbor: boolean, protobuf = true): string[] {
  const types = ['application/json;stream=watch'];
  if (protobuf) types.push('application/vnd.kubernetes.protobuf;stream=watch');
  return cbor ? [...types, 'application/cbor-seq'] : types;
}

/** kube's Protobuf media type, and the spec's alias for it */
const protobufSubtypes = new Set(['vnd.kubernetes.protobuf', 'vnd.orch.protobuf']);

type Serializer = Format | 'protobuf' | 'cbor';
/** in kube's order: a wildcard picks the first that fits */
const serializers: Serializer[] = ['json', 'yaml', 'protobuf', 'cbor'];

function matches(m: MediaType, s: Serializer, stream: boolean): boolean {
  if (m.type === '*' && m.subtype === '*') return true;
  if (m.type !== 'application') return false;
  if (m.subtype === '*') return true;
  if (s === 'protobuf') return protobufSubtypes.has(m.subtype);
  // a CBOR watch answers as a CBOR sequence, asked for by either name
  if (s === 'cbor') return m.subtype === 'cbor' || (stream && m.subtype === 'cbor-seq');
  return m.subtype === s;
}

/** The forms this request may be answered in, besides JSON and YAML. */
export interface Forms {
  /** the kind has a Protobuf form */
  protobuf?: boolean;
  /** the answer is a watch stream */
  stream?: boolean;
  /** CBOR is served (feature gate CBORServingAndStorage) */
  cbor?: boolean;
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
  /** the answer is CBOR */
  cbor?: boolean;
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
  forms: Forms,
): Negotiated | undefined {
  if (s === 'cbor' && !forms.cbor) return undefined;
  if (m.params.stream && (s === 'yaml' || s === 'cbor' || m.params.stream !== 'watch')) return undefined;
  const conversion = conversionOf(m.params);
  if (conversion === null) return undefined;
  if (conversion) {
    // kube prints Tables only as JSON or YAML; PartialObjectMetadata has a binary form for every kind
    if (conversion.as === 'Table' && (s === 'protobuf' || s === 'cbor')) return undefined;
    if (!accepts(conversion)) return undefined;
  } else if (s === 'protobuf' && !forms.protobuf) return undefined;
  const format = s === 'protobuf' || s === 'cbor' ? 'json' : s;
  const out: Negotiated = conversion ? { format, conversion } : { format };
  if (s === 'protobuf') out.protobuf = true;
  if (s === 'cbor') out.cbor = true;
  return out;
}

/**
 * Picks the response form from Accept, in order of preference, as kube does: JSON, YAML, Protobuf (only for
 * kinds with a Protobuf form) or CBOR (while its gate is on), optionally converted to Table or
 * PartialObjectMetadata(List) when the request can give it (`accepts`). A media type that cannot be served is
 * skipped; nothing left → 406. A watch (`stream`) takes the first fit too, and 406s when that has no stream
 * form (YAML).
 */
export function negotiateOutput(
  accept: string | undefined,
  accepts: (c: Conversion) => boolean = () => false,
  forms: Forms = {},
): Negotiated {
  const stream = !!forms.stream;
  // unsaid (non-resource answers): the lists name Protobuf, as kube's do
  const protobuf = forms.protobuf ?? true;
  const list = parseAccept(accept);
  if (list.length === 0) return { format: 'json' };
  for (const m of list) {
    for (const s of serializers) {
      if (!matches(m, s, stream)) continue;
      const out = serves(m, s, accepts, forms);
      if (!out) continue;
      if (stream && out.format === 'yaml')
        throw ApiError.notAcceptable(streamMediaTypes(!!forms.cbor, protobuf));
      return out;
    }
  }
  throw ApiError.notAcceptable(
    stream ? streamMediaTypes(!!forms.cbor, protobuf) : supportedMediaTypes(!!forms.cbor, protobuf),
  );
}

/** Request bodies may also be Protobuf (kube's media type, and the spec's alias for it), or CBOR. */
export type InputFormat = Format | 'protobuf' | 'cbor';

/** A request body's format; `protobuf` false for kinds without that form (custom resources). */
export function negotiateInput(contentType: string | undefined, cbor = false, protobuf = true): InputFormat {
  if (!contentType) return 'json';
  const m = parseMediaType(contentType);
  if (m?.type === 'application' && !m.params.as) {
    if (protobufSubtypes.has(m.subtype) && protobuf) return 'protobuf';
    if (m.subtype === 'json' || m.subtype === 'yaml') return m.subtype;
    if (m.subtype === 'cbor' && cbor) return 'cbor';
  }
  throw ApiError.unsupportedMediaType(supportedMediaTypes(cbor, protobuf));
}

/** The 1.1 schema's `!!binary`, read as Go's yaml.v2 reads it: strict base64 (line breaks skipped) to a string. */
const binaryTag = 'tag:yaml.org,2002:binary';
const binaryMessage = '!!binary value contains invalid base64 data';
const yamlBinary = {
  tag: binaryTag,
  identify: () => false,
  resolve(src: string): string {
    const b64 = src.replace(/[\r\n]/g, '');
    if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) throw new Error(binaryMessage);
    // Go converts the bytes to a JSON string: invalid UTF-8 becomes U+FFFD, as Node's decoder does
    return Buffer.from(b64, 'base64').toString('utf8');
  },
};
const yamlTags = (tags: { tag: string }[]) => tags.map((t) => (t.tag === binaryTag ? yamlBinary : t));

/** Go's encoding/json and yaml.v2 refuse documents nested deeper than this. */
export const maxDepth = 10000;

/**
 * Strings the database can hold: a NUL character (which PostgreSQL's jsonb refuses) is a 400, a lone UTF-16
 * surrogate becomes U+FFFD (Go's decoders do that with a `\ud800` escape). Walks the parsed value in place;
 * an object nested deeper than kube reads is refused too.
 */
export function checkText(value: unknown, format = 'json'): unknown {
  try {
    return walkText(value, [], 0);
  } catch (e) {
    // a stack too small for kube's depth gives up earlier, with the same answer
    if (e instanceof TooDeep || isStackOverflow(e))
      throw ApiError.badRequest(`${format}: exceeded max depth`);
    throw e;
  }
}

class TooDeep extends Error {}

/** String.prototype.isWellFormed / toWellFormed (Node 20; ES2024, past the lib this code is typed with) */
interface WellFormed {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

function textPath(path: (string | number)[]): string {
  let out = '';
  for (const s of path) out += typeof s === 'number' ? `[${s}]` : out === '' ? s : `.${s}`;
  return out || '<root>';
}

function cleanString(s: string, path: (string | number)[]): string {
  if (s.includes('\0')) {
    throw ApiError.badRequest(
      `${textPath(path)}: Invalid value: may not contain the NUL character (\\u0000)`,
    );
  }
  const w = s as unknown as WellFormed;
  return w.isWellFormed() ? s : w.toWellFormed();
}

function walkText(value: unknown, path: (string | number)[], depth: number): unknown {
  if (typeof value === 'string') return cleanString(value, path);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= maxDepth) throw new TooDeep();
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      value[i] = walkText(value[i], path, depth + 1);
      path.pop();
    }
    return value;
  }
  // bytes (Protobuf, CBOR), dates (YAML timestamps): no strings inside
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    path.push(key);
    const clean = cleanString(key, path);
    const v = walkText(obj[key], path, depth + 1);
    path.pop();
    if (clean !== key) delete obj[key];
    // defined, not assigned: a `__proto__` key is data here
    if (clean !== key || v !== obj[key])
      Object.defineProperty(obj, clean, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return obj;
}

/**
 * The YAML reader recurses once per level of nesting and overflows the stack in the low thousands (where V8 may
 * even abort the process), so deeper documents are refused before they are read. The bound is cheap and
 * generous: flow brackets open, plus the indentation (spaces, `- `, `? `) of the line.
 */
export const yamlMaxDepth = 512;

export function checkYamlDepth(text: string): void {
  let flow = 0;
  let indent = 0;
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      lineStart = true;
      indent = 0;
      continue;
    }
    if (lineStart) {
      // space, tab, '-', '?', ':' before the line's content each may open a level
      if (c === 0x20 || c === 0x09 || c === 0x2d || c === 0x3f || c === 0x3a) {
        if (++indent + flow > yamlMaxDepth) throw ApiError.badRequest('yaml: exceeded max depth');
        continue;
      }
      lineStart = false;
    }
    if (c === 0x5b || c === 0x7b) {
      if (++flow + indent > yamlMaxDepth) throw ApiError.badRequest('yaml: exceeded max depth');
    } else if ((c === 0x5d || c === 0x7d) && flow > 0) flow--;
  }
}

/** The reader's error in the form of Go's yaml.v2: `yaml: line 3: <problem>`. */
function yamlErrorMessage(text: string): string {
  const first = text.split('\n')[0];
  const m = /^(.*?) at line (\d+), column \d+:?$/.exec(first);
  return m ? `yaml: line ${m[2]}: ${m[1]}` : `yaml: ${first}`;
}

function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError || /Maximum call stack/.test((e as Error)?.message ?? '');
}

export function decodeBody(body: Buffer | string, format: Format): unknown {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (format === 'json') {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw ApiError.badRequest(`json parse error: ${(e as Error).message}`);
    }
    // only an escape can put a NUL or a lone surrogate into a JSON string: most bodies need no walk
    return text.includes('\\u') ? checkText(value) : value;
  }
  checkYamlDepth(text);
  let value: unknown;
  try {
    // kube reads YAML as YAML 1.1 (sigs.k8s.io/yaml): yes/no/on/off are booleans there
    value = parseYaml(text, {
      version: '1.1',
      uniqueKeys: false,
      maxAliasCount: 100,
      customTags: yamlTags as never,
    });
  } catch (e) {
    if (isStackOverflow(e)) throw ApiError.badRequest('yaml: exceeded max depth');
    throw ApiError.badRequest(yamlErrorMessage((e as Error).message));
  }
  return checkText(value, 'yaml');
}

export function encodeBody(value: unknown, format: Format, pretty: boolean): string {
  // written for YAML 1.1 readers (kube's clients): strings such as "yes" or a timestamp stay quoted strings
  if (format === 'yaml')
    return stringifyYaml(value, {
      version: '1.1',
      sortMapEntries: true,
      lineWidth: 0,
      aliasDuplicateObjects: false,
    });
  return pretty ? JSON.stringify(value, null, 2) + '\n' : JSON.stringify(value);
}
