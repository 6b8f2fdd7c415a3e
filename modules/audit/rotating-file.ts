/**
 * The audit log file as kube's lumberjack keeps it: created 0600 in a 0700 directory, appended to; a write that
 * would take it past `maxSize` first renames it to `<name>-<UTC time 2006-01-02T15-04-05.000><ext>` and starts a
 * new one; then backups past `maxBackups` (0: all kept) or older than `maxAge` days (0: any age) are removed.
 * Writes are synchronous (kube's default blocking log mode): a line is in the file when the request goes on.
 */
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';

const MEGABYTE = 1024 * 1024;
/** lumberjack's size when none is given */
const DEFAULT_MAX_SIZE_MB = 100;

export interface RotationOptions {
  /** --audit-log-maxsize, megabytes (0: 100) */
  maxSizeMb: number;
  /** --audit-log-maxbackup (0: keep all) */
  maxBackups: number;
  /** --audit-log-maxage, days (0: no age limit) */
  maxAgeDays: number;
  /** the clock (tests) */
  now?: () => Date;
}

/** lumberjack's backup time format, 2006-01-02T15-04-05.000, in UTC */
function backupTime(d: Date): string {
  return d.toISOString().slice(0, 23).replace(/:/g, '-');
}

function parseBackupTime(s: string): number {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2}\.\d{3})$/.exec(s);
  return m ? Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`) : NaN;
}

export class RotatingFile {
  private fd: number;
  private size: number;
  private readonly max: number;
  private readonly now: () => Date;
  private readonly dir: string;
  private readonly prefix: string;
  private readonly ext: string;

  constructor(
    private readonly file: string,
    private readonly o: RotationOptions,
  ) {
    this.max = (o.maxSizeMb || DEFAULT_MAX_SIZE_MB) * MEGABYTE;
    this.now = o.now ?? (() => new Date());
    this.dir = path.dirname(file);
    this.ext = path.extname(file);
    this.prefix = `${path.basename(file, this.ext)}-`;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.fd = openSync(file, 'a', 0o600);
    this.size = fstatSync(this.fd).size;
  }

  /** Appends `data`; an error (a line larger than the whole file may be, a full disk) is thrown. */
  write(data: string): void {
    const bytes = Buffer.from(data);
    if (bytes.length > this.max)
      throw new Error(`write length ${bytes.length} exceeds maximum file size ${this.max}`);
    if (this.size + bytes.length > this.max) this.rotate();
    writeSync(this.fd, bytes);
    this.size += bytes.length;
  }

  close(): void {
    closeSync(this.fd);
  }

  /** a file that cannot be renamed (a device such as /dev/null) is kept and written on */
  private rotate(): void {
    try {
      renameSync(this.file, path.join(this.dir, `${this.prefix}${backupTime(this.now())}${this.ext}`));
    } catch {
      this.size = 0;
      return;
    }
    closeSync(this.fd);
    this.fd = openSync(this.file, 'a', 0o600);
    this.size = 0;
    this.removeOld();
  }

  /** lumberjack's mill: backups beyond the count, then those older than the age, go */
  private removeOld(): void {
    if (!this.o.maxBackups && !this.o.maxAgeDays) return;
    const backups = readdirSync(this.dir)
      .filter((f) => f.startsWith(this.prefix) && f.endsWith(this.ext))
      .map((f) => ({ f, t: parseBackupTime(f.slice(this.prefix.length, f.length - this.ext.length)) }))
      .filter((b) => !Number.isNaN(b.t))
      .sort((a, b) => b.t - a.t);
    const doomed = new Set<string>();
    if (this.o.maxBackups) for (const b of backups.slice(this.o.maxBackups)) doomed.add(b.f);
    if (this.o.maxAgeDays) {
      const cutoff = this.now().getTime() - this.o.maxAgeDays * 86_400_000;
      for (const b of backups) if (b.t < cutoff) doomed.add(b.f);
    }
    for (const f of doomed) {
      try {
        unlinkSync(path.join(this.dir, f));
      } catch {
        // gone already (another process)
      }
    }
  }
}
