import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { and, eq, notExists, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { documentChunks, documents } from '../db/schema';

/**
 * Uploaded files live in PostgreSQL (`document_chunks`, issue #19), in order, in chunks of this
 * size: every instance behind a load balancer serves them, and deleting the document row
 * (replacement, account erasure) deletes them in the same transaction (ON DELETE CASCADE).
 * The size limit is the route's (DOCUMENT_MAX_BYTES), as before.
 */
export const DOCUMENT_CHUNK_BYTES = 256 * 1024;

/** Writes one chunk; tests replace it to simulate a database that is out of space. */
export type WriteChunk = (
  tx: Db,
  chunk: { documentId: string; seq: number; bytes: Buffer },
) => Promise<void>;

const defaultWrite: WriteChunk = async (tx, chunk) => {
  await tx.insert(documentChunks).values(chunk);
};

const SAFE_NAME = /^[0-9a-f-]{36}$/;

export function createUploadStore(db: Db, write: WriteChunk = defaultWrite) {
  return {
    /** Stores the bytes of `documentId`; call inside the transaction that inserts its row. */
    async save(tx: Db, documentId: string, bytes: Buffer): Promise<void> {
      for (let seq = 0; seq * DOCUMENT_CHUNK_BYTES < bytes.length; seq += 1) {
        const start = seq * DOCUMENT_CHUNK_BYTES;
        // A copy: a view would keep the whole upload alive for the driver's parameter.
        const chunk = Buffer.from(bytes.subarray(start, start + DOCUMENT_CHUNK_BYTES));
        await write(tx, { documentId, seq, bytes: chunk });
      }
    },

    async exists(documentId: string): Promise<boolean> {
      const [row] = await db
        .select({ seq: documentChunks.seq })
        .from(documentChunks)
        .where(and(eq(documentChunks.documentId, documentId), eq(documentChunks.seq, 0)));
      return row !== undefined;
    },

    /** The bytes as a stream, read one chunk per query (memory stays at one chunk). */
    open(documentId: string): Readable {
      async function* chunks() {
        for (let seq = 0; ; seq += 1) {
          const [row] = await db
            .select({ bytes: documentChunks.bytes })
            .from(documentChunks)
            .where(and(eq(documentChunks.documentId, documentId), eq(documentChunks.seq, seq)));
          if (!row) return;
          yield row.bytes;
        }
      }
      return Readable.from(chunks(), { objectMode: false });
    },
  };
}

export type UploadStore = ReturnType<typeof createUploadStore>;

/** "The database is out of space" (PostgreSQL disk_full), reported as 507 INSUFFICIENT_STORAGE. */
export function isStorageFull(error: unknown): boolean {
  for (let cause = error; cause && typeof cause === 'object';) {
    const code = (cause as { code?: unknown }).code;
    if (code === '53100' || code === 'ENOSPC' || code === 'EDQUOT') return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Before issue #19 the bytes were files under `DATA_DIR/uploads/<user_id>/<storage_name>`.
 * Moves every such file that still has a document row into the table (row by row, each in its
 * own transaction, so a second instance doing the same at the same time finds the work done),
 * then removes the file; files without a row (erased accounts) are removed too. Runs on start;
 * with several instances, each one moves the files on its own disk.
 */
export async function moveUploadsIntoDatabase(
  db: Db,
  dataDir: string,
  logger?: { info(details: object, message: string): void },
): Promise<{ moved: number; removed: number }> {
  const root = path.join(dataDir, 'uploads');
  let userDirs: string[];
  try {
    userDirs = await fs.readdir(root);
  } catch {
    return { moved: 0, removed: 0 };
  }
  const store = createUploadStore(db);
  let moved = 0;
  let removed = 0;
  for (const userId of userDirs) {
    if (!SAFE_NAME.test(userId)) continue;
    const dir = path.join(root, userId);
    for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
      const file = path.join(dir, name);
      if (!SAFE_NAME.test(name)) {
        // A temporary file of an upload that never finished (`.<uuid>.tmp`).
        if (/^\.[0-9a-f-]{36}\.tmp$/.test(name)) await fs.rm(file, { force: true });
        continue;
      }
      const bytes = await fs.readFile(file);
      const done = await db.transaction(async (tx) => {
        const [row] = await tx
          .select({ id: documents.id })
          .from(documents)
          .where(
            and(
              eq(documents.userId, userId),
              eq(documents.storageName, name),
              notExists(
                tx
                  .select({ one: sql`1` })
                  .from(documentChunks)
                  .where(eq(documentChunks.documentId, documents.id)),
              ),
            ),
          )
          .for('update');
        if (!row) return false;
        await store.save(tx, row.id, bytes);
        return true;
      });
      if (done) moved += 1;
      else removed += 1;
      await fs.rm(file, { force: true });
    }
    await fs.rmdir(dir).catch(() => {});
  }
  await fs.rmdir(root).catch(() => {});
  if (moved + removed > 0)
    logger?.info({ moved, removed }, 'moved uploaded files from DATA_DIR/uploads into PostgreSQL');
  return { moved, removed };
}
