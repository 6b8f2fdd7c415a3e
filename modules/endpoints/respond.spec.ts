import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../api/index.js';
import { toApiError } from './respond.js';

describe('toApiError: our words only', () => {
  it('keeps an ApiError as it is', () => {
    const e = ApiError.badRequest('x');
    assert.equal(
      toApiError(e, () => assert.fail('logged')),
      e,
    );
  });

  it('answers an unknown error with a 500 that does not echo its text, and logs it', () => {
    const logged: unknown[] = [];
    const pg = Object.assign(new Error('invalid input syntax for type json'), { code: '22P02' });
    const e = toApiError(pg, (x) => logged.push(x));
    assert.equal(e.code, 500);
    assert.equal(e.reason, 'InternalError');
    assert.doesNotMatch(JSON.stringify(e.toStatus()), /invalid input syntax/);
    assert.deepEqual(logged, [pg]);
    assert.doesNotMatch(
      toApiError(new RangeError('Maximum call stack size exceeded'), () => {}).message,
      /stack/,
    );
  });

  it('words Fastify’s errors itself', () => {
    const bad = toApiError(
      Object.assign(new Error("'/%ff' is not a valid url component"), {
        code: 'FST_ERR_BAD_URL',
        statusCode: 400,
      }),
      () => {},
    );
    assert.equal(bad.code, 400);
    assert.equal(bad.message, 'invalid URL escape in the request path');
    const other = toApiError(
      Object.assign(new Error('Fastify words'), { code: 'FST_ERR_SOMETHING', statusCode: 400 }),
      () => {},
    );
    assert.equal(other.code, 400);
    assert.equal(other.reason, 'BadRequest');
    assert.doesNotMatch(other.message, /Fastify/);
  });
});
