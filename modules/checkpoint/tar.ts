/** A small POSIX ustar archive of regular files (what the simulated runtime's checkpoint holds). */

export interface TarEntry {
  /** at most 100 bytes: the simulated runtime's names are short */
  name: string;
  data: Buffer;
  mode?: number;
  mtime?: Date;
}

const BLOCK = 512;

function field(header: Buffer, offset: number, length: number, value: string): void {
  header.write(value, offset, length, 'utf8');
}

/** An octal number, zero-padded, with a NUL after it: the field's whole width. */
function octal(header: Buffer, offset: number, length: number, value: number): void {
  field(header, offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
}

function headerOf(entry: TarEntry): Buffer {
  if (Buffer.byteLength(entry.name) > 100) throw new Error(`tar entry name too long: ${entry.name}`);
  const h = Buffer.alloc(BLOCK);
  field(h, 0, 100, entry.name);
  octal(h, 100, 8, entry.mode ?? 0o600);
  octal(h, 108, 8, 0);
  octal(h, 116, 8, 0);
  octal(h, 124, 12, entry.data.length);
  octal(h, 136, 12, Math.floor((entry.mtime ?? new Date()).getTime() / 1000));
  h.fill(' ', 148, 156);
  field(h, 156, 1, '0');
  field(h, 257, 6, 'ustar\0');
  field(h, 263, 2, '00');
  field(h, 265, 32, 'root');
  field(h, 297, 32, 'root');
  let sum = 0;
  for (const byte of h) sum += byte;
  field(h, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return h;
}

export function tarArchive(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(headerOf(entry), entry.data);
    const pad = (BLOCK - (entry.data.length % BLOCK)) % BLOCK;
    if (pad > 0) parts.push(Buffer.alloc(pad));
  }
  // the end of the archive: two zero blocks
  parts.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(parts);
}
