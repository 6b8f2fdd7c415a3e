import { open, type FileHandle } from 'node:fs/promises';
import { crc32, inflateRawSync } from 'node:zlib';

/**
 * A minimal read-only zip reader: enough to pull a few files out of a local archive without an `unzip`
 * binary or a dependency. Supports stored and deflated entries and zip64 sizes/offsets; no encryption,
 * no multi-disk archives.
 */

export interface ZipEntry {
  name: string;
  /** 0 = stored, 8 = deflated. */
  method: number;
  compressedSize: number;
  size: number;
  crc32: number;
  localHeaderOffset: number;
  /** Unix permission bits when the archive was written on a Unix host, else undefined. */
  unixMode: number | undefined;
  encrypted: boolean;
}

const SIG_EOCD = 0x06054b50;
const SIG_EOCD64_LOCATOR = 0x07064b50;
const SIG_EOCD64 = 0x06064b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_LOCAL = 0x04034b50;
const EOCD_MIN = 22;
const MAX_COMMENT = 0xffff;
const U16_MAX = 0xffff;
const U32_MAX = 0xffffffff;
const HOST_UNIX = 3;
const EXTRA_ZIP64 = 0x0001;

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fh.read(buf, done, length - done, position + done);
    if (bytesRead === 0) throw new Error(`zip: unexpected end of file at offset ${position + done}`);
    done += bytesRead;
  }
  return buf;
}

function u64(buf: Buffer, at: number): number {
  const value = buf.readBigUInt64LE(at);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('zip: 64-bit value too large');
  return Number(value);
}

interface Directory {
  offset: number;
  size: number;
  count: number;
}

async function findDirectory(fh: FileHandle, fileSize: number): Promise<Directory> {
  const tailLength = Math.min(fileSize, EOCD_MIN + MAX_COMMENT);
  const tailStart = fileSize - tailLength;
  const tail = await readAt(fh, tailStart, tailLength);
  // The end record sits before a variable-length comment, so scan backwards for its signature.
  let eocd = -1;
  for (let i = tail.length - EOCD_MIN; i >= 0; i--) {
    if (tail.readUInt32LE(i) === SIG_EOCD && i + EOCD_MIN + tail.readUInt16LE(i + 20) <= tail.length) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('zip: end of central directory record not found');

  const dir: Directory = {
    count: tail.readUInt16LE(eocd + 10),
    size: tail.readUInt32LE(eocd + 12),
    offset: tail.readUInt32LE(eocd + 16),
  };
  if (dir.count !== U16_MAX && dir.size !== U32_MAX && dir.offset !== U32_MAX) return dir;

  // Saturated fields mean the real values live in the zip64 end record, found through its locator.
  const locatorAt = tailStart + eocd - 20;
  if (locatorAt < 0) throw new Error('zip: zip64 locator missing');
  const locator = await readAt(fh, locatorAt, 20);
  if (locator.readUInt32LE(0) !== SIG_EOCD64_LOCATOR) throw new Error('zip: zip64 locator missing');
  const record = await readAt(fh, u64(locator, 8), 56);
  if (record.readUInt32LE(0) !== SIG_EOCD64) throw new Error('zip: zip64 end record not found');
  return { count: u64(record, 32), size: u64(record, 40), offset: u64(record, 48) };
}

/** Reads the zip64 extended-information extra field, which holds only the header fields saturated to 0xffffffff. */
function applyZip64Extra(entry: ZipEntry, extra: Buffer): void {
  const wantSize = entry.size === U32_MAX;
  const wantCompressed = entry.compressedSize === U32_MAX;
  const wantOffset = entry.localHeaderOffset === U32_MAX;
  if (!wantSize && !wantCompressed && !wantOffset) return;
  for (let at = 0; at + 4 <= extra.length;) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === EXTRA_ZIP64) {
      let p = at + 4;
      const next = (): number => {
        const value = u64(extra, p);
        p += 8;
        return value;
      };
      if (wantSize) entry.size = next();
      if (wantCompressed) entry.compressedSize = next();
      if (wantOffset) entry.localHeaderOffset = next();
      return;
    }
    at += 4 + length;
  }
  throw new Error(`zip: ${entry.name}: zip64 extra field missing`);
}

function parseDirectory(buf: Buffer, count: number): ZipEntry[] {
  const entries: ZipEntry[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== SIG_CENTRAL) {
      throw new Error(`zip: corrupt central directory at entry ${i}`);
    }
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    const nameStart = at + 46;
    const entry: ZipEntry = {
      name: buf.toString('utf8', nameStart, nameStart + nameLength),
      method: buf.readUInt16LE(at + 10),
      crc32: buf.readUInt32LE(at + 16),
      compressedSize: buf.readUInt32LE(at + 20),
      size: buf.readUInt32LE(at + 24),
      localHeaderOffset: buf.readUInt32LE(at + 42),
      unixMode: buf.readUInt8(at + 5) === HOST_UNIX ? (buf.readUInt32LE(at + 38) >>> 16) & 0o7777 : undefined,
      encrypted: (buf.readUInt16LE(at + 8) & 1) === 1,
    };
    const extraStart = nameStart + nameLength;
    applyZip64Extra(entry, buf.subarray(extraStart, extraStart + extraLength));
    entries.push(entry);
    at = extraStart + extraLength + commentLength;
  }
  return entries;
}

/** Lists the archive's entries from its central directory (no file data is read). */
export async function readZipEntries(zipPath: string): Promise<ZipEntry[]> {
  const fh = await open(zipPath, 'r');
  try {
    const { size: fileSize } = await fh.stat();
    const dir = await findDirectory(fh, fileSize);
    if (dir.offset + dir.size > fileSize) throw new Error('zip: central directory lies past end of file');
    return parseDirectory(await readAt(fh, dir.offset, dir.size), dir.count);
  } finally {
    await fh.close();
  }
}

/** Returns one entry's uncompressed bytes, checked against its recorded size and CRC-32. */
export async function readZipEntry(zipPath: string, entry: ZipEntry): Promise<Buffer> {
  if (entry.encrypted) throw new Error(`zip: ${entry.name}: encrypted entries are not supported`);
  const fh = await open(zipPath, 'r');
  let raw: Buffer;
  try {
    const header = await readAt(fh, entry.localHeaderOffset, 30);
    if (header.readUInt32LE(0) !== SIG_LOCAL) throw new Error(`zip: ${entry.name}: bad local header`);
    // The local header's own name/extra lengths may differ from the central directory's copy.
    const dataStart = entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    raw = await readAt(fh, dataStart, entry.compressedSize);
  } finally {
    await fh.close();
  }

  let data: Buffer;
  if (entry.method === 0) data = raw;
  else if (entry.method === 8) data = inflateRawSync(raw);
  else throw new Error(`zip: ${entry.name}: unsupported compression method ${entry.method}`);

  if (data.length !== entry.size) {
    throw new Error(`zip: ${entry.name}: size ${data.length} does not match recorded ${entry.size}`);
  }
  if (crc32(data) !== entry.crc32) throw new Error(`zip: ${entry.name}: CRC-32 mismatch`);
  return data;
}
