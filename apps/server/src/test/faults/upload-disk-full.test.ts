import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../db/schema';
import { signIn, SAMPLE_FILES, uploadDocument, type SignedInUser } from '../donor-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { createTestDatabase, type TestDatabase } from '../test-database';

/**
 * Issue #9, "Faults": the upload directory's disk fills up. The uploads directory is a real
 * 64 KiB tmpfs (mounted as root; elsewhere this part is skipped, and the disk-full path is still
 * covered with a failing write in features/documents/documents.test.ts). A file that does not fit
 * gets 507 INSUFFICIENT_STORAGE in the usual envelope, leaves no partial file and no row, and
 * once there is room again uploads work without a restart.
 */
const DISK_BYTES = 64 * 1024;

let testDb: TestDatabase;
let subject: TestApp;
let donor: SignedInUser;
let uploadsDir: string;
let mounted = false;
let skipReason = '';

function tryMount(dir: string): string {
  if (process.platform !== 'linux') return 'tmpfs is Linux only';
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  const result = spawnSync(
    'mount',
    ['-t', 'tmpfs', '-o', `size=${DISK_BYTES},mode=0700`, 'tmpfs', dir],
    {
      encoding: 'utf8',
    },
  );
  return result.status === 0
    ? ''
    : `mount failed: ${result.stderr.trim() || result.error?.message}`;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = await createTestApp({ database: testDb.database, services: { backgroundJobs: false } });
  donor = await signIn(subject.app, testDb.database.db, { status: 'approved' });
  uploadsDir = path.join(subject.config.dataDir, 'uploads');
  await fs.mkdir(uploadsDir, { recursive: true });
  skipReason = tryMount(uploadsDir);
  mounted = skipReason === '';
});

afterAll(async () => {
  if (mounted) spawnSync('umount', ['-l', uploadsDir]);
  await subject?.close();
  await testDb?.close();
});

/** Every file under the uploads directory, temporary ones (`.name.tmp`) included. */
async function filesOnDisk(): Promise<string[]> {
  const entries = await fs.readdir(uploadsDir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

const rows = () =>
  testDb.database.db.select().from(documents).where(eq(documents.userId, donor.row.id));

const pdfOf = (bytes: number) =>
  Buffer.concat([
    SAMPLE_FILES.pdf,
    Buffer.alloc(Math.max(0, bytes - SAMPLE_FILES.pdf.length), 0x20),
  ]);

describe('an upload when the disk is full', () => {
  it('is 507 INSUFFICIENT_STORAGE with nothing left behind, and the next upload that fits works', async (context) => {
    if (!mounted) context.skip(skipReason);
    const tooBig = await uploadDocument(subject.app, donor.headers, 'id_proof', {
      data: pdfOf(DISK_BYTES * 2),
    });
    expect(tooBig.statusCode, tooBig.body).toBe(507);
    expect(tooBig.json()).toEqual({
      success: false,
      error: {
        code: 'INSUFFICIENT_STORAGE',
        message: 'We cannot store files right now. Please try again later.',
      },
    });
    expect(tooBig.body).not.toMatch(/ENOSPC|uploads|tmp/);
    expect(await filesOnDisk()).toEqual([]);
    expect(await rows()).toHaveLength(0);

    // The space is free again (no partial file holds it): a small file is stored.
    const fits = await uploadDocument(subject.app, donor.headers, 'id_proof', {
      data: pdfOf(4 * 1024),
    });
    expect(fits.statusCode, fits.body).toBe(201);
    expect(await filesOnDisk()).toHaveLength(1);
    expect(await rows()).toHaveLength(1);

    // Filling what is left fails the same clean way, and the stored file is untouched.
    const rest = await uploadDocument(subject.app, donor.headers, 'address_proof', {
      data: pdfOf(DISK_BYTES - 2 * 1024),
    });
    expect(rest.statusCode, rest.body).toBe(507);
    expect(await filesOnDisk()).toHaveLength(1);
    expect(await rows()).toHaveLength(1);
    const [stored] = await rows();
    const download = await subject.app.inject({
      url: `/api/v1/documents/${stored!.id}/file`,
      headers: donor.headers,
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.length).toBe(4 * 1024);
  });
});
