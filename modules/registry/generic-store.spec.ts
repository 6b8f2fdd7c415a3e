/**
 * The generic store over a real PostgresStore (a fresh, migrated database): strategy hooks get the request's
 * context, admission runs around the kind's own rules in kube's order, a refusal writes nothing, every write
 * to an existing object goes through the guaranteed-update loop, dry runs persist nothing, deletes honour
 * finalizers, and NamespaceLifecycle keeps creates out of missing and terminating namespaces.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type postgres from 'postgres';
import { testDatabase, type TestDatabase } from '../../test/support/database.js';
import { AdmissionChain, NamespaceLifecycle, type AdmissionPlugin } from '../admission/index.js';
import {
  ApiError,
  fieldError,
  kindSchema,
  parseRequestInfo,
  requestContext,
  type KubeObject,
  type RequestContext,
} from '../api/index.js';
import { namespaceDefinition } from '../kinds/index.js';
import { connect, migrate, PostgresStore } from '../storage/index.js';
import type { AdmissionAttributes } from './admission.js';
import type { ResourceDefinition } from './definition.js';
import { GenericStore } from './generic-store.js';
import { storageKey } from './registry.js';
import { everything, parseSelection } from './selection.js';

const GROUP = 'testing.pgkube.io';
const NS = 'team';

/** What ran, in order, with the context and admission attributes each step was handed. */
interface Step {
  step: string;
  ctx?: RequestContext;
  attributes?: AdmissionAttributes;
  /** a copy of the object as the step saw it */
  object?: KubeObject;
}
let steps: Step[] = [];
const names = () => steps.map((s) => s.step);
const seen = (step: string) => steps.find((s) => s.step === step);

/** A test-only namespaced kind whose every strategy hook records itself and the context it got. */
const gadgets: ResourceDefinition = {
  group: GROUP,
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'gadgets',
  singular: 'gadget',
  kind: 'Gadget',
  listKind: 'GadgetList',
  scope: 'Namespaced',
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  nameRule: 'dns1123Subdomain',
  schema: kindSchema({ description: 'A test-only kind.', properties: {} }),
  description: 'A test-only kind.',
  strategy: {
    defaults(obj, ctx) {
      steps.push({ step: 'defaults', ctx });
      obj.spec ??= { size: 1 };
    },
    prepareForCreate(obj, ctx) {
      steps.push({ step: 'prepareForCreate', ctx });
    },
    prepareForUpdate(obj, old, ctx) {
      steps.push({ step: 'prepareForUpdate', ctx, object: structuredClone(old) });
    },
    validate(obj, ctx) {
      steps.push({ step: 'validate', ctx, object: structuredClone(obj) });
      const size = (obj.spec as { size?: unknown } | undefined)?.size;
      return typeof size === 'number' && size < 0
        ? [fieldError.invalid('spec.size', size, 'must be non-negative')]
        : [];
    },
    validateUpdate(obj, old, ctx) {
      steps.push({ step: 'validateUpdate', ctx });
      return [];
    },
    canonicalize(obj, ctx) {
      steps.push({ step: 'canonicalize', ctx });
    },
    prepareForDelete(obj, ctx) {
      steps.push({ step: 'prepareForDelete', ctx });
    },
  },
};

/** Mutating: labels every object it admits; validating: refuses objects labelled refuse=yes. */
const recorder: AdmissionPlugin = {
  name: 'Recorder',
  admit(a) {
    steps.push({
      step: `admit:${a.operation}`,
      ctx: a.ctx,
      attributes: a,
      object: structuredClone(a.object),
    });
    if (a.object) a.object.metadata.labels = { ...a.object.metadata.labels, admitted: 'yes' };
  },
  validate(a) {
    steps.push({
      step: `validate:${a.operation}`,
      ctx: a.ctx,
      attributes: a,
      object: structuredClone(a.object),
    });
    if (a.object?.metadata.labels?.refuse === 'yes') {
      throw ApiError.forbidden(`gadgets "${a.name}" is forbidden: refused by Recorder`);
    }
  },
};

function ctxFor(method: string, dryRun = false): RequestContext {
  const info = parseRequestInfo(method, `/apis/${GROUP}/v1/namespaces/${NS}/gadgets`, {});
  const ctx = requestContext(info, { name: 'alice', uid: 'a-1', groups: ['system:authenticated'] });
  ctx.dryRun = dryRun;
  return ctx;
}

function gadget(name: string, extra: Partial<KubeObject> = {}): KubeObject {
  return { apiVersion: `${GROUP}/v1`, kind: 'Gadget', metadata: { name }, ...extra };
}

async function rejects(p: Promise<unknown>, code: number, reason: string): Promise<ApiError> {
  let caught: unknown;
  await p.then(
    () => undefined,
    (e) => (caught = e),
  );
  assert.ok(caught instanceof ApiError, `expected an ApiError ${code}, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  assert.equal(caught.reason, reason, caught.message);
  return caught;
}

describe('GenericStore over PostgreSQL', () => {
  let db: TestDatabase;
  let sql: postgres.Sql;
  let store: PostgresStore;
  let generic: GenericStore;
  const key = (name: string, namespace = NS) => ({ resource: storageKey(gadgets), namespace, name });

  before(async () => {
    db = await testDatabase();
    await migrate(db.url);
    sql = connect(db.url, 4);
    store = new PostgresStore(sql);
    generic = new GenericStore(store, new AdmissionChain([new NamespaceLifecycle(store), recorder]));
    const system = ctxFor('POST');
    for (const name of [NS, 'default']) {
      await generic.create(
        system,
        namespaceDefinition,
        '',
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
        {},
      );
    }
  });

  after(async () => {
    await sql?.end();
    await db?.drop();
  });

  beforeEach(() => {
    steps = [];
  });

  describe('create', () => {
    it('hands the request context to every strategy hook and admission stage, in kube order', async () => {
      const ctx = ctxFor('POST');
      const created = await generic.create(ctx, gadgets, NS, gadget('order'), {});
      assert.deepEqual(names(), [
        'defaults',
        'admit:CREATE',
        'prepareForCreate',
        'validate',
        'validate:CREATE',
        'canonicalize',
      ]);
      for (const s of steps) assert.equal(s.ctx, ctx, `${s.step} got the request's context`);
      // the mutating stage's change is what the kind validates, the validating stage sees and storage keeps
      assert.equal(seen('validate')!.object!.metadata.labels?.admitted, 'yes');
      assert.equal(seen('validate:CREATE')!.object!.metadata.labels?.admitted, 'yes');
      assert.equal(seen('admit:CREATE')!.attributes!.namespace, NS);
      assert.equal(seen('admit:CREATE')!.attributes!.oldObject, undefined);
      const stored = await store.get(key('order'));
      assert.ok(stored);
      assert.equal(stored.object.metadata.labels?.admitted, 'yes');
      assert.equal(stored.object.metadata.uid, created.metadata.uid);
      assert.deepEqual(stored.object.spec, { size: 1 }, 'defaulted');
    });

    it('a validating plugin that refuses stops the write: nothing is stored', async () => {
      const e = await rejects(
        generic.create(
          ctxFor('POST'),
          gadgets,
          NS,
          gadget('refused', { metadata: { name: 'refused', labels: { refuse: 'yes' } } }),
          {},
        ),
        403,
        'Forbidden',
      );
      assert.match(e.message, /refused by Recorder/);
      assert.ok(names().includes('validate:CREATE'));
      assert.ok(!names().includes('canonicalize'), 'nothing after the refusing stage');
      assert.equal(await store.get(key('refused')), undefined);
    });

    it("the kind's validation refuses before validating admission runs, and nothing is stored", async () => {
      const e = await rejects(
        generic.create(ctxFor('POST'), gadgets, NS, gadget('negative', { spec: { size: -1 } }), {}),
        422,
        'Invalid',
      );
      assert.match(e.message, /spec.size/);
      assert.deepEqual(names(), ['defaults', 'admit:CREATE', 'prepareForCreate', 'validate']);
      assert.equal(await store.get(key('negative')), undefined);
    });

    it('dryRun runs every step and persists nothing', async () => {
      const ctx = ctxFor('POST', true);
      const answered = await generic.create(ctx, gadgets, NS, gadget('dry'), {});
      assert.ok(answered.metadata.uid, 'the answer is the object as it would be stored');
      assert.equal(answered.metadata.labels?.admitted, 'yes');
      assert.ok(names().includes('validate:CREATE') && names().includes('canonicalize'));
      assert.equal(await store.get(key('dry')), undefined);
      // a dry-run create of a name that exists is still AlreadyExists
      await rejects(generic.create(ctx, gadgets, NS, gadget('order'), {}), 409, 'AlreadyExists');
    });
  });

  describe('update', () => {
    it('admission sees the stored object as oldObject; update hooks get the context', async () => {
      const created = await generic.create(ctxFor('POST'), gadgets, NS, gadget('upd'), {});
      steps = [];
      const ctx = ctxFor('PUT');
      const result = await generic.update(
        ctx,
        gadgets,
        NS,
        'upd',
        (current) => ({ ...structuredClone(current!), spec: { size: 2 } }),
        {},
      );
      assert.equal(result.created, false);
      assert.deepEqual(names(), [
        'defaults',
        'admit:UPDATE',
        'prepareForUpdate',
        'validate',
        'validateUpdate',
        'validate:UPDATE',
        'canonicalize',
      ]);
      for (const s of steps) assert.equal(s.ctx, ctx, `${s.step} got the request's context`);
      const admitted = seen('admit:UPDATE')!.attributes!;
      assert.equal(admitted.oldObject?.metadata.uid, created.metadata.uid);
      assert.deepEqual(admitted.oldObject?.spec, { size: 1 }, 'the stored state');
      assert.deepEqual(seen('admit:UPDATE')!.object!.spec, { size: 2 }, 'the new state');
      assert.deepEqual(seen('validate:UPDATE')!.attributes!.oldObject?.spec, { size: 1 });
      assert.deepEqual((await store.get(key('upd')))!.object.spec, { size: 2 });
    });

    it('a refusing validating plugin leaves the stored object as it was', async () => {
      await generic.create(ctxFor('POST'), gadgets, NS, gadget('keep'), {});
      const before = (await store.get(key('keep')))!;
      await rejects(
        generic.update(
          ctxFor('PUT'),
          gadgets,
          NS,
          'keep',
          (current) => {
            const next = structuredClone(current!);
            next.metadata.labels = { ...next.metadata.labels, refuse: 'yes' };
            return next;
          },
          {},
        ),
        403,
        'Forbidden',
      );
      const after = (await store.get(key('keep')))!;
      assert.equal(after.rv, before.rv);
      assert.equal(after.object.metadata.labels?.refuse, undefined);
    });

    it('another writer committing in between: UpdatedObject is called again with the newer state', async () => {
      await generic.create(ctxFor('POST'), gadgets, NS, gadget('race'), {});
      const calls: (KubeObject | undefined)[] = [];
      const result = await generic.update(
        ctxFor('PUT'),
        gadgets,
        NS,
        'race',
        async (current) => {
          calls.push(structuredClone(current));
          if (calls.length === 1) {
            // another writer commits after this update read the object, before it writes
            const other = (await store.get(key('race')))!;
            const theirs = structuredClone(other.object);
            theirs.metadata.annotations = { other: 'writer' };
            await store.update(key('race'), theirs, other.rv);
          }
          const next = structuredClone(current!);
          next.spec = { size: 3 };
          return next;
        },
        {},
      );
      assert.equal(calls.length, 2, 'remade once from a new read');
      assert.equal(calls[0]!.metadata.annotations, undefined);
      assert.deepEqual(
        calls[1]!.metadata.annotations,
        { other: 'writer' },
        'the second call saw their write',
      );
      assert.deepEqual(result.object.metadata.annotations, { other: 'writer' }, 'their change survives');
      assert.deepEqual(result.object.spec, { size: 3 });
      const stored = (await store.get(key('race')))!;
      assert.deepEqual(stored.object.metadata.annotations, { other: 'writer' });
      assert.deepEqual(stored.object.spec, { size: 3 });
      assert.equal(result.object.metadata.resourceVersion, String(stored.rv));
    });

    it('a race lost on every attempt answers 409 Conflict after the retries', async () => {
      await generic.create(ctxFor('POST'), gadgets, NS, gadget('always-lose'), {});
      let calls = 0;
      const e = await rejects(
        generic.update(
          ctxFor('PUT'),
          gadgets,
          NS,
          'always-lose',
          async (current) => {
            calls++;
            const other = (await store.get(key('always-lose')))!;
            await store.update(key('always-lose'), structuredClone(other.object), other.rv);
            return { ...structuredClone(current!), spec: { size: 9 } };
          },
          {},
        ),
        409,
        'Conflict',
      );
      assert.match(e.message, /the object has been modified/);
      assert.equal(calls, 6, 'the first attempt and 5 retries');
      assert.deepEqual((await store.get(key('always-lose')))!.object.spec, { size: 1 });
    });

    it('an update naming a stale resourceVersion answers 409 without retrying', async () => {
      const created = await generic.create(ctxFor('POST'), gadgets, NS, gadget('stale'), {});
      await generic.update(
        ctxFor('PUT'),
        gadgets,
        NS,
        'stale',
        (c) => ({ ...structuredClone(c!), spec: { size: 5 } }),
        {},
      );
      let calls = 0;
      const e = await rejects(
        generic.update(
          ctxFor('PUT'),
          gadgets,
          NS,
          'stale',
          () => {
            calls++;
            return { ...structuredClone(created), spec: { size: 7 } };
          },
          {},
        ),
        409,
        'Conflict',
      );
      assert.equal(calls, 1, 'a conflict the client asked for is not retried');
      assert.equal(
        e.message,
        `Operation cannot be fulfilled on gadgets.${GROUP} "stale": the object has been modified; please apply your changes to the latest version and try again`,
      );
      assert.deepEqual((await store.get(key('stale')))!.object.spec, { size: 5 });
    });

    it('dryRun persists nothing', async () => {
      await generic.create(ctxFor('POST'), gadgets, NS, gadget('dry-upd'), {});
      const before = (await store.get(key('dry-upd')))!;
      const result = await generic.update(
        ctxFor('PUT', true),
        gadgets,
        NS,
        'dry-upd',
        (c) => ({ ...structuredClone(c!), spec: { size: 42 } }),
        {},
      );
      assert.deepEqual(result.object.spec, { size: 42 }, 'answers the object as it would be');
      assert.ok(names().includes('validate:UPDATE'));
      const after = (await store.get(key('dry-upd')))!;
      assert.equal(after.rv, before.rv);
      assert.deepEqual(after.object.spec, { size: 1 });
    });

    it('an update of a missing object of a kind that does not create on update is 404', async () => {
      let calls = 0;
      await rejects(
        generic.update(
          ctxFor('PUT'),
          gadgets,
          NS,
          'absent',
          () => {
            calls++;
            return gadget('absent');
          },
          {},
        ),
        404,
        'NotFound',
      );
      assert.equal(calls, 0);
      assert.equal(await store.get(key('absent')), undefined);
    });
  });

  describe('delete', () => {
    it('with finalizers pending the object turns Terminating; dropping them removes it', async () => {
      await generic.create(
        ctxFor('POST'),
        gadgets,
        NS,
        gadget('held', { metadata: { name: 'held', finalizers: ['example.com/hold'] } }),
        {},
      );
      steps = [];
      const ctx = ctxFor('DELETE');
      const first = await generic.delete(ctx, gadgets, NS, 'held', {});
      assert.equal(first.removed, false);
      assert.ok(first.object.metadata.deletionTimestamp);
      assert.deepEqual(names(), ['admit:DELETE', 'validate:DELETE', 'prepareForDelete']);
      for (const s of steps) assert.equal(s.ctx, ctx);
      assert.equal(seen('admit:DELETE')!.attributes!.oldObject?.metadata.name, 'held');
      const stored = (await store.get(key('held')))!;
      assert.ok(stored.object.metadata.deletionTimestamp, 'stored as Terminating');

      // deleting again changes nothing
      const again = await generic.delete(ctxFor('DELETE'), gadgets, NS, 'held', {});
      assert.equal(again.removed, false);
      assert.equal((await store.get(key('held')))!.rv, stored.rv);

      const finalized = await generic.update(
        ctxFor('PUT'),
        gadgets,
        NS,
        'held',
        (c) => {
          const next = structuredClone(c!);
          delete next.metadata.finalizers;
          return next;
        },
        {},
      );
      assert.ok(finalized.object.metadata.deletionTimestamp);
      assert.equal(await store.get(key('held')), undefined, 'gone once its last finalizer is');
    });

    it('without finalizers the object is removed; dryRun keeps it; preconditions are checked', async () => {
      const created = await generic.create(ctxFor('POST'), gadgets, NS, gadget('plain'), {});
      const dry = await generic.delete(ctxFor('DELETE', true), gadgets, NS, 'plain', {});
      assert.equal(dry.removed, true);
      assert.ok(await store.get(key('plain')), 'a dry-run delete removes nothing');

      await rejects(
        generic.delete(ctxFor('DELETE'), gadgets, NS, 'plain', { preconditions: { uid: 'not-its-uid' } }),
        409,
        'Conflict',
      );
      assert.ok(await store.get(key('plain')));

      const gone = await generic.delete(ctxFor('DELETE'), gadgets, NS, 'plain', {
        preconditions: { uid: created.metadata.uid },
      });
      assert.equal(gone.removed, true);
      assert.equal(gone.object.metadata.uid, created.metadata.uid);
      assert.equal(await store.get(key('plain')), undefined);
      await rejects(generic.delete(ctxFor('DELETE'), gadgets, NS, 'plain', {}), 404, 'NotFound');
    });

    it('a dry-run delete of an object with finalizers leaves it as it was', async () => {
      await generic.create(
        ctxFor('POST'),
        gadgets,
        NS,
        gadget('held-dry', { metadata: { name: 'held-dry', finalizers: ['example.com/hold'] } }),
        {},
      );
      const before = (await store.get(key('held-dry')))!;
      const dry = await generic.delete(ctxFor('DELETE', true), gadgets, NS, 'held-dry', {});
      assert.equal(dry.removed, false);
      assert.ok(dry.object.metadata.deletionTimestamp, 'answers it as Terminating');
      const after = (await store.get(key('held-dry')))!;
      assert.equal(after.rv, before.rv);
      assert.equal(after.object.metadata.deletionTimestamp, undefined);
    });

    it('deleteCollection deletes what the selection matches, in that namespace only', async () => {
      const ns2 = 'other';
      await generic.create(
        ctxFor('POST'),
        namespaceDefinition,
        '',
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns2 } },
        {},
      );
      const labelled = (name: string, app: string) => gadget(name, { metadata: { name, labels: { app } } });
      for (const [ns, name, app] of [
        [NS, 'dc-1', 'sweep'],
        [NS, 'dc-2', 'sweep'],
        [NS, 'dc-3', 'stay'],
        [ns2, 'dc-4', 'sweep'],
      ]) {
        await generic.create(ctxFor('POST'), gadgets, ns, labelled(name, app), {});
      }
      const deleted = await generic.deleteCollection(
        ctxFor('DELETE'),
        gadgets,
        NS,
        parseSelection(gadgets, 'app=sweep'),
        {},
        'v1',
      );
      assert.equal(deleted.kind, 'GadgetList');
      assert.deepEqual(deleted.items.map((i) => i.metadata.name).sort(), ['dc-1', 'dc-2']);
      assert.equal(await store.get(key('dc-1')), undefined);
      assert.equal(await store.get(key('dc-2')), undefined);
      assert.ok(await store.get(key('dc-3')), 'not selected');
      assert.ok(await store.get(key('dc-4', ns2)), 'another namespace');
      const rest = await generic.list(gadgets, ns2, everything, 'v1');
      assert.deepEqual(
        rest.items.map((i) => i.metadata.name),
        ['dc-4'],
      );
    });
  });

  describe('NamespaceLifecycle', () => {
    before(async () => {
      await generic.create(
        ctxFor('POST'),
        namespaceDefinition,
        '',
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'leaving' } },
        {},
      );
      // a namespace carries the `kubernetes` finalizer: its delete only marks it Terminating
      const r = await generic.delete(ctxFor('DELETE'), namespaceDefinition, '', 'leaving', {});
      assert.equal(r.removed, false);
      assert.equal((r.object.status as { phase?: string }).phase, 'Terminating');
    });

    for (const dryRun of [false, true]) {
      const label = dryRun ? ' (dryRun)' : '';

      it(`a create in a namespace that does not exist is 404 NotFound${label}`, async () => {
        const e = await rejects(
          generic.create(ctxFor('POST', dryRun), gadgets, 'nowhere', gadget('lost'), {}),
          404,
          'NotFound',
        );
        assert.equal(e.message, 'namespaces "nowhere" not found');
        assert.equal(await store.get(key('lost', 'nowhere')), undefined);
      });

      it(`a create in a terminating namespace is 403 NamespaceTerminating${label}`, async () => {
        const e = await rejects(
          generic.create(ctxFor('POST', dryRun), gadgets, 'leaving', gadget('late'), {}),
          403,
          'Forbidden',
        );
        assert.equal(
          e.message,
          `gadgets.${GROUP} "late" is forbidden: unable to create new content in namespace leaving because it is being terminated`,
        );
        assert.deepEqual(
          e.details?.causes?.map((c) => c.reason),
          ['NamespaceTerminating'],
        );
        assert.equal(await store.get(key('late', 'leaving')), undefined);
      });

      it(`a create in an active namespace passes${label}`, async () => {
        const name = dryRun ? 'fine-dry' : 'fine';
        await generic.create(ctxFor('POST', dryRun), gadgets, NS, gadget(name), {});
        assert.equal(!!(await store.get(key(name))), !dryRun);
      });
    }

    it('the namespace default may not be deleted; another namespace may', async () => {
      const e = await rejects(
        generic.delete(ctxFor('DELETE'), namespaceDefinition, '', 'default', {}),
        403,
        'Forbidden',
      );
      assert.equal(e.message, 'namespaces "default" is forbidden: this namespace may not be deleted');
      const ns = (await store.get({ resource: '/namespaces', namespace: '', name: 'default' }))!;
      assert.equal(ns.object.metadata.deletionTimestamp, undefined);
      const r = await generic.delete(ctxFor('DELETE'), namespaceDefinition, '', 'other', {});
      assert.equal(r.removed, false, 'Terminating');
    });
  });
});
