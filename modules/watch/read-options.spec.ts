/** Every cell of kube's resourceVersion tables for get, list and watch (spec part 1, "Resource version semantics"). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../api/index.js';
import { getSemantics, listSemantics, watchStart, type ListQuery, type WatchQuery } from './read-options.js';

const status = (fn: () => unknown): number | object => {
  try {
    return fn() as object;
  } catch (e) {
    return (e as ApiError).code;
  }
};

describe('get: resourceVersion', () => {
  for (const [rv, want] of [
    [undefined, { kind: 'mostRecent' }],
    ['0', { kind: 'any' }],
    ['42', { kind: 'notOlderThan', rv: 42 }],
    ['x', 400],
  ] as const) {
    it(`${rv} → ${JSON.stringify(want)}`, () =>
      assert.deepEqual(
        status(() => getSemantics(rv)),
        want,
      ));
  }
});

describe('list: resourceVersionMatch × limit/continue × resourceVersion', () => {
  const cases: [ListQuery, object | number][] = [
    // match unset, limit unset
    [{}, { kind: 'mostRecent' }],
    [{ resourceVersion: '0' }, { kind: 'any' }],
    [{ resourceVersion: '7' }, { kind: 'notOlderThan', rv: 7 }],
    // match unset, limit=n, continue unset
    [{ limit: '5' }, { kind: 'mostRecent' }],
    [{ limit: '5', resourceVersion: '0' }, { kind: 'any' }],
    [
      { limit: '5', resourceVersion: '7' },
      { kind: 'exact', rv: 7 },
    ],
    // match unset, limit=n, continue=token
    [
      { limit: '5', continue: 'tok' },
      { kind: 'continue', token: 'tok' },
    ],
    [
      { limit: '5', continue: 'tok', resourceVersion: '0' },
      { kind: 'continue', token: 'tok' },
    ],
    [{ limit: '5', continue: 'tok', resourceVersion: '7' }, 400],
    // Exact
    [{ resourceVersionMatch: 'Exact' }, 400],
    [{ resourceVersionMatch: 'Exact', resourceVersion: '0' }, 400],
    [
      { resourceVersionMatch: 'Exact', resourceVersion: '7' },
      { kind: 'exact', rv: 7 },
    ],
    [{ resourceVersionMatch: 'Exact', limit: '5' }, 400],
    [{ resourceVersionMatch: 'Exact', limit: '5', resourceVersion: '0' }, 400],
    [
      { resourceVersionMatch: 'Exact', limit: '5', resourceVersion: '7' },
      { kind: 'exact', rv: 7 },
    ],
    // NotOlderThan
    [{ resourceVersionMatch: 'NotOlderThan' }, 400],
    [{ resourceVersionMatch: 'NotOlderThan', resourceVersion: '0' }, { kind: 'any' }],
    [
      { resourceVersionMatch: 'NotOlderThan', resourceVersion: '7' },
      { kind: 'notOlderThan', rv: 7 },
    ],
    [{ resourceVersionMatch: 'NotOlderThan', limit: '5' }, 400],
    [{ resourceVersionMatch: 'NotOlderThan', limit: '5', resourceVersion: '0' }, { kind: 'any' }],
    [
      { resourceVersionMatch: 'NotOlderThan', limit: '5', resourceVersion: '7' },
      { kind: 'notOlderThan', rv: 7 },
    ],
    // malformed
    [{ resourceVersionMatch: 'Sometimes', resourceVersion: '7' }, 400],
    [{ resourceVersion: '-1' }, 400],
  ];
  for (const [q, want] of cases) {
    it(`${JSON.stringify(q)} → ${JSON.stringify(want)}`, () =>
      assert.deepEqual(
        status(() => listSemantics(q)),
        want,
      ));
  }
});

describe('watch: resourceVersion, sendInitialEvents', () => {
  const cases: [WatchQuery, object | number][] = [
    [{}, { kind: 'mostRecent', initialEventsEnd: false }],
    [{ resourceVersion: '0' }, { kind: 'any', rv: 0, initialEventsEnd: false }],
    [{ resourceVersion: '7' }, { kind: 'exact', rv: 7 }],
    [{ resourceVersion: '7', resourceVersionMatch: 'NotOlderThan' }, 400],
    [
      { sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: 'true' },
      { kind: 'mostRecent', initialEventsEnd: true },
    ],
    [
      {
        sendInitialEvents: 'true',
        resourceVersionMatch: 'NotOlderThan',
        allowWatchBookmarks: 'true',
        resourceVersion: '7',
      },
      { kind: 'any', rv: 7, initialEventsEnd: true },
    ],
    [
      {
        sendInitialEvents: 'false',
        resourceVersionMatch: 'NotOlderThan',
        allowWatchBookmarks: 'true',
        resourceVersion: '7',
      },
      { kind: 'exact', rv: 7 },
    ],
    // kube's *bool conversion of a query parameter: present and empty is true, not unset
    [
      { sendInitialEvents: '', resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: 'true' },
      { kind: 'mostRecent', initialEventsEnd: true },
    ],
    [{ sendInitialEvents: '' }, 400],
    [{ sendInitialEvents: '', allowWatchBookmarks: 'true' }, 400],
    [{ sendInitialEvents: 'true', allowWatchBookmarks: 'true' }, 400],
    [{ sendInitialEvents: 'true', resourceVersionMatch: 'Exact', allowWatchBookmarks: 'true' }, 400],
    [{ sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan' }, 400],
  ];
  for (const [q, want] of cases) {
    it(`${JSON.stringify(q)} → ${JSON.stringify(want)}`, () =>
      assert.deepEqual(
        status(() => watchStart(q)),
        want,
      ));
  }
});
