import { randomUUID } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** Writes the bytes to an open temporary file; tests replace it to simulate a full disk. */
export type WriteBytes = (handle: FileHandle, bytes: Buffer) => Promise<void>;

const defaultWrite: WriteBytes = async (handle, bytes) => {
  await handle.writeFile(bytes);
};

const SAFE_NAME = /^[0-9a-f-]{36}$/;

/**
 * Uploaded files under `DATA_DIR/uploads/<userId>/<uuid>`: outside the web root, with random
 * names the client never chooses. A file appears only complete: it is written to a temporary
 * name, flushed, then renamed; any failure removes the temporary file.
 */
export function createUploadStore(dataDir: string, write: WriteBytes = defaultWrite) {
  const root = path.join(dataDir, 'uploads');

  function userDir(userId: string): string {
    if (!SAFE_NAME.test(userId)) throw new Error('invalid user id for an upload path');
    return path.join(root, userId);
  }

  function filePath(userId: string, storageName: string): string {
    if (!SAFE_NAME.test(storageName)) throw new Error('invalid storage name');
    return path.join(userDir(userId), storageName);
  }

  return {
    root,

    /** Stores the bytes and returns the new file's storage name. */
    async save(userId: string, bytes: Buffer): Promise<string> {
      const dir = userDir(userId);
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      const storageName = randomUUID();
      const final = path.join(dir, storageName);
      const temp = path.join(dir, `.${storageName}.tmp`);
      let handle: FileHandle | undefined;
      try {
        handle = await fs.open(temp, 'wx', 0o600);
        await write(handle, bytes);
        await handle.sync();
        await handle.close();
        handle = undefined;
        await fs.rename(temp, final);
        return storageName;
      } catch (error) {
        await handle?.close().catch(() => {});
        await fs.rm(temp, { force: true }).catch(() => {});
        throw error;
      }
    },

    open(userId: string, storageName: string): ReadStream {
      return createReadStream(filePath(userId, storageName));
    },

    async exists(userId: string, storageName: string): Promise<boolean> {
      try {
        await fs.access(filePath(userId, storageName));
        return true;
      } catch {
        return false;
      }
    },

    /** Removes one file; a file already gone is fine. */
    async remove(userId: string, storageName: string): Promise<void> {
      await fs.rm(filePath(userId, storageName), { force: true });
    },

    /** Removes every file of the user (account erasure). */
    async removeAll(userId: string): Promise<void> {
      await fs.rm(userDir(userId), { recursive: true, force: true });
    },
  };
}

export type UploadStore = ReturnType<typeof createUploadStore>;

/** Disk errors that mean "no room", reported as 507 INSUFFICIENT_STORAGE. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}
