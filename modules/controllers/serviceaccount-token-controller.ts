/**
 * kube's `serviceaccount-token` controller (v1.32: it no longer makes a token Secret per account, it fills the
 * ones users ask for): a Secret of type `kubernetes.io/service-account-token` annotated with its account's name
 * gets `token` (a legacy JWT naming the Secret), `ca.crt` and `namespace`, and the account's uid annotation.
 * A token Secret whose account is gone is deleted, with every token Secret of an account that is deleted; a
 * deleted token Secret leaves its account's `secrets` list.
 */
import { isPlainObject, systemContext, type KubeObject } from '../api/index.js';
import type { TokenIssuer } from '../authentication/index.js';
import type { GenericStore, Registry } from '../registry/index.js';
import type { WatchCache } from '../watch/index.js';
import { isConflict, isNotFound } from './api-errors.js';
import type { Controller } from './controller.js';
import { FlapGuard } from './flap-guard.js';
import { Informer, type InformerEvent } from '../watch/index.js';
import { WorkQueue } from '../watch/index.js';

const TOKEN_TYPE = 'kubernetes.io/service-account-token';
const NAME_ANNOTATION = 'kubernetes.io/service-account.name';
const UID_ANNOTATION = 'kubernetes.io/service-account.uid';

/** What a queued key stands for: an account or a token Secret, as it was when it changed. */
type Work =
  | { kind: 'account'; namespace: string; name: string; uid: string }
  | { kind: 'secret'; namespace: string; name: string; uid: string; account: string; accountUid: string };

const annotation = (obj: KubeObject, key: string): string => obj.metadata.annotations?.[key] ?? '';

function dataOf(secret: KubeObject): Record<string, unknown> {
  return isPlainObject(secret.data) ? secret.data : {};
}

const base64 = (text: string): string => Buffer.from(text).toString('base64');

export class ServiceAccountTokenController implements Controller {
  readonly name = 'serviceaccount-token';
  private readonly accounts: Informer;
  private readonly secrets: Informer;
  private readonly queue: WorkQueue;
  private readonly ca: string;
  private readonly flaps: FlapGuard;

  constructor(
    cache: WatchCache,
    private readonly registry: Registry,
    private readonly generic: GenericStore,
    private readonly issuer: TokenIssuer,
    rootCa: string,
    log: (message: string) => void,
  ) {
    this.ca = base64(rootCa);
    this.flaps = new FlapGuard(log);
    this.queue = new WorkQueue((key) => this.sync(JSON.parse(key) as Work), log);
    this.accounts = new Informer(cache, '/serviceaccounts', (e) => this.accountChanged(e));
    this.secrets = new Informer(cache, '/secrets', (e) => this.secretChanged(e));
  }

  /** The informers wait for the watch cache to fill; the server need not wait for them to serve. */
  start(): void {
    void this.accounts.start().then(() => this.secrets.start());
  }

  async stop(): Promise<void> {
    this.accounts.stop();
    this.secrets.stop();
    await this.queue.stop();
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  private accountChanged(e: InformerEvent): void {
    if (e.type !== 'DELETED') return;
    const { namespace, name, uid } = e.object.metadata;
    this.add({ kind: 'account', namespace: namespace!, name: name!, uid: uid ?? '' });
  }

  private secretChanged(e: InformerEvent): void {
    const s = e.object;
    if (s.type !== TOKEN_TYPE || !annotation(s, NAME_ANNOTATION)) return;
    this.add({
      kind: 'secret',
      namespace: s.metadata.namespace!,
      name: s.metadata.name!,
      uid: s.metadata.uid ?? '',
      account: annotation(s, NAME_ANNOTATION),
      accountUid: annotation(s, UID_ANNOTATION),
    });
  }

  private add(work: Work): void {
    this.queue.add(JSON.stringify(work));
  }

  private def(resource: 'secrets' | 'serviceaccounts') {
    const def = this.registry.storedKind('', resource);
    if (!def) throw new Error(`${resource} are not stored`);
    return def;
  }

  /** The account by name, when it is the one `uid` names (any, when no uid is given). */
  private account(namespace: string, name: string, uid: string): KubeObject | undefined {
    const account = this.accounts.get(namespace, name);
    return account && (!uid || account.metadata.uid === uid) ? account : undefined;
  }

  private async sync(work: Work): Promise<void> {
    if (work.kind === 'account') {
      // the account is gone: so are its token Secrets
      for (const secret of this.secrets.list(work.namespace)) {
        const uid = annotation(secret, UID_ANNOTATION);
        if (secret.type !== TOKEN_TYPE || annotation(secret, NAME_ANNOTATION) !== work.name) continue;
        if (uid && uid !== work.uid) continue;
        await this.deleteSecret(work.namespace, secret.metadata.name!, secret.metadata.uid ?? '');
      }
      return;
    }
    const secret = this.secrets.get(work.namespace, work.name);
    if (!secret || secret.metadata.uid !== work.uid) {
      await this.removeReference(work);
      return;
    }
    const account = this.account(work.namespace, work.account, work.accountUid);
    if (!account) {
      await this.deleteSecret(work.namespace, work.name, work.uid);
      return;
    }
    await this.fill(secret, account);
  }

  /** kube's secretUpdateNeeded: the CA differs, or the namespace or token is missing. */
  private needs(secret: KubeObject): { ca: boolean; namespace: boolean; token: boolean } {
    const data = dataOf(secret);
    return { ca: data['ca.crt'] !== this.ca, namespace: !data.namespace, token: !data.token };
  }

  private async fill(secret: KubeObject, account: KubeObject): Promise<void> {
    const need = this.needs(secret);
    if (!need.ca && !need.namespace && !need.token) return;
    const { namespace, name } = secret.metadata;
    const why = 'does another replica publish another CA? Replicas must share their serving CA';
    if (!need.token && !this.flaps.allow(`secret ${namespace}/${name}`, why)) return;
    const ref = { name: account.metadata.name!, uid: account.metadata.uid ?? '' };
    const token = need.token ? await this.issuer.legacy(namespace!, ref, name!) : undefined;
    try {
      await this.generic.update(
        systemContext(),
        this.def('secrets'),
        namespace!,
        name!,
        (stored) => {
          const next = structuredClone(stored!);
          const again = this.needs(next);
          const data = { ...dataOf(next) };
          if (again.ca) data['ca.crt'] = this.ca;
          if (again.namespace) data.namespace = base64(namespace!);
          // a token someone wrote meanwhile is theirs: only a missing one is filled
          if (again.token && token) data.token = base64(token);
          next.data = data;
          next.metadata.annotations = {
            ...next.metadata.annotations,
            [NAME_ANNOTATION]: ref.name,
            [UID_ANNOTATION]: ref.uid,
          };
          return next;
        },
        {},
      );
    } catch (e) {
      // gone, or changed under us: its next event brings it back here
      if (!isNotFound(e) && !isConflict(e)) throw e;
    }
  }

  private async deleteSecret(namespace: string, name: string, uid: string): Promise<void> {
    try {
      await this.generic.delete(systemContext(), this.def('secrets'), namespace, name, {
        preconditions: uid ? { uid } : undefined,
      });
    } catch (e) {
      // already gone, or it is another Secret of that name now
      if (!isNotFound(e) && !isConflict(e)) throw e;
    }
  }

  /** A deleted token Secret leaves the `secrets` list of the account it was for. */
  private async removeReference(work: Extract<Work, { kind: 'secret' }>): Promise<void> {
    const account = this.account(work.namespace, work.account, work.accountUid);
    const listed = Array.isArray(account?.secrets) ? (account.secrets as { name?: string }[]) : [];
    if (!account || !listed.some((s) => s.name === work.name)) return;
    try {
      await this.generic.update(
        systemContext(),
        this.def('serviceaccounts'),
        work.namespace,
        work.account,
        (stored) => {
          const next = structuredClone(stored!);
          if (work.accountUid && next.metadata.uid !== work.accountUid) return next;
          const secrets = Array.isArray(next.secrets) ? (next.secrets as { name?: string }[]) : [];
          next.secrets = secrets.filter((s) => s.name !== work.name);
          return next;
        },
        {},
      );
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
}
