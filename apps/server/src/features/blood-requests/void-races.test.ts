import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bloodRequestMatches } from '../../db/schema';
import { makeDonor, requestBody } from '../../test/blood-request-helpers';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';

// Issue #32 item 6: a donor's acceptance and their suspension at the same moment. On PostgreSQL
// (TEST_DB_DRIVER=postgres) the two run on separate pool connections; whichever commits first,
// no acceptance of a suspended donor may remain (the voiding re-reads the match it waited for).

let testDb: TestDatabase;
let subject: TestApp;

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = await createTestApp({
    database: testDb.database,
    env: { RATE_LIMIT_ALLOWLIST: '127.0.0.1,203.0.113.10' },
    services: { backgroundJobs: false },
  });
});

afterEach(async () => {
  await testDb.truncate();
});

afterAll(async () => {
  await subject?.close();
  await testDb?.close();
});

const db = () => testDb.database.db;

function call(method: 'POST' | 'PUT', url: string, user: SignedInUser, payload: object) {
  return subject.app.inject({ method, url, headers: user.headers, payload });
}

describe('accepting while being suspended', () => {
  it('leaves no acceptance of a suspended donor, whichever commits first', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    for (let round = 0; round < 6; round += 1) {
      // Requests per account are limited: a requester per round.
      const requester = await signIn(subject.app, db(), { role: 'donor' });
      const donor = await makeDonor(subject.app, db(), { km: 4 });
      const created = await call('POST', '/api/v1/blood-requests', requester, requestBody());
      expect(created.statusCode, created.body).toBe(201);
      const id: string = created.json().data.request.id;
      const verified = await call('PUT', `/api/v1/blood-requests/${id}/status`, admin, {
        status: 'verified',
      });
      expect(verified.statusCode, verified.body).toBe(200);
      const [accepted, suspended] = await Promise.all([
        call('POST', `/api/v1/blood-requests/${id}/respond`, donor, { response: 'accepted' }),
        call('POST', `/api/v1/admin/donors/${donor.row.id}/suspend`, admin, {
          reason: 'Reported by a hospital',
        }),
      ]);
      expect(suspended.statusCode, suspended.body).toBe(200);
      // The acceptance either came first (200, then voided) or after (403 or 409): never a 500.
      expect([200, 401, 403, 409], accepted.body).toContain(accepted.statusCode);
      const [match] = await db()
        .select()
        .from(bloodRequestMatches)
        .where(
          and(eq(bloodRequestMatches.requestId, id), eq(bloodRequestMatches.donorId, donor.row.id)),
        );
      expect(match!.response, `round ${round}: ${accepted.statusCode}`).toBe(
        accepted.statusCode === 200 ? 'withdrawn' : 'declined',
      );
    }
  }, 120_000);
});
