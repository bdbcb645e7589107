import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activityLog, passwordResetTokens, refreshTokens, users } from '../../db/schema';
import { ACCOUNT_LIMITS } from '../../lib/auth-limits';
import { verifyPassword } from '../../lib/password';
import { issueSetPasswordLink } from '../../lib/set-password-links';
import {
  bearer,
  expectUserShape,
  loginAs,
  registerBody,
  seedUser,
  type SeededUser,
} from '../../test/auth-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';

let testDb: TestDatabase;
let subject: TestApp;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

beforeEach(async () => {
  subject = await createTestApp({ database: testDb.database });
});

afterEach(async () => {
  await subject.close();
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;

async function signedIn(options: Parameters<typeof seedUser>[1] = {}) {
  const seeded = await seedUser(db(), options);
  const { tokens } = await loginAs(subject.app, seeded);
  return { ...seeded, tokens, headers: bearer(tokens.accessToken) };
}

function getUser(id: string, headers: Record<string, string>) {
  return subject.app.inject({ url: `/api/v1/users/${id}`, headers });
}

function patchUser(id: string, payload: object, headers: Record<string, string>) {
  return subject.app.inject({ method: 'PATCH', url: `/api/v1/users/${id}`, payload, headers });
}

function changePassword(id: string, payload: object, headers: Record<string, string>) {
  return subject.app.inject({
    method: 'POST',
    url: `/api/v1/users/${id}/password`,
    payload,
    headers,
  });
}

function expectNoContactDetails(body: string, other: SeededUser) {
  expect(body).not.toContain(other.row.email);
  expect(body).not.toContain(other.row.phone!);
}

describe('GET /api/v1/users/{id}', () => {
  it('answers the user themself', async () => {
    const donor = await signedIn();
    const res = await getUser(donor.row.id, donor.headers);
    expect(res.statusCode).toBe(200);
    const user = expectUserShape(res.json().data.user);
    expect(user).toMatchObject({
      id: donor.row.id,
      email: donor.row.email,
      phone: donor.row.phone,
      phoneNumber: donor.row.phone,
    });
  });

  it("refuses another donor's account with 403, without their contact details", async () => {
    const donor = await signedIn();
    const other = await seedUser(db());
    const res = await getUser(other.row.id, donor.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
    expectNoContactDetails(res.body, other);
    // A hospital is not an administrator either; an unknown id is 403 too (no existence leak).
    const hospital = await signedIn({ role: 'hospital' });
    expect((await getUser(other.row.id, hospital.headers)).statusCode).toBe(403);
    expect((await getUser(randomUUID(), donor.headers)).statusCode).toBe(403);
  });

  it('lets an administrator read any account, and answers 404 for unknown or erased ones', async () => {
    const admin = await signedIn({ role: 'admin' });
    const donor = await seedUser(db());
    const res = await getUser(donor.row.id, admin.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user.email).toBe(donor.row.email);
    expect((await getUser(randomUUID(), admin.headers)).statusCode).toBe(404);
    const erased = await seedUser(db(), { deletedAt: new Date() });
    expect((await getUser(erased.row.id, admin.headers)).json().error.code).toBe('NOT_FOUND');
  });

  it('answers 400 for an id that is not a UUID, and 401 without a token', async () => {
    const donor = await signedIn();
    const bad = await getUser('not-a-uuid', donor.headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].path).toBe('params.id');
    const anonymous = await getUser(donor.row.id, {});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('UNAUTHENTICATED');
  });
});

describe('PATCH /api/v1/users/{id}', () => {
  it('changes profile fields and logs the field names', async () => {
    const donor = await signedIn();
    const res = await patchUser(
      donor.row.id,
      {
        fullName: '  Asha V. ',
        city: 'Nagpur',
        pincode: '440001',
        available: true,
        language: 'es',
        bloodType: 'AB-',
      },
      donor.headers,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(expectUserShape(res.json().data.user)).toMatchObject({
      fullName: 'Asha V.',
      name: 'Asha V.',
      city: 'Nagpur',
      pincode: '440001',
      available: true,
      language: 'es',
      bloodType: 'AB-',
    });
    const [entry] = await db()
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'user.updated'));
    expect(entry).toMatchObject({ actorId: donor.row.id, targetId: donor.row.id });
    expect((entry!.details as { fields: string[] }).fields.sort()).toEqual(
      ['available', 'bloodType', 'city', 'fullName', 'language', 'pincode'].sort(),
    );

    // Only what really changes is logged; pincode can be cleared.
    const again = await patchUser(donor.row.id, { city: 'Nagpur', pincode: null }, donor.headers);
    expect(again.json().data.user.pincode).toBeNull();
    const entries = await db()
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'user.updated'));
    expect(entries.map((row) => (row.details as { fields: string[] }).fields)).toContainEqual([
      'pincode',
    ]);
  });

  it("refuses another donor's account with 403 and lets an administrator change it", async () => {
    const donor = await signedIn();
    const other = await seedUser(db());
    const refused = await patchUser(other.row.id, { city: 'Goa' }, donor.headers);
    expect(refused.statusCode).toBe(403);
    expectNoContactDetails(refused.body, other);
    const admin = await signedIn({ role: 'admin' });
    const res = await patchUser(other.row.id, { city: 'Goa' }, admin.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user.city).toBe('Goa');
    const [entry] = await db()
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'user.updated'));
    expect(entry).toMatchObject({
      actorId: admin.row.id,
      actorRole: 'admin',
      targetId: other.row.id,
    });
  });

  it('locks the blood type once the donor is approved (409 BLOOD_TYPE_LOCKED), except for administrators', async () => {
    const donor = await signedIn();
    await db().update(users).set({ status: 'approved' }).where(eq(users.id, donor.row.id));
    const res = await patchUser(donor.row.id, { bloodType: 'A+' }, donor.headers);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('BLOOD_TYPE_LOCKED');
    expect(res.json().error.details).toEqual([
      { path: 'body.bloodType', message: expect.any(String) },
    ]);
    // Sending the same blood type, or other fields, is fine.
    expect(
      (await patchUser(donor.row.id, { bloodType: 'B+', city: 'Agra' }, donor.headers)).statusCode,
    ).toBe(200);
    const admin = await signedIn({ role: 'admin' });
    const corrected = await patchUser(donor.row.id, { bloodType: 'A+' }, admin.headers);
    expect(corrected.statusCode).toBe(200);
    expect(corrected.json().data.user.bloodType).toBe('A+');
  });

  it('refuses unknown fields, empty bodies and read-only fields', async () => {
    const donor = await signedIn();
    for (const payload of [
      {},
      { role: 'admin' },
      { email: 'x@example.org' },
      { status: 'approved' },
    ]) {
      const res = await patchUser(donor.row.id, payload, donor.headers);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    const [row] = await db().select().from(users).where(eq(users.id, donor.row.id));
    expect(row).toMatchObject({ role: 'donor', status: 'pending', email: donor.row.email });
  });

  it('answers 401 without a token and 400 for a bad id', async () => {
    const donor = await signedIn();
    expect((await patchUser(donor.row.id, { city: 'Goa' }, {})).statusCode).toBe(401);
    expect((await patchUser('1234', { city: 'Goa' }, donor.headers)).statusCode).toBe(400);
  });
});

describe('POST /api/v1/users/{id}/password', () => {
  it('changes the password, signs out other sessions and returns a new session', async () => {
    const donor = await signedIn();
    const other = await loginAs(subject.app, donor);
    const res = await changePassword(
      donor.row.id,
      { currentPassword: donor.password, newPassword: 'a much better password' },
      donor.headers,
    );
    expect(res.statusCode, res.body).toBe(200);
    const { changed, tokens } = res.json().data;
    expect(changed).toBe(true);
    expect(tokens.expiresIn).toBe(3600);

    const [row] = await db().select().from(users).where(eq(users.id, donor.row.id));
    expect(await verifyPassword(row!.passwordHash, 'a much better password')).toBe(true);
    // Old sessions are gone, the new one works.
    for (const old of [donor.tokens, other.tokens]) {
      expect(
        (await subject.app.inject({ url: '/api/v1/auth/me', headers: bearer(old.accessToken) }))
          .statusCode,
      ).toBe(401);
      const refreshed = await subject.app.inject({
        method: 'POST',
        url: '/api/v1/auth/refresh',
        payload: { refreshToken: old.refreshToken },
      });
      expect(refreshed.statusCode).toBe(401);
    }
    expect(
      (await subject.app.inject({ url: '/api/v1/auth/me', headers: bearer(tokens.accessToken) }))
        .statusCode,
    ).toBe(200);
    const live = (await db().select().from(refreshTokens)).filter((token) => !token.revokedAt);
    expect(live).toHaveLength(1);
    const actions = (await db().select().from(activityLog)).map((entry) => entry.action);
    expect(actions).toContain('user.password_changed');
  });

  it('voids every reset link mailed before the change', async () => {
    const donor = await signedIn();
    const link = await issueSetPasswordLink(db(), {
      userId: donor.row.id,
      purpose: 'reset',
      now: Date.now(),
      publicUrl: 'https://blood.example.in',
    });
    const res = await changePassword(
      donor.row.id,
      { currentPassword: donor.password, newPassword: 'a much better password' },
      donor.headers,
    );
    expect(res.statusCode, res.body).toBe(200);
    const [stored] = await db().select().from(passwordResetTokens);
    expect(stored!.usedAt).toBeInstanceOf(Date);
    // Whoever has that e-mail can no longer undo the change.
    const reset = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { token: link.token, password: 'the attackers passphrase' },
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().error.code).toBe('INVALID_RESET_TOKEN');
    const [row] = await db().select().from(users).where(eq(users.id, donor.row.id));
    expect(await verifyPassword(row!.passwordHash, 'a much better password')).toBe(true);
  });

  it('refuses a commonly breached new password with 400 WEAK_PASSWORD on body.newPassword', async () => {
    const donor = await signedIn();
    for (const newPassword of ['Password@123', 'iloveyou1', 'qwerty123456']) {
      const res = await changePassword(
        donor.row.id,
        { currentPassword: donor.password, newPassword },
        donor.headers,
      );
      expect(res.statusCode, newPassword).toBe(400);
      expect(res.json().error).toEqual({
        code: 'WEAK_PASSWORD',
        message: expect.stringContaining('too common'),
        details: [{ path: 'body.newPassword', message: expect.stringContaining('too common') }],
      });
    }
    const [row] = await db().select().from(users).where(eq(users.id, donor.row.id));
    expect(await verifyPassword(row!.passwordHash, donor.password)).toBe(true);
    // Nothing was signed out.
    expect(
      (await subject.app.inject({ url: '/api/v1/auth/me', headers: donor.headers })).statusCode,
    ).toBe(200);
  });

  it('answers a wrong current password with 400 on body.currentPassword, not 401', async () => {
    const donor = await signedIn();
    const res = await changePassword(
      donor.row.id,
      { currentPassword: 'not it', newPassword: 'a much better password' },
      donor.headers,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Your current password is not correct.',
      details: [{ path: 'body.currentPassword', message: 'Your current password is not correct.' }],
    });
    // The session still works.
    expect(
      (await subject.app.inject({ url: '/api/v1/auth/me', headers: donor.headers })).statusCode,
    ).toBe(200);
  });

  it(`locks after ${ACCOUNT_LIMITS.passwordFailures.max} wrong current passwords`, async () => {
    const donor = await signedIn();
    for (let i = 0; i < ACCOUNT_LIMITS.passwordFailures.max; i += 1) {
      await changePassword(
        donor.row.id,
        { currentPassword: 'nope', newPassword: 'whatever123' },
        donor.headers,
      );
    }
    const res = await changePassword(
      donor.row.id,
      { currentPassword: donor.password, newPassword: 'whatever123' },
      donor.headers,
    );
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
  });

  it('is for the user themself only, administrators included', async () => {
    const donor = await signedIn();
    const admin = await signedIn({ role: 'admin' });
    const body = { currentPassword: donor.password, newPassword: 'a much better password' };
    expect((await changePassword(donor.row.id, body, admin.headers)).statusCode).toBe(403);
    const other = await signedIn();
    expect((await changePassword(donor.row.id, body, other.headers)).statusCode).toBe(403);
    const short = await changePassword(
      donor.row.id,
      { currentPassword: donor.password, newPassword: 'short' },
      donor.headers,
    );
    expect(short.statusCode).toBe(400);
    expect(short.json().error.details[0].path).toBe('body.newPassword');
  });
});

describe('a registered donor', () => {
  it('can read and edit their own profile with the tokens from registration', async () => {
    const reg = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: registerBody(),
    });
    const { user, tokens } = reg.json().data;
    const res = await patchUser(user.id, { bloodType: 'A-' }, bearer(tokens.accessToken));
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user.bloodType).toBe('A-');
  });
});
