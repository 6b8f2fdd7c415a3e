/** A rotating token file: read at once, read again at most once a minute, the last good token kept. */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileToken, settledFileToken } from './token-file.js';

describe('fileToken', () => {
  it('follows the file as it rotates, no more than once a minute, and survives a missing file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'token-file-'));
    const file = path.join(dir, 'token');
    await writeFile(file, 'first\n');
    const t0 = 1_000_000;
    assert.equal(fileToken(file, t0), 'first');
    await writeFile(file, 'second');
    assert.equal(fileToken(file, t0 + 30_000), 'first');
    // a minute on: read again in the background, the old one serving meanwhile
    assert.equal(fileToken(file, t0 + 60_000), 'first');
    assert.equal(await settledFileToken(file), 'second');
    assert.equal(fileToken(file, t0 + 61_000), 'second');
    await rm(file);
    fileToken(file, t0 + 130_000);
    assert.equal(await settledFileToken(file), 'second');
    assert.throws(() => fileToken(path.join(dir, 'never')), /ENOENT/);
  });
});
