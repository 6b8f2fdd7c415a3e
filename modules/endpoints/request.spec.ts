import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../api/index.js';
import { prettyRequested } from './pipeline.js';
import {
  dryRunErrors,
  fieldManagerErrors,
  fieldValidationErrors,
  invalidOptions,
  parseDryRun,
  queryValues,
} from './request.js';

describe('dryRun (kube ValidateDryRun)', () => {
  it('is off without values and on when every value is All', () => {
    assert.equal(parseDryRun([], 'CreateOptions'), false);
    assert.equal(parseDryRun(['All'], 'CreateOptions'), true);
    assert.equal(parseDryRun(['All', 'All'], 'CreateOptions'), true);
  });

  it('refuses any other value, with all values listed as Go prints a []string', () => {
    for (const values of [['All', 'Bogus'], ['Bogus'], [''], ['all']]) {
      assert.throws(
        () => parseDryRun(values, 'PatchOptions'),
        (e: ApiError) => {
          assert.equal(e.code, 422);
          assert.equal(e.reason, 'Invalid');
          assert.equal(e.details?.kind, 'PatchOptions');
          assert.equal(e.details?.group, 'meta.k8s.io');
          return true;
        },
      );
    }
    assert.deepEqual(dryRunErrors(['All', 'Bogus']), [
      { type: 'NotSupported', field: 'dryRun', detail: '[]string{"All", "Bogus"}: supported values: "All"' },
    ]);
  });

  it('is worded as kube words an invalid options object', () => {
    const e = invalidOptions('CreateOptions', dryRunErrors(['x']));
    assert.equal(
      e.message,
      'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"x"}: supported values: "All"',
    );
    assert.deepEqual(e.toStatus().details, {
      group: 'meta.k8s.io',
      kind: 'CreateOptions',
      causes: [
        {
          reason: 'FieldValueNotSupported',
          message: 'Unsupported value: []string{"x"}: supported values: "All"',
          field: 'dryRun',
        },
      ],
    });
  });

  it('reads every value of a repeated parameter', () => {
    assert.deepEqual(queryValues({ dryRun: ['All', 'x'] }, 'dryRun'), ['All', 'x']);
    assert.deepEqual(queryValues({ dryRun: 'All' }, 'dryRun'), ['All']);
    assert.deepEqual(queryValues({}, 'dryRun'), []);
    assert.deepEqual(queryValues(undefined, 'dryRun'), []);
  });
});

describe('fieldManager (kube ValidateFieldManager)', () => {
  it('accepts printable names, spaces and non-ASCII letters', () => {
    assert.deepEqual(fieldManagerErrors(undefined), []);
    assert.deepEqual(fieldManagerErrors('kubectl client-side apply é'), []);
  });

  it('refuses control characters and names over 128 bytes', () => {
    assert.deepEqual(
      fieldManagerErrors('a\u0000b').map((e) => [e.type, e.field, e.detail]),
      [['Invalid', 'fieldManager', 'invalid characters at index 1']],
    );
    assert.deepEqual(
      fieldManagerErrors('a'.repeat(129)).map((e) => e.type),
      ['TooLong'],
    );
  });
});

describe('pretty (kube isPrettyPrint)', () => {
  it('reads pretty with Go ParseBool, anything else being false', () => {
    assert.equal(prettyRequested({ pretty: 'true' }, undefined), true);
    assert.equal(prettyRequested({ pretty: 'T' }, undefined), true);
    assert.equal(prettyRequested({ pretty: 'maybe' }, 'curl/8'), false);
    assert.equal(prettyRequested({ pretty: '0' }, 'curl/8'), false);
  });

  it('defaults to pretty for curl, Wget and browsers', () => {
    assert.equal(prettyRequested({}, 'curl/8.5'), true);
    assert.equal(prettyRequested({ pretty: '' }, 'Wget/1.21'), true);
    assert.equal(prettyRequested({}, 'Mozilla/5.0 (X11)'), true);
    assert.equal(prettyRequested({}, 'kubectl/v1.32'), false);
  });
});

describe('fieldValidation (kube ValidateFieldValidation)', () => {
  it('accepts the empty value, Ignore, Strict and Warn; refuses others as NotSupported', () => {
    for (const v of [undefined, '', 'Ignore', 'Strict', 'Warn'])
      assert.deepEqual(fieldValidationErrors(v), []);
    assert.equal(
      invalidOptions('UpdateOptions', fieldValidationErrors('strict')).message,
      'UpdateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"',
    );
  });
});
