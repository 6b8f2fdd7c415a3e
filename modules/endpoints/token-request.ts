/**
 * POST serviceaccounts/<name>/token (TokenRequest), kube's TokenREST: a token for the account, for the
 * audiences asked (default: this server's), for as long as asked within the server's cap, bound to a Secret
 * (or a Pod or Node, once those are served) when asked. Nothing is stored; the answer is the request with
 * its status: the token and when it expires.
 */
import { ApiError, isPlainObject, type KubeObject } from '../api/index.js';
import {
  addressErrors,
  boundResource,
  boundUidConflict,
  cappedExpiration,
  invalidTokenRequest,
  tokenRequestErrors,
  tokenRequestSpec,
  TOKEN_REQUEST_GROUP,
  TOKEN_REQUEST_KIND,
  type BoundObjectReference,
  type BoundTokenClaims,
  type TokenIssuer,
} from '../authentication/index.js';
import type { GenericStore, Registry } from '../registry/index.js';
import { logRequestObject } from './audit-hooks.js';
import { decodeRequestObject, parseFieldValidation } from './decode.js';
import { bodyOf, writeOptions, type ResourceRequest } from './request.js';
import { addWarnings, send } from './respond.js';

type Bound = Pick<BoundTokenClaims, 'pod' | 'secret' | 'node'>;

const timestamp = (seconds: number): string =>
  new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

export class TokenRequests {
  constructor(
    private readonly generic: GenericStore,
    private readonly registry: Registry,
    private readonly issuer: TokenIssuer,
  ) {}

  async create(r: ResourceRequest): Promise<unknown> {
    const { info, def } = r;
    const schema = def.subresourceSchemas?.[info.subresource];
    if (!schema) throw ApiError.pathNotFound();
    // kube checks the options before it reads the body
    writeOptions(r);
    const { object: body, warnings } = decodeRequestObject(
      { group: TOKEN_REQUEST_GROUP, kind: TOKEN_REQUEST_KIND, schema },
      'v1',
      r.req.headers['content-type'],
      bodyOf(r),
      parseFieldValidation(r.query.fieldValidation),
      r.cbor,
    );
    logRequestObject(r, body);
    const { namespace, name } = info;
    // kube runs admission (NodeRestriction) in the handler, before the request is looked at
    await this.generic.admitSubresourceCreate(r.ctx, def, namespace, name, 'token', body);
    const address = addressErrors(body, namespace, name);
    if (address.length > 0) throw invalidTokenRequest(name, address);
    const account = await this.generic.get(def, namespace, name);
    const options = this.issuer.options;
    const spec = tokenRequestSpec(body, options.apiAudiences);
    const errors = tokenRequestErrors(spec);
    if (errors.length > 0) throw invalidTokenRequest('', errors);
    const bound = spec.boundObjectRef ? await this.boundObject(spec.boundObjectRef, namespace, name) : {};
    const { expirationSeconds, warning } = cappedExpiration(
      spec.expirationSeconds,
      options.maxExpirationSeconds,
    );
    const issued = await this.issuer.bound({
      namespace,
      serviceAccount: { name, uid: account.metadata.uid ?? '' },
      audiences: spec.audiences,
      expirationSeconds,
      ...bound,
    });
    addWarnings(r.reply, warning ? [...warnings, warning] : warnings);
    const answer: KubeObject = {
      kind: TOKEN_REQUEST_KIND,
      apiVersion: `${TOKEN_REQUEST_GROUP}/v1`,
      metadata: { ...body.metadata, name, namespace, creationTimestamp: timestamp(issued.issuedAt) },
      spec: { audiences: spec.audiences, expirationSeconds, boundObjectRef: spec.boundObjectRef ?? null },
      status: { token: issued.token, expirationTimestamp: timestamp(issued.issuedAt + expirationSeconds) },
    };
    const out = { ...r.out, protobuf: r.out.protobuf && schema, cbor: r.out.cbor && { schema } };
    return send(r.reply, 201, answer, out);
  }

  /** The object the token is to die with, as kube looks it up (404 when it does not exist). */
  private async boundObject(ref: BoundObjectReference, namespace: string, account: string): Promise<Bound> {
    const resource = boundResource(ref);
    const def = this.registry.storedKind('', resource);
    if (!def) throw ApiError.notFound({ group: '', resource }, ref.name);
    const obj = await this.generic.get(def, resource === 'nodes' ? '' : namespace, ref.name);
    const spec = isPlainObject(obj.spec) ? obj.spec : {};
    if (resource === 'pods' && spec.serviceAccountName !== account) {
      throw ApiError.badRequest(
        `cannot bind token for serviceaccount "${account}" to pod running with different serviceaccount name.`,
      );
    }
    if (ref.uid && obj.metadata.uid !== ref.uid) throw boundUidConflict(ref);
    const own = { name: obj.metadata.name!, uid: obj.metadata.uid ?? '' };
    if (resource === 'secrets') return { secret: own };
    if (resource === 'nodes') return { node: own };
    return { pod: own, node: await this.nodeOf(spec.nodeName) };
  }

  /** The node a pod runs on, named even when its object is gone (kube embeds the name alone then). */
  private async nodeOf(nodeName: unknown): Promise<Bound['node']> {
    if (typeof nodeName !== 'string' || !nodeName) return undefined;
    const def = this.registry.storedKind('', 'nodes');
    const node = def && (await this.generic.get(def, '', nodeName).catch(() => undefined));
    return { name: nodeName, uid: node?.metadata.uid ?? '' };
  }
}
