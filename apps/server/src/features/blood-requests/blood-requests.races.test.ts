import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bloodRequests } from '../../db/schema';
import { nextPhone, requestBody } from '../../test/blood-request-helpers';
import { onTheWire } from '../../test/pg-wire';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, wantsPostgres, type TestDatabase } from '../../test/test-database';

// Issue #19: one phone's requests arriving together. On PostgreSQL (TEST_DB_DRIVER=postgres)
// these are real parallel HTTP requests on separate pool connections; before the per-phone
// advisory lock, 8 made 8 requests and 6 identical ones made 5–6.

let testDb: TestDatabase;
let subject: TestApp;
let base: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

beforeEach(async () => {
  subject = await createTestApp({
    database: testDb.database,
    // The burst comes from loopback: the per-address limit is not what is tested.
    env: { RATE_LIMIT_ALLOWLIST: '127.0.0.1,::1' },
    services: { backgroundJobs: false },
  });
  await subject.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(subject.app.server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await subject.close();
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

async function post(body: object) {
  const res = await fetch(`${base}/api/v1/blood-requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function storedFor(phone: string) {
  return testDb.database.db
    .select({ id: bloodRequests.id, bloodType: bloodRequests.bloodType })
    .from(bloodRequests)
    .where(eq(bloodRequests.contactPhone, `+91${phone}`));
}

describe('simultaneous requests from one phone', () => {
  it('8 different requests at once make exactly 3; the others are refused with RATE_LIMITED', async () => {
    const phone = nextPhone();
    const types = ['O-', 'O+', 'A-', 'A+', 'B-', 'B+', 'AB-', 'AB+'];
    const replies = await Promise.all(
      types.map((bloodType) => post(requestBody({ contactPhone: phone, bloodType }))),
    );
    expect(replies.filter((r) => r.status === 201)).toHaveLength(3);
    const refused = replies.filter((r) => r.status === 429);
    expect(refused).toHaveLength(5);
    for (const reply of refused)
      expect(reply.json).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    expect(await storedFor(phone)).toHaveLength(3);
  });

  it('6 identical requests at once make 1; the others are told it is a duplicate', async () => {
    const body = requestBody({ contactPhone: nextPhone() });
    const replies = await Promise.all(Array.from({ length: 6 }, () => post(body)));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    const duplicates = replies.filter((r) => r.status === 200);
    expect(duplicates).toHaveLength(5);
    for (const reply of duplicates)
      expect(reply.json).toMatchObject({ success: true, data: { duplicate: true } });
    expect(await storedFor(body.contactPhone as string)).toHaveLength(1);
  });

  // On PostgreSQL a connection that has prepared the phone's read sends it with the lock in one
  // message (db/prebuilt.ts `after`): the read must still see what the lock's previous holder
  // committed.
  it.runIf(wantsPostgres())(
    'the same with every connection holding the read already: the lock and the read in one message',
    async () => {
      await Promise.all(
        Array.from({ length: 12 }, () => post(requestBody({ contactPhone: nextPhone() }))),
      );
      const { texts } = await onTheWire(async () => {
        const phone = nextPhone();
        const types = ['O-', 'O+', 'A-', 'A+', 'B-', 'B+', 'AB-', 'AB+'];
        const replies = await Promise.all(
          types.map((bloodType) => post(requestBody({ contactPhone: phone, bloodType }))),
        );
        expect(replies.map((r) => r.status).sort()).toEqual([
          201, 201, 201, 429, 429, 429, 429, 429,
        ]);
        expect(await storedFor(phone)).toHaveLength(3);
        const body = requestBody({ contactPhone: nextPhone() });
        const same = await Promise.all(Array.from({ length: 6 }, () => post(body)));
        expect(same.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
        expect(await storedFor(body.contactPhone as string)).toHaveLength(1);
      });
      const together = texts.filter((text) =>
        /^begin; \/\* last result \*\/ select pg_advisory_xact_lock\(.*\); execute bdms_/.test(
          text,
        ),
      );
      expect(together.length).toBeGreaterThanOrEqual(10);
    },
  );
});
