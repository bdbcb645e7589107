import fs from 'node:fs';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// Locks this process holds. A lock naming our own pid but not listed here is stale: in a
// container the restarted server often gets the same pid as the one that crashed.
const held = new Set<string>();

export class DataDirLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly pid: number,
  ) {
    super(`Another server (pid ${pid}) is using this embedded database; lock file ${lockFile}`);
    this.name = 'DataDirLockedError';
  }
}

/**
 * Takes `lockFile` for this process, or throws DataDirLockedError while a live process holds
 * it. A lock left by a crashed process is taken over. Returns the release function.
 */
export function acquireDataDirLock(lockFile: string): () => void {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      fs.writeFileSync(lockFile, `${process.pid}\n`, { flag: 'wx' });
      held.add(lockFile);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held.delete(lockFile);
        fs.rmSync(lockFile, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(fs.readFileSync(lockFile, 'utf8'), 10);
      const isOurs = pid === process.pid;
      const isLive = isOurs
        ? held.has(lockFile)
        : Number.isInteger(pid) && pid > 0 && isRunning(pid);
      if (isLive) throw new DataDirLockedError(lockFile, pid);
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${lockFile}`);
}
