/** The naming controller's decisions and the CRD's conditions. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acceptNames, establishedCondition, namesSettled, setCondition } from './names.js';
import { widgetCRD } from './spec-crds.js';
import type { CRDNames, CustomResourceDefinition } from './types.js';

/** Another CRD of the group that already holds these names. */
function holder(name: string, accepted: CRDNames, group = 'example.com'): CustomResourceDefinition {
  return widgetCRD((c) => {
    c.metadata.name = name;
    c.spec.group = group;
    c.status = { acceptedNames: accepted };
  });
}

describe('acceptNames', () => {
  const cases: {
    name: string;
    others: CustomResourceDefinition[];
    builtin?: { group: string; resource: string; kind: string; shortNames?: string[] }[];
    reason: string;
    message: string;
    accepted: CRDNames;
  }[] = [
    {
      name: 'fresh names are accepted',
      others: [],
      reason: 'NoConflicts',
      message: 'no conflicts found',
      accepted: {
        plural: 'widgets',
        singular: 'widget',
        shortNames: ['wd'],
        kind: 'Widget',
        listKind: 'WidgetList',
        categories: ['all'],
      },
    },
    {
      name: 'a plural another CRD of the group has',
      others: [holder('widgets.other', { plural: 'widgets', kind: 'Other' })],
      reason: 'PluralConflict',
      message: '"widgets" is already in use',
      accepted: {
        singular: 'widget',
        shortNames: ['wd'],
        kind: 'Widget',
        listKind: 'WidgetList',
        categories: ['all'],
      },
    },
    {
      name: 'names in another group do not count',
      others: [holder('widgets.example.org', { plural: 'widgets', kind: 'Widget' }, 'example.org')],
      reason: 'NoConflicts',
      message: 'no conflicts found',
      accepted: {
        plural: 'widgets',
        singular: 'widget',
        shortNames: ['wd'],
        kind: 'Widget',
        listKind: 'WidgetList',
        categories: ['all'],
      },
    },
    {
      name: 'short names and kinds; the last conflict is the reason',
      others: [holder('gadgets.example.com', { plural: 'gadgets', shortNames: ['wd'], kind: 'Widget' })],
      reason: 'KindConflict',
      message: '"Widget" is already in use',
      accepted: { plural: 'widgets', singular: 'widget', listKind: 'WidgetList', categories: ['all'] },
    },
    {
      name: 'a built-in resource of the group',
      others: [],
      builtin: [{ group: 'example.com', resource: 'things', kind: 'Thing', shortNames: ['wd'] }],
      reason: 'ShortNamesConflict',
      message: '"wd" is already in use',
      accepted: {
        plural: 'widgets',
        singular: 'widget',
        kind: 'Widget',
        listKind: 'WidgetList',
        categories: ['all'],
      },
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const d = acceptNames(widgetCRD(), c.others, c.builtin);
      assert.equal(d.namesAccepted.reason, c.reason);
      assert.equal(d.namesAccepted.message, c.message);
      assert.equal(d.namesAccepted.status, c.reason === 'NoConflicts' ? 'True' : 'False');
      assert.deepEqual(d.acceptedNames, c.accepted);
    });

  it('a name it already has stays its own', () => {
    const crd = widgetCRD((c) => {
      c.status!.acceptedNames = {
        plural: 'widgets',
        singular: 'widget',
        kind: 'Widget',
        listKind: 'WidgetList',
      };
    });
    const d = acceptNames(crd, [holder('x.example.com', { plural: 'widgets' })]);
    assert.equal(d.namesAccepted.reason, 'NoConflicts');
  });

  it('Established: NotAccepted, then Installing, then True from the establishing rule', () => {
    const refused = acceptNames(widgetCRD(), [holder('x.example.com', { plural: 'widgets' })]);
    assert.deepEqual(refused.established, {
      type: 'Established',
      status: 'False',
      reason: 'NotAccepted',
      message: 'not all names are accepted',
    });
    const crd = widgetCRD();
    const d = acceptNames(crd, []);
    assert.deepEqual(d.established, {
      type: 'Established',
      status: 'False',
      reason: 'Installing',
      message: 'the initial names have been accepted',
    });
    assert.equal(establishedCondition(crd), undefined);
    crd.status!.acceptedNames = d.acceptedNames;
    setCondition(crd, d.namesAccepted, '2026-01-01T00:00:00Z');
    setCondition(crd, d.established, '2026-01-01T00:00:00Z');
    assert.ok(namesSettled(crd));
    const est = establishedCondition(crd)!;
    assert.deepEqual(est, {
      type: 'Established',
      status: 'True',
      reason: 'InitialNamesAccepted',
      message: 'the initial names have been accepted',
    });
    setCondition(crd, est, '2026-01-01T00:00:05Z');
    assert.equal(establishedCondition(crd), undefined);
    // an established CRD keeps Established when its names are judged again
    assert.equal(acceptNames(crd, []).established.status, 'True');
  });

  it('setCondition moves lastTransitionTime only on a status change', () => {
    const crd = widgetCRD();
    setCondition(crd, { type: 'NamesAccepted', status: 'True', reason: 'A' }, 't1');
    setCondition(crd, { type: 'NamesAccepted', status: 'True', reason: 'B' }, 't2');
    assert.deepEqual(crd.status!.conditions, [
      { type: 'NamesAccepted', status: 'True', reason: 'B', message: undefined, lastTransitionTime: 't1' },
    ]);
    setCondition(crd, { type: 'NamesAccepted', status: 'False', reason: 'C' }, 't3');
    assert.equal(crd.status!.conditions![0].lastTransitionTime, 't3');
  });
});
