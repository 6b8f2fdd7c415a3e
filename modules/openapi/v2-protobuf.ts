/**
 * The Swagger 2.0 document in gnostic's Protobuf form (message openapi.v2.Document), which client-go's
 * OpenAPISchema() asks /openapi/v2 for: kubectl edit, explain --output=plaintext-openapiv2 and client-side
 * validation read it. Field numbers are those of gnostic's OpenAPIv2 messages. As gnostic does, free-form
 * values (default, enum, example, vendor extensions) travel as YAML text in an Any; zero values are left out
 * (proto3).
 */
import { stringify } from 'yaml';
import { WireType, WireWriter } from '../codec/index.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function str(w: WireWriter, field: number, v: unknown): void {
  if (typeof v === 'string' && v !== '') w.string(field, v);
}

function strings(w: WireWriter, field: number, v: unknown): void {
  if (Array.isArray(v)) for (const s of v) if (typeof s === 'string') w.string(field, s);
}

function bool(w: WireWriter, field: number, v: unknown): void {
  if (v === true) {
    w.tag(field, WireType.Varint);
    w.varint(1);
  }
}

function int(w: WireWriter, field: number, v: unknown): void {
  if (typeof v === 'number' && Number.isInteger(v) && v !== 0) {
    w.tag(field, WireType.Varint);
    w.varint(v);
  }
}

function double(w: WireWriter, field: number, v: unknown): void {
  if (typeof v === 'number' && v !== 0) w.double(field, v);
}

/** Any: a value as YAML text (field 2), as gnostic keeps what it has no message for. */
function any(w: WireWriter, field: number, v: unknown): void {
  w.message(field, (a) => a.string(2, stringify(v, { lineWidth: 0 })));
}

function vendorExtensions(w: WireWriter, field: number, obj: Json): void {
  for (const [name, value] of Object.entries(obj)) {
    if (!name.startsWith('x-')) continue;
    w.message(field, (n) => {
      n.string(1, name);
      any(n, 2, value);
    });
  }
}

function named<T>(
  w: WireWriter,
  field: number,
  entries: [string, T][],
  value: (w: WireWriter, v: T) => void,
) {
  for (const [name, v] of entries) {
    w.message(field, (n) => {
      n.string(1, name);
      n.message(2, (m) => value(m, v));
    });
  }
}

function externalDocs(w: WireWriter, field: number, v: unknown): void {
  if (!isObject(v)) return;
  w.message(field, (d) => {
    str(d, 1, v.description);
    str(d, 2, v.url);
    vendorExtensions(d, 3, v);
  });
}

function schema(w: WireWriter, s: Json): void {
  str(w, 1, s.$ref);
  str(w, 2, s.format);
  str(w, 3, s.title);
  str(w, 4, s.description);
  if (s.default !== undefined) any(w, 5, s.default);
  double(w, 6, s.multipleOf);
  double(w, 7, s.maximum);
  bool(w, 8, s.exclusiveMaximum);
  double(w, 9, s.minimum);
  bool(w, 10, s.exclusiveMinimum);
  int(w, 11, s.maxLength);
  int(w, 12, s.minLength);
  str(w, 13, s.pattern);
  int(w, 14, s.maxItems);
  int(w, 15, s.minItems);
  bool(w, 16, s.uniqueItems);
  int(w, 17, s.maxProperties);
  int(w, 18, s.minProperties);
  strings(w, 19, s.required);
  if (Array.isArray(s.enum)) for (const e of s.enum) any(w, 20, e);
  const additional = s.additionalProperties;
  if (isObject(additional)) w.message(21, (a) => a.message(1, (m) => schema(m, additional)));
  else if (typeof additional === 'boolean') {
    w.message(21, (a) => {
      a.tag(2, WireType.Varint);
      a.varint(additional ? 1 : 0);
    });
  }
  if (s.type !== undefined) w.message(22, (t) => strings(t, 1, Array.isArray(s.type) ? s.type : [s.type]));
  const items = s.items;
  if (items !== undefined) {
    const list = Array.isArray(items) ? items : [items];
    w.message(23, (i) => {
      for (const item of list) if (isObject(item)) i.message(1, (m) => schema(m, item));
    });
  }
  if (Array.isArray(s.allOf)) for (const a of s.allOf) if (isObject(a)) w.message(24, (m) => schema(m, a));
  if (isObject(s.properties)) {
    const props = Object.entries(s.properties).filter((e): e is [string, Json] => isObject(e[1]));
    w.message(25, (p) => named(p, 1, props, schema));
  }
  str(w, 26, s.discriminator);
  bool(w, 27, s.readOnly);
  externalDocs(w, 29, s.externalDocs);
  if (s.example !== undefined) any(w, 30, s.example);
  vendorExtensions(w, 31, s);
}

/** A non-body parameter's fields after `in`, `description` and `name`: numbered from `first` on. */
function primitive(w: WireWriter, p: Json, first: number): void {
  let f = first;
  str(w, f++, p.type);
  str(w, f++, p.format);
  f++; // items: parameters here are never arrays
  str(w, f++, p.collectionFormat);
  if (p.default !== undefined) any(w, f, p.default);
  f++;
  double(w, f++, p.maximum);
  bool(w, f++, p.exclusiveMaximum);
  double(w, f++, p.minimum);
  bool(w, f++, p.exclusiveMinimum);
  int(w, f++, p.maxLength);
  int(w, f++, p.minLength);
  str(w, f++, p.pattern);
  int(w, f++, p.maxItems);
  int(w, f++, p.minItems);
  bool(w, f++, p.uniqueItems);
  if (Array.isArray(p.enum)) for (const e of p.enum) any(w, f, e);
  f++;
  double(w, f++, p.multipleOf);
  vendorExtensions(w, f, p);
}

/** NonBodyParameter's sub-schemas by `in`: the oneof field, and whether it has allowEmptyValue (field 5). */
const subSchemas: Record<string, { field: number; allowEmpty: boolean }> = {
  header: { field: 1, allowEmpty: false },
  formData: { field: 2, allowEmpty: true },
  query: { field: 3, allowEmpty: true },
  path: { field: 4, allowEmpty: false },
};

/** An item of a parameters list: a reference, or a Parameter message. */
function parameter(w: WireWriter, p: Json): void {
  if (typeof p.$ref === 'string') {
    w.message(2, (r) => str(r, 1, p.$ref));
    return;
  }
  w.message(1, (param) => parameterMessage(param, p));
}

/** message Parameter: a body parameter, or one of the others by `in`. */
function parameterMessage(param: WireWriter, p: Json): void {
  if (p.in === 'body') {
    param.message(1, (b) => {
      str(b, 1, p.description);
      str(b, 2, p.name);
      str(b, 3, p.in);
      bool(b, 4, p.required);
      if (isObject(p.schema)) b.message(5, (m) => schema(m, p.schema as Json));
      vendorExtensions(b, 6, p);
    });
    return;
  }
  const sub = subSchemas[String(p.in)] ?? subSchemas.query;
  param.message(2, (nb) =>
    nb.message(sub.field, (s) => {
      bool(s, 1, p.required);
      str(s, 2, p.in);
      str(s, 3, p.description);
      str(s, 4, p.name);
      if (sub.allowEmpty) bool(s, 5, p.allowEmptyValue);
      primitive(s, p, sub.allowEmpty ? 6 : 5);
    }),
  );
}

function parameters(w: WireWriter, field: number, list: unknown): void {
  if (Array.isArray(list)) for (const p of list) if (isObject(p)) w.message(field, (m) => parameter(m, p));
}

function responses(w: WireWriter, r: Json): void {
  for (const [code, value] of Object.entries(r)) {
    if (!isObject(value) || code.startsWith('x-')) continue;
    w.message(1, (n) => {
      n.string(1, code);
      n.message(2, (rv) => {
        if (typeof value.$ref === 'string') {
          rv.message(2, (ref) => str(ref, 1, value.$ref));
          return;
        }
        rv.message(1, (resp) => {
          str(resp, 1, value.description);
          if (isObject(value.schema))
            resp.message(2, (si) => si.message(1, (m) => schema(m, value.schema as Json)));
          vendorExtensions(resp, 5, value);
        });
      });
    });
  }
  vendorExtensions(w, 2, r);
}

function operation(w: WireWriter, op: Json): void {
  strings(w, 1, op.tags);
  str(w, 2, op.summary);
  str(w, 3, op.description);
  externalDocs(w, 4, op.externalDocs);
  str(w, 5, op.operationId);
  strings(w, 6, op.produces);
  strings(w, 7, op.consumes);
  parameters(w, 8, op.parameters);
  if (isObject(op.responses)) w.message(9, (m) => responses(m, op.responses as Json));
  strings(w, 10, op.schemes);
  bool(w, 11, op.deprecated);
  vendorExtensions(w, 13, op);
}

const methods: [string, number][] = [
  ['get', 2],
  ['put', 3],
  ['post', 4],
  ['delete', 5],
  ['options', 6],
  ['head', 7],
  ['patch', 8],
];

function pathItem(w: WireWriter, item: Json): void {
  str(w, 1, item.$ref);
  for (const [method, field] of methods) {
    const op = item[method];
    if (isObject(op)) w.message(field, (m) => operation(m, op));
  }
  parameters(w, 9, item.parameters);
  vendorExtensions(w, 10, item);
}

function info(w: WireWriter, i: Json): void {
  str(w, 1, i.title);
  str(w, 2, i.version);
  str(w, 3, i.description);
  str(w, 4, i.termsOfService);
  vendorExtensions(w, 7, i);
}

function securityDefinition(w: WireWriter, d: Json): void {
  // kube publishes an apiKey (BearerToken) only; the other schemes are written as their own messages
  const fields: Record<string, number> = { basic: 1, apiKey: 2 };
  const field = fields[String(d.type)] ?? 2;
  w.message(field, (m) => {
    str(m, 1, d.type);
    if (field === 2) {
      str(m, 2, d.name);
      str(m, 3, d.in);
      str(m, 4, d.description);
      vendorExtensions(m, 5, d);
    } else {
      str(m, 2, d.description);
      vendorExtensions(m, 3, d);
    }
  });
}

/** A Swagger 2.0 document (JSON) as gnostic's openapi.v2.Document bytes. */
export function openApiV2Protobuf(doc: Json): Uint8Array {
  const w = new WireWriter();
  str(w, 1, doc.swagger);
  if (isObject(doc.info)) w.message(2, (m) => info(m, doc.info as Json));
  str(w, 3, doc.host);
  str(w, 4, doc.basePath);
  strings(w, 5, doc.schemes);
  strings(w, 6, doc.consumes);
  strings(w, 7, doc.produces);
  if (isObject(doc.paths)) {
    const paths = doc.paths;
    w.message(8, (p) => {
      vendorExtensions(p, 1, paths);
      const items = Object.entries(paths).filter(
        (e): e is [string, Json] => !e[0].startsWith('x-') && isObject(e[1]),
      );
      named(p, 2, items, pathItem);
    });
  }
  if (isObject(doc.definitions)) {
    const defs = Object.entries(doc.definitions).filter((e): e is [string, Json] => isObject(e[1]));
    w.message(9, (d) => named(d, 1, defs, schema));
  }
  // shared parameters (kube's own documents have none; an aggregated server's may)
  if (isObject(doc.parameters)) {
    const params = Object.entries(doc.parameters).filter((e): e is [string, Json] => isObject(e[1]));
    w.message(10, (d) => named(d, 1, params, parameterMessage));
  }
  if (Array.isArray(doc.security)) {
    for (const requirement of doc.security) {
      if (!isObject(requirement)) continue;
      w.message(12, (r) => {
        for (const [name, scopes] of Object.entries(requirement)) {
          r.message(1, (n) => {
            n.string(1, name);
            n.message(2, (a) => strings(a, 1, scopes));
          });
        }
      });
    }
  }
  if (isObject(doc.securityDefinitions)) {
    const defs = Object.entries(doc.securityDefinitions).filter((e): e is [string, Json] => isObject(e[1]));
    w.message(13, (s) => named(s, 1, defs, securityDefinition));
  }
  externalDocs(w, 15, doc.externalDocs);
  vendorExtensions(w, 16, doc);
  return w.finish();
}
