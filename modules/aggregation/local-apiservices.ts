/**
 * kube-apiserver's autoregister and crdregistration controllers: every group/version the Registry serves has
 * a local APIService (`spec.service` unset) named `<version>.<group>`, labelled as automanaged, and Available
 * with reason Local. One whose group/version is no longer served is removed; APIServices without the label
 * (users' remote ones) are never touched.
 *
 * Every replica runs this on the one database, so each write is made only after comparing with what is
 * stored, and a write that lost a race is dropped or remade from the newer object: the next event brings the
 * key back. Differences from kube's table: a built-in ("onstart") APIService that was deleted is made again at
 * once instead of at the next start; like kube, one whose spec a user changed after this replica's first
 * pass keeps the change, and one whose group/version is gone is removed only in that first pass (so replicas
 * of different versions do not take turns adding and removing it).
 */
import { ignore } from './ignore.js';
import { updateApiService } from './apiservice-writes.js';
import { isDeepStrictEqual } from 'node:util';
import { isPlainObject, nowTimestamp, systemContext, type KubeObject } from '../api/index.js';
import {
  APIREGISTRATION_GROUP,
  apiServiceCondition,
  AVAILABLE_CONDITION,
  localAvailableCondition,
  setApiServiceCondition,
  type APIService,
} from '../kinds/index.js';
import type { GenericStore, Registry, ResourceDefinition } from '../registry/index.js';
import { Informer, WorkQueue, type WatchCache } from '../watch/index.js';
import {
  AUTOMANAGED_LABEL,
  automanagedAs,
  desiredApiServices,
  MANAGED_ON_START,
} from './desired-apiservices.js';

const APISERVICES = `${APIREGISTRATION_GROUP}/apiservices`;
/** read only to tell whether a CRD still declares a group/version the Registry no longer serves */
const CRDS = 'apiextensions.k8s.io/customresourcedefinitions';

export class LocalApiServices {
  private readonly queue: WorkQueue;
  private readonly apiServices: Informer;
  private readonly crds: Informer;
  private desired = new Map<string, APIService>();
  /** names present when this replica started: only those may be removed as built-in leftovers */
  private readonly atStart = new Set<string>();
  /** names this replica has brought in line once */
  private readonly synced = new Set<string>();
  private started = false;
  private unsubscribe?: () => void;

  constructor(
    private readonly registry: Registry,
    private readonly generic: GenericStore,
    cache: WatchCache,
    private readonly log: (message: string) => void,
  ) {
    this.queue = new WorkQueue(
      (name) => this.sync(name),
      (m) => this.log(m),
    );
    this.apiServices = new Informer(cache, APISERVICES, (e) => {
      if (this.started) this.queue.add(e.object.metadata.name!);
    });
    this.crds = new Informer(cache, CRDS, (e) => {
      if (this.started) for (const name of crdApiServiceNames(e.object, e.prev)) this.queue.add(name);
    });
  }

  /** Follows the Registry and the stored APIServices until stop(); resolves once the watch cache synced. */
  async start(): Promise<void> {
    if (!this.kind) {
      this.log('the APIService kind is not registered: local APIServices are not kept');
      return;
    }
    this.unsubscribe = this.registry.subscribe(() => this.refresh());
    await this.crds.start();
    await this.apiServices.start();
    for (const obj of this.apiServices.list()) this.atStart.add(obj.metadata.name!);
    this.started = true;
    this.refresh();
  }

  async stop(): Promise<void> {
    this.started = false;
    this.unsubscribe?.();
    this.apiServices.stop();
    this.crds.stop();
    await this.queue.stop();
  }

  /** Resolves once no write is pending (tests). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  private get kind(): ResourceDefinition | undefined {
    return this.registry.storedKind(APIREGISTRATION_GROUP, 'apiservices');
  }

  /** The served group/versions changed (or the start): every name that is or was desired, or is ours, is due. */
  private refresh(): void {
    if (!this.started) return;
    const before = this.desired;
    this.desired = desiredApiServices(this.registry.definitions);
    const names = new Set([...before.keys(), ...this.desired.keys()]);
    for (const obj of this.apiServices.list()) if (automanagedAs(obj)) names.add(obj.metadata.name!);
    for (const name of names) this.queue.add(name);
  }

  private async sync(name: string): Promise<void> {
    const kind = this.kind;
    if (!kind || !this.started) return;
    const desired = this.desired.get(name);
    const current = this.apiServices.get('', name) as APIService | undefined;
    if (!current) {
      if (desired) await this.create(kind, desired);
      this.synced.add(name);
      return;
    }
    const managed = automanagedAs(current);
    if (!managed) return;
    if (!desired) {
      if (this.removable(current, managed)) await this.remove(kind, current);
    } else if (this.maySetSpec(name, managed, desired)) {
      await this.setSpec(kind, name, desired);
      await this.markAvailable(kind, name);
    } else {
      await this.markAvailable(kind, name);
    }
    this.synced.add(name);
  }

  private removable(current: APIService, managed: string): boolean {
    const name = current.metadata.name!;
    if (managed === MANAGED_ON_START) return this.atStart.has(name) && !this.synced.has(name);
    // a CRD that is not (yet, or any longer) Established still holds its group/version
    return !this.crdDeclares(String(current.spec?.group ?? ''), String(current.spec?.version ?? ''));
  }

  /**
   * kube's "once" rules for built-in ones: after this replica's first pass their spec is the users', and one
   * made after this replica started belongs to the replica that made it.
   */
  private maySetSpec(name: string, managed: string, desired: APIService): boolean {
    const synced = this.synced.has(name);
    if (automanagedAs(desired) === MANAGED_ON_START && synced) return false;
    return managed !== MANAGED_ON_START || (!synced && this.atStart.has(name));
  }

  private crdDeclares(group: string, version: string): boolean {
    return this.crds.list().some((crd) => {
      const spec = isPlainObject(crd.spec) ? crd.spec : {};
      return (
        spec.group === group &&
        Array.isArray(spec.versions) &&
        spec.versions.some((v: unknown) => isPlainObject(v) && v.name === version && v.served === true)
      );
    });
  }

  private async create(kind: ResourceDefinition, desired: APIService): Promise<void> {
    await this.generic
      .create(systemContext(), kind, '', structuredClone(desired), {})
      .catch(ignore('AlreadyExists'));
  }

  private async remove(kind: ResourceDefinition, current: APIService): Promise<void> {
    await this.generic
      .delete(systemContext(), kind, '', current.metadata.name!, {
        preconditions: { uid: current.metadata.uid },
      })
      .catch(ignore('NotFound', 'Conflict'));
  }

  /** The spec and the label as desired, judged again on the stored object (a user may have taken it over). */
  private async setSpec(kind: ResourceDefinition, name: string, desired: APIService): Promise<void> {
    const label = desired.metadata.labels![AUTOMANAGED_LABEL];
    await updateApiService(this.generic, kind, name, (stored) => {
      if (!automanagedAs(stored)) return stored;
      const sameSpec = isDeepStrictEqual(stored.spec, desired.spec);
      if (sameSpec && stored.metadata.labels?.[AUTOMANAGED_LABEL] === label) return stored;
      const next = structuredClone(stored);
      next.spec = structuredClone(desired.spec);
      next.metadata.labels = { ...next.metadata.labels, [AUTOMANAGED_LABEL]: label };
      return next;
    });
  }

  /** Local APIServices are always available (kube's availability controller says so of every local one). */
  private async markAvailable(kind: ResourceDefinition, name: string): Promise<void> {
    const current = this.apiServices.get('', name) as APIService | undefined;
    if (current && isLocallyAvailable(current)) return;
    await updateApiService(
      this.generic,
      kind,
      name,
      (stored) => {
        if (!automanagedAs(stored) || isPlainObject(stored.spec?.service)) return stored;
        if (isLocallyAvailable(stored)) return stored;
        const next = structuredClone(stored);
        setApiServiceCondition(next, localAvailableCondition(nowTimestamp()));
        return next;
      },
      'status',
    );
  }
}

function isLocallyAvailable(obj: APIService): boolean {
  const condition = apiServiceCondition(obj, AVAILABLE_CONDITION);
  const want = localAvailableCondition('');
  return (
    condition?.status === want.status &&
    condition.reason === want.reason &&
    condition.message === want.message
  );
}

/** The APIService names of the group/versions a CRD declares, before and after a change. */
function crdApiServiceNames(...crds: (KubeObject | undefined)[]): string[] {
  const names: string[] = [];
  for (const crd of crds) {
    const spec = crd && isPlainObject(crd.spec) ? crd.spec : {};
    if (typeof spec.group !== 'string' || !Array.isArray(spec.versions)) continue;
    for (const v of spec.versions as unknown[]) {
      if (isPlainObject(v) && typeof v.name === 'string') names.push(`${v.name}.${spec.group}`);
    }
  }
  return names;
}

/** Lets the named failures pass: another writer got there first, and its change brings the key back. */
