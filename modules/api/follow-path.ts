/**
 * Following a file or directory a flag names, as kube follows its configuration files: a watch of the directory
 * (editors and mounted ConfigMaps replace a file, a new inode, and Kubernetes swaps `..data` links) plus a slow
 * poll, since watches miss changes on some filesystems. `changed` may be called for changes that are none:
 * callers compare what they read.
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

export interface PathFollower {
  stop(): void;
}

/** `target`: a file (its directory is watched, for that name) or a directory (every change in it). */
export function followPath(
  target: string,
  isDirectory: boolean,
  changed: () => void,
  pollMs = 60_000,
): PathFollower {
  const timer = setInterval(changed, pollMs);
  timer.unref();
  let watcher: FSWatcher | undefined;
  try {
    const dir = isDirectory ? target : path.dirname(target);
    const name = path.basename(target);
    watcher = watch(dir, { persistent: false }, (_event, file) => {
      if (isDirectory || !file || file === name || file.startsWith('..')) changed();
    });
    watcher.on('error', () => watcher?.close());
  } catch {
    watcher = undefined;
  }
  return {
    stop() {
      clearInterval(timer);
      watcher?.close();
    },
  };
}
