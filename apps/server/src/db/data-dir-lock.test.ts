import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from './data-dir-lock';

const dirs: string[] = [];
function lockPath(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bdms-lock-'));
  dirs.push(dir);
  return path.join(dir, 'pgdata.lock');
}

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('acquireDataDirLock', () => {
  it('refuses a second holder until the first releases', () => {
    const file = lockPath();
    const release = acquireDataDirLock(file);
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(String(process.pid));
    expect(() => acquireDataDirLock(file)).toThrow(DataDirLockedError);
    release();
    expect(fs.existsSync(file)).toBe(false);
    acquireDataDirLock(file)();
  });

  it('refuses while another live process holds it', () => {
    const file = lockPath();
    fs.writeFileSync(file, `${process.ppid}\n`);
    expect(() => acquireDataDirLock(file)).toThrow(/Another server \(pid \d+\)/);
  });

  it('takes over a lock left by a process that has exited', () => {
    const file = lockPath();
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
    fs.writeFileSync(file, `${deadPid}\n`);
    const release = acquireDataDirLock(file);
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(String(process.pid));
    release();
  });

  it('takes over a lock naming our own pid that we do not hold (a restarted container)', () => {
    const file = lockPath();
    fs.writeFileSync(file, `${process.pid}\n`);
    acquireDataDirLock(file)();
  });
});
