import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `<dir>/mongod.lock` (holding our pid) or refuses: one server per data directory.
 * A lock left by a process that is gone is taken over. Returns the release function.
 */
export function lockDataDir(dir: string): () => void {
  const path = join(dir, 'mongod.lock');
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => unlinkSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
    const holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
    if (Number.isInteger(holder) && isAlive(holder)) {
      throw new DataDirLockedError(
        `data directory ${dir} is in use by process ${holder}${holder === process.pid ? ' (this process)' : ''}; ` +
          `stop that server or choose another data directory (lock file ${path})`,
      );
    }
    unlinkSync(path);
  }
}
