/**
 * The data dir's keys: directories 0700 (0711 when another OS user must pass), key files 0600; the CA is
 * made once and kept; a CA without its key (a data dir of an older pgkube) is replaced, and says so.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdir, mkdtemp, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { dataDirCa, readDataDirCa } from './data-dir-ca.js';
import { makePrivateDir, writePrivateFile } from './private-files.js';

const mode = async (p: string) => (await stat(p)).mode & 0o777;

describe('data dir secrets', () => {
  it('makes private directories 0700, or 0711 to let another user through', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'pgkube-pki-'));
    await makePrivateDir(path.join(root, 'a', 'b'));
    assert.equal(await mode(path.join(root, 'a', 'b')), 0o700);
    await makePrivateDir(path.join(root, 'c'), true);
    assert.equal(await mode(path.join(root, 'c')), 0o711);
  });

  it('writes a private file 0600 even over a wider file, and leaves no temporary file', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'pgkube-pki-'));
    const file = path.join(root, 'secret');
    await writeFile(file, 'old', { mode: 0o644 });
    await writePrivateFile(file, 'new');
    assert.equal(await mode(file), 0o600);
    assert.equal(await readFile(file, 'utf8'), 'new');
    assert.deepEqual((await import('node:fs')).readdirSync(root), ['secret']);
  });

  it('makes the CA once (pki 0700, ca.key 0600) and keeps it', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pgkube-pki-'));
    assert.equal(await readDataDirCa(dataDir), undefined);
    const first = await dataDirCa(dataDir);
    assert.deepEqual([first.created, first.replaced], [true, false]);
    assert.ok(new X509Certificate(first.cert).ca);
    assert.equal(await mode(path.join(dataDir, 'pki')), 0o700);
    assert.equal(await mode(path.join(dataDir, 'pki', 'ca.key')), 0o600);
    const again = await dataDirCa(dataDir);
    assert.deepEqual([again.created, again.cert, again.key], [false, first.cert, first.key]);
  });

  it('replaces a CA whose key an older pgkube did not keep', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pgkube-pki-'));
    await mkdir(path.join(dataDir, 'pki'));
    const old = await dataDirCa(dataDir);
    await unlink(path.join(dataDir, 'pki', 'ca.key'));
    const next = await dataDirCa(dataDir);
    assert.deepEqual([next.created, next.replaced], [true, true]);
    assert.notEqual(next.cert, old.cert);
    assert.equal(await readFile(path.join(dataDir, 'pki', 'ca.crt'), 'utf8'), next.cert);
  });
});
