import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { documentSchema } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activityLog, documentChunks, documents, notifications, users } from '../../db/schema';
import { SAMPLE_FILES, multipart, signIn, uploadDocument } from '../../test/donor-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { moveUploadsIntoDatabase } from '../../lib/uploads';
import {
  ACTIVE_PDF_NAMES,
  PAGE_SIZE,
  goToRPdf,
  uriAndNamedPdf,
  xrefIntoStreamPdf,
} from '../../test/document-files';
import { PDF_MESSAGES, RENDER_MESSAGES } from './documents.service';

let testDb: TestDatabase;
let subject: TestApp;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

beforeEach(async () => {
  subject = await createTestApp({ database: testDb.database, services: { backgroundJobs: false } });
});

afterEach(async () => {
  await subject.close();
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;
/** Every stored chunk as `documentId:seq` (the bytes live in PostgreSQL since issue #19). */
async function storedChunks(): Promise<string[]> {
  const rows = await db()
    .select({ documentId: documentChunks.documentId, seq: documentChunks.seq })
    .from(documentChunks)
    .orderBy(documentChunks.documentId, documentChunks.seq);
  return rows.map((row) => `${row.documentId}:${row.seq}`);
}

/** The stored bytes of one document, chunks joined in order. */
async function storedBytes(documentId: string): Promise<Buffer> {
  const rows = await db()
    .select({ bytes: documentChunks.bytes })
    .from(documentChunks)
    .where(eq(documentChunks.documentId, documentId))
    .orderBy(documentChunks.seq);
  return Buffer.concat(rows.map((row) => row.bytes));
}

/** Each page's size in points, as a reader sees the stored PDF. */
async function pdfPages(bytes: Buffer): Promise<{ width: number; height: number }[]> {
  const pdf = await PDFDocument.load(bytes);
  return pdf.getPages().map((page) => {
    const { width, height } = page.getSize();
    return { width: Math.round(width), height: Math.round(height) };
  });
}

function download(id: string, headers: Record<string, string>) {
  return subject.app.inject({ url: `/api/v1/documents/${id}/file`, headers });
}

function verify(id: string, payload: object, headers: Record<string, string>) {
  return subject.app.inject({
    method: 'PUT',
    url: `/api/v1/documents/${id}/verify`,
    payload,
    headers,
  });
}

describe('POST /api/v1/documents', () => {
  it('stores a PDF outside the web root under a random name and answers 201 with the document', async () => {
    const donor = await signIn(subject.app, db());
    const res = await uploadDocument(subject.app, donor.headers, 'id_proof', {
      filename: '../../etc/My Aadhaar.pdf',
    });
    expect(res.statusCode, res.body).toBe(201);
    const document = documentSchema.strict().parse(res.json().data.document);
    const stored = await storedBytes(document.id);
    expect(document).toMatchObject({
      type: 'id_proof',
      fileName: 'My Aadhaar.pdf',
      mimeType: 'application/pdf',
      size: stored.length,
      verified: false,
      rejectionReason: null,
      status: 'pending',
    });
    const [row] = await db().select().from(documents).where(eq(documents.id, document.id));
    expect(row!.storageName).toMatch(/^[0-9a-f-]{36}$/);
    // The PDF drawn again (decision 012): a new file with the same single page.
    expect(stored.equals(SAMPLE_FILES.pdf)).toBe(false);
    expect(await pdfPages(stored)).toEqual([PAGE_SIZE]);
    expect(await storedChunks()).toEqual([`${document.id}:0`]);
    const actions = (await db().select().from(activityLog)).map((entry) => entry.action);
    expect(actions).toContain('document.uploaded');
  });

  it('types the file by its content, whatever its name and declared type say', async () => {
    const donor = await signIn(subject.app, db());
    const cases = [
      {
        type: 'photo',
        data: SAMPLE_FILES.jpeg,
        filename: 'me.pdf',
        mime: 'image/jpeg',
        name: 'me.pdf.jpg',
      },
      {
        type: 'address_proof',
        data: SAMPLE_FILES.png,
        filename: 'bill',
        mime: 'image/png',
        name: 'bill.png',
      },
      {
        type: 'medical_certificate',
        data: SAMPLE_FILES.webp,
        filename: 'नोट.webp',
        mime: 'image/webp',
        name: 'नोट.webp',
      },
    ];
    for (const item of cases) {
      const res = await uploadDocument(subject.app, donor.headers, item.type, {
        filename: item.filename,
        contentType: 'application/octet-stream',
        data: item.data,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.document).toMatchObject({ mimeType: item.mime, fileName: item.name });
    }
  });

  it('refuses an HTML file posing as a PNG with 415, keeping nothing', async () => {
    const donor = await signIn(subject.app, db());
    const res = await uploadDocument(subject.app, donor.headers, 'photo', {
      filename: 'x.png',
      contentType: 'image/png',
      data: SAMPLE_FILES.html,
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toEqual({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Upload a PDF, JPEG, PNG or WebP file.',
    });
    expect(await db().select().from(documents)).toHaveLength(0);
    expect(await storedChunks()).toEqual([]);
  });

  it('refuses PDFs with JavaScript hidden in a compressed object stream or behind escaped names, keeping nothing', async () => {
    const donor = await signIn(subject.app, db());
    const hiddenAction = deflateSync(Buffer.from('3 0 << /S /J#61vaScript /JS (app.alert(1)) >>'));
    const objectStream = Buffer.concat([
      Buffer.from(
        '%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R /OpenAction 3 0 R >>\nendobj\n' +
          '2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n' +
          `4 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${hiddenAction.length} >>\nstream\n`,
      ),
      hiddenAction,
      Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n'),
    ]);
    const escaped = Buffer.from(
      '%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R /OpenAction 3 0 R >>\nendobj\n' +
        '2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n' +
        '3 0 obj\n<< /S /L#61unch /F (cmd.exe) >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
    );
    for (const data of [objectStream, escaped]) {
      const res = await uploadDocument(subject.app, donor.headers, 'id_proof', {
        filename: 'report.pdf',
        contentType: 'application/pdf',
        data,
      });
      expect(res.statusCode, res.body).toBe(415);
      expect(res.json().error).toEqual({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: PDF_MESSAGES.active,
        details: { reason: 'active' },
      });
    }
    const unreadable = await uploadDocument(subject.app, donor.headers, 'id_proof', {
      filename: 'report.pdf',
      contentType: 'application/pdf',
      data: Buffer.from('%PDF-1.7\nnot really a pdf'),
    });
    expect(unreadable.statusCode).toBe(415);
    expect(unreadable.json().error.message).toBe(PDF_MESSAGES.unparsable);
    expect(await db().select().from(documents)).toHaveLength(0);
    expect(await storedChunks()).toEqual([]);
  });

  it('refuses a file over 5 MB with 413, keeping nothing', async () => {
    const donor = await signIn(subject.app, db());
    const big = Buffer.concat([SAMPLE_FILES.pdf, Buffer.alloc(6 * 1024 * 1024, 0x20)]);
    const res = await uploadDocument(subject.app, donor.headers, 'id_proof', { data: big });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(res.json().error.message).toContain('5 MB');
    expect(await db().select().from(documents)).toHaveLength(0);
    expect(await storedChunks()).toEqual([]);
  });

  it('refuses an empty file, a missing file, a bad type and a JSON body', async () => {
    const donor = await signIn(subject.app, db());
    const empty = await uploadDocument(subject.app, donor.headers, 'id_proof', {
      data: Buffer.alloc(0),
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.details).toEqual([
      { path: 'body.file', message: expect.any(String) },
    ]);

    const noFile = multipart({ type: 'id_proof' });
    const missing = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/documents',
      payload: noFile.payload,
      headers: { ...donor.headers, ...noFile.headers },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details[0].path).toBe('body.file');

    const badType = await uploadDocument(subject.app, donor.headers, 'aadhaar');
    expect(badType.statusCode).toBe(400);
    expect(badType.json().error.details[0].path).toBe('body.type');

    const twoFiles = multipart({ type: 'photo' }, [
      { filename: 'a.png', contentType: 'image/png', data: SAMPLE_FILES.png },
      { filename: 'b.png', contentType: 'image/png', data: SAMPLE_FILES.png },
    ]);
    const two = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/documents',
      payload: twoFiles.payload,
      headers: { ...donor.headers, ...twoFiles.headers },
    });
    expect(two.statusCode).toBe(400);

    const json = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/documents',
      payload: { type: 'id_proof', file: 'JVBERi0=' },
      headers: donor.headers,
    });
    expect(json.statusCode).toBe(415);
    expect(await db().select().from(documents)).toHaveLength(0);
  });

  it('answers a malformed or cut-short multipart body with 400, not 500', async () => {
    const donor = await signIn(subject.app, db());
    const bodies: [string, string][] = [
      ['multipart/form-data', 'garbage'],
      ['multipart/form-data; boundary=abc', 'garbage'],
      [
        'multipart/form-data; boundary=abc',
        '--abc\r\nContent-Disposition: form-data; name="type"\r\n\r\nid_proof\r\n--abc\r\n' +
          'Content-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 cut',
      ],
    ];
    for (const [contentType, payload] of bodies) {
      const res = await subject.app.inject({
        method: 'POST',
        url: '/api/v1/documents',
        payload,
        headers: { ...donor.headers, 'content-type': contentType },
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
    }
    expect(await db().select().from(documents)).toHaveLength(0);
    expect(await storedChunks()).toEqual([]);
  });

  it('is for donors only, signed in and not suspended', async () => {
    for (const role of ['admin', 'hospital'] as const) {
      const other = await signIn(subject.app, db(), { role });
      expect((await uploadDocument(subject.app, other.headers, 'id_proof')).statusCode).toBe(403);
    }
    expect((await uploadDocument(subject.app, {}, 'id_proof')).statusCode).toBe(401);
    const suspended = await signIn(subject.app, db(), { status: 'suspended' });
    expect((await uploadDocument(subject.app, suspended.headers, 'id_proof')).statusCode).toBe(403);
  });

  it('leaves neither a partial file nor a row when the database is out of space (507)', async () => {
    await subject.close();
    subject = await createTestApp({
      database: testDb.database,
      services: {
        backgroundJobs: false,
        // The first chunk is written, then PostgreSQL runs out of disk (SQLSTATE 53100).
        uploadWrite: async (tx, chunk) => {
          await tx.insert(documentChunks).values(chunk);
          throw Object.assign(new Error('could not extend file: No space left on device'), {
            code: '53100',
          });
        },
      },
    });
    const donor = await signIn(subject.app, db());
    const res = await uploadDocument(subject.app, donor.headers, 'id_proof');
    expect(res.statusCode).toBe(507);
    expect(res.json().error.code).toBe('INSUFFICIENT_STORAGE');
    expect(res.body).not.toContain('No space left');
    expect(await db().select().from(documents)).toHaveLength(0);
    expect(await storedChunks()).toEqual([]);
  });
});

describe('GET /api/v1/documents/{id}/file and /documents/list', () => {
  it('serves the owner the bytes as an attachment that browsers will not sniff or cache', async () => {
    const donor = await signIn(subject.app, db());
    const up = await uploadDocument(subject.app, donor.headers, 'photo', {
      filename: 'फ़ोटो me.png',
      contentType: 'image/png',
      data: SAMPLE_FILES.png,
    });
    const { id } = up.json().data.document;
    const res = await download(id, donor.headers);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload).toEqual(await storedBytes(id));
    expect(res.rawPayload.subarray(0, 8)).toEqual(SAMPLE_FILES.png.subarray(0, 8));
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const disposition = String(res.headers['content-disposition']);
    expect(disposition).toMatch(/^attachment; filename="_+ me.png"; filename\*=UTF-8''/);
    expect(decodeURIComponent(disposition.split("UTF-8''")[1]!)).toBe('फ़ोटो me.png');
  });

  it('stores a large file in 256 KiB chunks and streams it back whole, in order', async () => {
    const donor = await signIn(subject.app, db());
    // A PNG of noise (which does not compress): still over 512 KiB when encoded again.
    const big = await sharp(randomBytes(480 * 480 * 3), {
      raw: { width: 480, height: 480, channels: 3 },
    })
      .png()
      .toBuffer();
    expect(big.length).toBeGreaterThan(600 * 1024);
    const up = await uploadDocument(subject.app, donor.headers, 'photo', {
      filename: 'big.png',
      contentType: 'image/png',
      data: big,
    });
    expect(up.statusCode, up.body).toBe(201);
    const { id } = up.json().data.document;
    expect(await storedChunks()).toEqual([`${id}:0`, `${id}:1`, `${id}:2`]);
    const res = await download(id, donor.headers);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(await storedBytes(id))).toBe(true);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({
      format: 'png',
      width: 480,
      height: 480,
    });
  });

  it("refuses another donor's document with 403, lets an administrator download it, and 404s unknown ids", async () => {
    const donor = await signIn(subject.app, db());
    const other = await signIn(subject.app, db());
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const { id } = (await uploadDocument(subject.app, donor.headers, 'id_proof')).json().data
      .document;
    const refused = await download(id, other.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('%PDF');
    const asAdmin = await download(id, admin.headers);
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.rawPayload).toEqual(await storedBytes(id));
    expect((await download(randomUUID(), admin.headers)).statusCode).toBe(404);
    expect((await download('nope', admin.headers)).statusCode).toBe(400);
    expect((await download(id, {})).statusCode).toBe(401);
  });

  it('lists documents for the user themself and administrators only', async () => {
    const donor = await signIn(subject.app, db());
    const other = await signIn(subject.app, db());
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    await uploadDocument(subject.app, donor.headers, 'id_proof');
    const list = (headers: Record<string, string>, userId?: string) =>
      subject.app.inject({
        url: `/api/v1/documents/list${userId ? `?userId=${userId}` : ''}`,
        headers,
      });
    const own = await list(donor.headers);
    expect(own.statusCode).toBe(200);
    expect(own.json().data.documents).toHaveLength(1);
    expect((await list(donor.headers, donor.row.id)).json().data.documents).toHaveLength(1);
    expect((await list(other.headers, donor.row.id)).statusCode).toBe(403);
    expect((await list(admin.headers, donor.row.id)).json().data.documents).toHaveLength(1);
    expect((await list(admin.headers, randomUUID())).statusCode).toBe(404);
    expect((await list(admin.headers, 'x')).statusCode).toBe(400);
    // The user object reports them too.
    const me = await subject.app.inject({ url: '/api/v1/auth/me', headers: donor.headers });
    expect(me.json().data.user.documents).toEqual([
      { id: expect.any(String), type: 'id_proof', verified: false, rejectionReason: null },
    ]);
  });
});

describe('PUT /api/v1/documents/{id}/verify and replacing a document', () => {
  it('needs a reason to reject, and only administrators may judge', async () => {
    const donor = await signIn(subject.app, db());
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const { id } = (await uploadDocument(subject.app, donor.headers, 'id_proof')).json().data
      .document;
    const noReason = await verify(id, { verified: false }, admin.headers);
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.details[0].path).toBe('body.rejectionReason');
    expect((await verify(id, { verified: true }, donor.headers)).statusCode).toBe(403);
    expect((await verify(randomUUID(), { verified: true }, admin.headers)).statusCode).toBe(404);
    const ok = await verify(id, { verified: true, rejectionReason: null }, admin.headers);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.document).toMatchObject({ verified: true, status: 'verified' });
    // A verified document is not replaced by an upload.
    const again = await uploadDocument(subject.app, donor.headers, 'id_proof');
    expect(again.statusCode).toBe(409);
  });

  it('replaces a rejected document (old file deleted), tells the donor, and returns a rejected donor to pending', async () => {
    const donor = await signIn(subject.app, db());
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const first = (await uploadDocument(subject.app, donor.headers, 'id_proof')).json().data
      .document;
    const [firstRow] = await db().select().from(documents).where(eq(documents.id, first.id));

    const rejected = await verify(
      first.id,
      { verified: false, rejectionReason: 'The photo is blurred.' },
      admin.headers,
    );
    expect(rejected.json().data.document).toMatchObject({
      status: 'rejected',
      rejectionReason: 'The photo is blurred.',
    });
    const told = await db()
      .select()
      .from(notifications)
      .where(eq(notifications.userId, donor.row.id));
    expect(told.map((row) => [row.type, row.message])).toContainEqual([
      'document.rejected',
      'Your ID proof was not accepted: The photo is blurred. Please upload it again.',
    ]);

    // The administrator also rejected the registration (the admin feature will do this).
    await db()
      .update(users)
      .set({ status: 'rejected', rejectionReason: 'ID proof unreadable' })
      .where(eq(users.id, donor.row.id));
    const me = await subject.app.inject({ url: '/api/v1/auth/me', headers: donor.headers });
    expect(me.json().data.user).toMatchObject({
      status: 'rejected',
      rejectionReason: 'ID proof unreadable',
    });

    const second = await uploadDocument(subject.app, donor.headers, 'id_proof', {
      filename: 'clear.png',
      contentType: 'image/png',
      data: SAMPLE_FILES.png,
    });
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().data.document).toMatchObject({ status: 'pending', mimeType: 'image/png' });
    const rows = await db().select().from(documents).where(eq(documents.userId, donor.row.id));
    expect(rows).toHaveLength(1);
    // The replaced document's bytes went with its row.
    expect(await storedChunks()).toEqual([`${rows[0]!.id}:0`]);
    expect((await sharp(await storedBytes(rows[0]!.id)).metadata()).format).toBe('png');
    expect(rows[0]!.id).not.toBe(firstRow!.id);

    const [user] = await db().select().from(users).where(eq(users.id, donor.row.id));
    expect(user).toMatchObject({ status: 'pending', rejectionReason: null });
    const actions = (await db().select().from(activityLog)).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['document.rejected', 'donor.resubmitted']));
    const types = (
      await db().select().from(notifications).where(eq(notifications.userId, donor.row.id))
    ).map((row) => row.type);
    expect(types).toContain('donor.resubmitted');
  });
});

describe('files kept on disk before issue #19', () => {
  it('move into PostgreSQL on start: served from there, removed from disk, orphans deleted', async () => {
    const donor = await signIn(subject.app, db());
    const up = await uploadDocument(subject.app, donor.headers, 'id_proof');
    const { id } = up.json().data.document;
    const [row] = await db().select().from(documents).where(eq(documents.id, id));
    // As an older version left it: the bytes in DATA_DIR/uploads/<user>/<storage name>, none in the table.
    await db().delete(documentChunks);
    const dir = path.join(subject.config.dataDir, 'uploads', donor.row.id);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, row!.storageName), SAMPLE_FILES.pdf);
    const orphan = path.join(dir, randomUUID());
    await fs.writeFile(orphan, 'bytes of an erased account');
    expect((await download(id, donor.headers)).statusCode).toBe(404);

    const result = await moveUploadsIntoDatabase(db(), subject.config.dataDir);
    expect(result).toEqual({ moved: 1, removed: 1 });
    expect(await storedBytes(id)).toEqual(SAMPLE_FILES.pdf);
    const res = await download(id, donor.headers);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload).toEqual(SAMPLE_FILES.pdf);
    await expect(fs.access(path.join(subject.config.dataDir, 'uploads'))).rejects.toThrow();
    // A second run (another start) finds nothing to do.
    expect(await moveUploadsIntoDatabase(db(), subject.config.dataDir)).toEqual({
      moved: 0,
      removed: 0,
    });
  });
});

describe('uploads are drawn again into a fresh file (#32 item 16, decision 012)', () => {
  /** What a reader following the cross-reference (pdf.js) finds in the stored file. */
  async function readerView(bytes: Buffer) {
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
    try {
      const page = await pdf.getPage(1);
      return {
        pages: pdf.numPages,
        scripts: await pdf.getJSActions(),
        openAction: await pdf.getOpenAction(),
        attachments: await pdf.getAttachments(),
        links: (await page.getAnnotations()).length,
      };
    } finally {
      await pdf.destroy();
    }
  }

  async function expectCleanPdf(id: string, headers: Record<string, string>) {
    const stored = await storedBytes(id);
    const text = stored.toString('latin1');
    for (const name of ACTIVE_PDF_NAMES) expect(text, name).not.toMatch(new RegExp(`${name}\\b`));
    expect(await pdfPages(stored)).toEqual([PAGE_SIZE]);
    expect(await readerView(stored)).toEqual({
      pages: 1,
      scripts: null,
      openAction: null,
      attachments: null,
      links: 0,
    });
    const [row] = await db().select().from(documents).where(eq(documents.id, id));
    expect(row!.size).toBe(stored.length);
    const res = await download(id, headers);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(stored)).toBe(true);
  }

  it('stores a PDF whose cross-reference points into another stream, hiding OpenAction JavaScript, as a fresh file without it', async () => {
    const hostile = xrefIntoStreamPdf();
    // What a reader finds in the upload itself: the script runs when the file opens.
    expect((await readerView(hostile)).scripts).toEqual({
      OpenAction: ['app.alert(document.cookie)'],
    });
    const donor = await signIn(subject.app, db());
    const res = await uploadDocument(subject.app, donor.headers, 'id_proof', {
      filename: 'aadhaar.pdf',
      data: hostile,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.document).toMatchObject({ mimeType: 'application/pdf' });
    await expectCleanPdf(res.json().data.document.id, donor.headers);
  });

  it('stores PDFs with GoToR to a UNC path, URI links and Named actions as fresh files without them', async () => {
    const donor = await signIn(subject.app, db());
    const cases: [string, Buffer, string[]][] = [
      ['id_proof', goToRPdf(), ['/GoToR', '\\\\attacker.example']],
      ['address_proof', uriAndNamedPdf(), ['/URI', '/Named', 'https://attacker.example']],
    ];
    for (const [type, data, carried] of cases) {
      for (const part of carried) expect(data.toString('latin1')).toContain(part);
      const res = await uploadDocument(subject.app, donor.headers, type, { data });
      expect(res.statusCode, res.body).toBe(201);
      await expectCleanPdf(res.json().data.document.id, donor.headers);
    }
  });

  it('keeps a scanned PDF readable: same pages and page size, the scan drawn on them', async () => {
    const donor = await signIn(subject.app, db());
    const scan = await sharp({
      create: { width: 400, height: 200, channels: 3, background: { r: 20, g: 40, b: 200 } },
    })
      .jpeg()
      .toBuffer();
    const source = await PDFDocument.create();
    const image = await source.embedJpg(scan);
    for (let i = 0; i < 2; i += 1) {
      source.addPage([595, 842]).drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
    }
    const res = await uploadDocument(subject.app, donor.headers, 'medical_certificate', {
      data: Buffer.from(await source.save()),
    });
    expect(res.statusCode, res.body).toBe(201);
    const { id } = res.json().data.document;
    const stored = await storedBytes(id);
    expect(await pdfPages(stored)).toEqual([
      { width: 595, height: 842 },
      { width: 595, height: 842 },
    ]);
    const downloaded = await download(id, donor.headers);
    expect(downloaded.headers['content-type']).toBe('application/pdf');
    expect(downloaded.rawPayload.equals(stored)).toBe(true);
    // Each page is one JPEG of the page at 150 dpi, and it shows the scan's blue.
    const [, jpeg] = /\/Subtype \/Image[^]*?stream\r?\n([^]*?)\r?\nendstream/.exec(
      stored.toString('latin1'),
    )!;
    const { data, info } = await sharp(Buffer.from(jpeg!, 'latin1'))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([1239, 1754]);
    const middle = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * 3;
    expect(data[middle + 2]!).toBeGreaterThan(150);
    expect(data[middle]!).toBeLessThan(80);
  });

  it('stores a JPEG without its EXIF (GPS), turned upright, and without the bytes after it', async () => {
    const donor = await signIn(subject.app, db());
    const photo = Buffer.concat([
      await sharp({
        create: { width: 16, height: 8, channels: 3, background: { r: 200, g: 30, b: 40 } },
      })
        .jpeg()
        .withExif({ IFD0: { Artist: 'GPS 12.9716 N 77.5946 E' } })
        .withMetadata({ orientation: 6 })
        .toBuffer(),
      Buffer.from('TRAILING-SECRET-PAYLOAD'),
    ]);
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const res = await uploadDocument(subject.app, donor.headers, 'photo', {
      filename: 'me.jpg',
      contentType: 'image/jpeg',
      data: photo,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { id } = res.json().data.document;
    const stored = await storedBytes(id);
    const text = stored.toString('latin1');
    expect(text).not.toContain('Exif');
    expect(text).not.toContain('12.9716');
    expect(text).not.toContain('TRAILING-SECRET');
    const metadata = await sharp(stored).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 8, height: 16 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    const downloaded = await download(id, donor.headers);
    expect(downloaded.rawPayload.equals(stored)).toBe(true);
    expect(res.json().data.document.size).toBe(stored.length);
  });

  it('refuses more pages than the limit, an image over the pixel limit and a PDF with no page, keeping nothing', async () => {
    const donor = await signIn(subject.app, db());
    const many = await PDFDocument.create();
    for (let i = 0; i < 11; i += 1) many.addPage([200, 100]);
    const huge = await sharp({
      create: { width: 8000, height: 7000, channels: 3, background: '#ffffff' },
    })
      .png()
      .toBuffer();
    const noPage = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n' +
        '2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
    );
    // The reason travels in `details`, so the app says what to do in the reader's language.
    const cases: [Buffer, string, object][] = [
      [
        Buffer.from(await many.save()),
        RENDER_MESSAGES.too_many_pages,
        { reason: 'too_many_pages', maxPages: 10 },
      ],
      [huge, RENDER_MESSAGES.too_large, { reason: 'too_large' }],
      [noPage, PDF_MESSAGES.unparsable, { reason: 'unparsable' }],
    ];
    for (const [data, message, details] of cases) {
      const res = await uploadDocument(subject.app, donor.headers, 'id_proof', { data });
      expect(res.statusCode, res.body).toBe(415);
      expect(res.json().error).toEqual({ code: 'UNSUPPORTED_MEDIA_TYPE', message, details });
    }
    expect(RENDER_MESSAGES.too_many_pages).toContain('at most 10 pages');
    expect(await db().select().from(documents)).toHaveLength(0);
    expect(await storedChunks()).toEqual([]);
  });
});
