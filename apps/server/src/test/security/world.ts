import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { App } from '../../app';
import type { Db } from '../../db/client';
import { bloodRequestMatches, hospitals, notifications, users } from '../../db/schema';
import { loadContent } from '../../features/education/education.loader';
import { loadReferenceData } from '../../features/facilities/facilities.loader';
import { bearer, seedUser } from '../auth-helpers';
import { insertDonor, submitQuestionnaire } from '../admin-helpers';
import { northOfHyderabad, requestBody } from '../blood-request-helpers';
import { SAMPLE_FILES, uploadDocument, type SignedInUser } from '../donor-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { createTestDatabase, type TestDatabase } from '../test-database';
import { accountSecrets, requestSecrets, type Secret } from './privacy';

/**
 * One app and one seeded cast for the security tests (PGlite start-up costs seconds, so the
 * matrix and the fuzzer build it once per file):
 *
 * - `approvedDonor` owns every resource an `{id}` path names (their user id, document, donation,
 *   notification, questionnaire, blood request) and is the donor matched to the hospital's request;
 * - `otherDonor` is approved too but owns none of it and is never matched (AB+ cannot give to O−);
 * - `pendingDonor` has just registered (status pending);
 * - `hospital` is a hospital account whose own request is `hospitalRequest`;
 * - `admin` is an administrator.
 * Administrators' `{id}` actions aim at `subjectDonor` and `subjectHospitalId`, which none of the
 * callers are, so approving, suspending or disabling them changes no caller.
 */
export const ROLES = [
  'anonymous',
  'pendingDonor',
  'approvedDonor',
  'otherDonor',
  'hospital',
  'admin',
] as const;
export type Role = (typeof ROLES)[number];

export interface World {
  app: App;
  db: Db;
  testApp: TestApp;
  testDb: TestDatabase;
  callers: Record<Exclude<Role, 'anonymous'>, SignedInUser>;
  hospitalId: string;
  subjectDonorId: string;
  subjectHospitalId: string;
  /** approvedDonor's uploaded ID proof (a real file on disk). */
  documentId: string;
  /** A verified donation of approvedDonor, with its certificate number. */
  donationId: string;
  certificateNumber: string;
  /** A notification addressed to approvedDonor. */
  notificationId: string;
  /** approvedDonor's own pending request (naming another hospital than `hospital`). */
  donorRequest: { id: string; trackingCode: string };
  /** A second one, for cancelling. */
  donorRequestToCancel: { id: string };
  /** The hospital account's own request (verified at once), to which approvedDonor was matched. */
  hospitalRequest: { id: string };
  hospitalRequestToCancel: { id: string };
  /** A guest's pending request naming another hospital: nobody but administrators may read it. */
  guestRequest: { id: string; body: ReturnType<typeof requestBody> };
  /** Every personal value of the cast, with whose it is: the privacy matrix looks for them. */
  secrets: Secret[];
  /** A directory facility: the blood centre of the `hospital` account (its stock is its own). */
  facilityId: string;
  article: { id: string; slug: string };
  faqId: string;
  /** A throwaway account for sign-in routes: its password and a live refresh token. */
  loginAccount: { email: string; password: string; refreshToken: string };
  /** A distinct client address per call, so per-address rate limits never decide an answer. */
  nextAddress(): string;
  /** A new approved donor, signed in: the target of calls that destroy their subject. */
  freshDonor(): Promise<SignedInUser>;
  close(): Promise<void>;
}

const FIXTURES = path.join(import.meta.dirname, '../fixtures');

/** A request's personal values, unique to it; its point `km` north of Hyderabad. */
function uniqueRequest(tag: string, km: number) {
  const surname = { owner: 'Ownerpatil', hospital: 'Wardkar', guest: 'Guestwala' }[tag] ?? tag;
  return {
    patientName: `Patient ${surname}`,
    contactName: `Caller ${surname}`,
    contactEmail: `${tag}.family@example.org`,
    notes: `Notes of ${tag}: ward ${km}`,
    address: `${tag} lane, house ${km}`,
    ...northOfHyderabad(km),
  };
}

let addressSequence = 0;
/** 10.x.y.z: unique per call for the whole test file (16 million addresses). */
export function nextAddress(): string {
  addressSequence += 1;
  const n = addressSequence;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

async function login(app: App, email: string, password: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password },
    remoteAddress: nextAddress(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { tokens: { accessToken: string; refreshToken: string } };
}

/** A seeded account with a donor's profile, signed in from its own client address. */
async function account(
  app: App,
  db: Db,
  options: {
    role?: 'donor' | 'hospital' | 'admin';
    status?: 'pending' | 'approved';
    bloodType?: 'O-' | 'AB+';
    km?: number;
    fullName?: string;
  } = {},
): Promise<SignedInUser> {
  const seeded = await seedUser(db, { role: options.role ?? 'donor', status: options.status });
  const isDonor = (options.role ?? 'donor') === 'donor';
  const [row] = await db
    .update(users)
    .set({
      fullName: options.fullName ?? seeded.row.fullName,
      ...(isDonor
        ? {
            gender: 'male' as const,
            dateOfBirth: '1990-05-20',
            bloodType: options.bloodType ?? 'O-',
            city: 'Secunderabad',
            state: 'Telangana',
            ...northOfHyderabad(options.km ?? 5),
            available: true,
            availabilityConfirmedAt: new Date(),
          }
        : {}),
    })
    .where(eq(users.id, seeded.row.id))
    .returning();
  const { tokens } = await login(app, row!.email, seeded.password);
  return { row: row!, password: seeded.password, headers: bearer(tokens.accessToken) };
}

export async function createWorld(options: { env?: Record<string, string> } = {}): Promise<World> {
  const testDb = await createTestDatabase();
  const db = testDb.database.db;
  await loadReferenceData(db, {
    files: {
      facilities: path.join(FIXTURES, 'blood-banks-sample.csv'),
      pincodes: path.join(FIXTURES, 'pincode-sample.csv'),
    },
  });
  await loadContent(db);
  const testApp = await createTestApp({
    database: testDb.database,
    env: {
      FEATURE_FLAGS:
        'bloodRequests,donorDashboard,donationHistory,certificateGeneration,analyticsReporting,referralSystem',
      ...options.env,
    },
    services: { backgroundJobs: false },
  });
  const { app } = testApp;

  // Distinct names: a surname (or a whole name) in a reply names whose data leaked.
  const admin = await account(app, db, { role: 'admin', fullName: 'Amala Adminova' });
  const hospitalAccount = await account(app, db, { role: 'hospital', fullName: 'Matrix Hospital' });
  const [hospital] = await db
    .insert(hospitals)
    .values({ name: 'Matrix Hospital', city: 'Secunderabad', state: 'Telangana' })
    .returning();
  await db
    .update(users)
    .set({ hospitalId: hospital!.id })
    .where(eq(users.id, hospitalAccount.row.id));
  const pendingDonor = await account(app, db, {
    status: 'pending',
    fullName: 'Pallavi Pendyala',
    km: 7,
  });
  const approvedDonor = await account(app, db, {
    status: 'approved',
    fullName: 'Omkar Ownerappa',
  });
  const otherDonor = await account(app, db, {
    status: 'approved',
    bloodType: 'AB+',
    km: 3,
    fullName: 'Uma Othervelu',
  });

  const [subjectHospital] = await db
    .insert(hospitals)
    .values({ name: 'Subject Hospital', city: 'Pune', state: 'Maharashtra' })
    .returning();
  const subjectDonor = await insertDonor(db, {
    status: 'pending',
    fullName: 'Sita Subjectamma',
    ...northOfHyderabad(11),
  });
  await submitQuestionnaire(db, subjectDonor.id);
  await submitQuestionnaire(db, approvedDonor.row.id);

  const inject = async (
    method: 'GET' | 'POST',
    url: string,
    caller: SignedInUser | null,
    payload?: object,
  ) => {
    const res = await app.inject({
      method,
      url,
      headers: caller?.headers ?? {},
      remoteAddress: nextAddress(),
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json().data;
  };

  const upload = await uploadDocument(app, approvedDonor.headers, 'id_proof', {
    data: SAMPLE_FILES.pdf,
  });
  expect(upload.statusCode, upload.body).toBe(201);
  const documentId = upload.json().data.document.id as string;

  const hospitalRequest = (
    await inject(
      'POST',
      '/api/v1/blood-requests',
      hospitalAccount,
      requestBody({ hospitalName: 'Matrix Hospital', ...uniqueRequest('hospital', 1.5) }),
    )
  ).request;
  const hospitalRequestToCancel = (
    await inject(
      'POST',
      '/api/v1/blood-requests',
      hospitalAccount,
      requestBody({ hospitalName: 'Matrix Hospital', bloodType: 'B+' }),
    )
  ).request;
  const [match] = await db
    .select()
    .from(bloodRequestMatches)
    .where(
      and(
        eq(bloodRequestMatches.requestId, hospitalRequest.id),
        eq(bloodRequestMatches.donorId, approvedDonor.row.id),
      ),
    );
  expect(match, 'approvedDonor must be matched to the hospital request').toBeDefined();
  const donorRequest = (
    await inject(
      'POST',
      '/api/v1/blood-requests',
      approvedDonor,
      requestBody({ ...uniqueRequest('owner', 2.5) }),
    )
  ).request;
  const guestBody = requestBody({
    hospitalName: 'Guest Chosen Hospital',
    city: 'Pune',
    state: 'Maharashtra',
    ...uniqueRequest('guest', 3.5),
  });
  const guestRequest = (await inject('POST', '/api/v1/blood-requests', null, guestBody)).request;
  const donorRequestToCancel = (
    await inject('POST', '/api/v1/blood-requests', approvedDonor, requestBody({ bloodType: 'A+' }))
  ).request;

  const donation = (
    await inject('POST', '/api/v1/donations', admin, {
      donorId: approvedDonor.row.id,
      donatedAt: '2023-06-01',
      place: 'Matrix Blood Bank',
    })
  ).donation;
  const [notification] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(eq(notifications.userId, approvedDonor.row.id))
    .limit(1);
  expect(notification, 'approvedDonor must have a notification').toBeDefined();

  const facilityId = (await inject('GET', '/api/v1/public/facilities/directory', null)).items[0]
    .id as string;
  // The hospital account's centre is this facility: it alone may change its stock (issue #17).
  await db.update(hospitals).set({ facilityId }).where(eq(hospitals.id, hospital!.id));
  const article = (await inject('GET', '/api/public/education/content', null)).items[0] as {
    id: string;
    slug: string;
  };
  const faqId = (await inject('GET', '/api/public/education/faqs', null)).items[0].id as string;

  const loginSeed = await seedUser(db, { role: 'donor' });
  const loginTokens = await login(app, loginSeed.row.email, loginSeed.password);

  return {
    app,
    db,
    testApp,
    testDb,
    callers: { pendingDonor, approvedDonor, otherDonor, hospital: hospitalAccount, admin },
    hospitalId: hospital!.id,
    subjectDonorId: subjectDonor.id,
    subjectHospitalId: subjectHospital!.id,
    documentId,
    donationId: donation.id,
    certificateNumber: donation.certificateNumber,
    notificationId: notification!.id,
    donorRequest: { id: donorRequest.id, trackingCode: donorRequest.trackingCode },
    donorRequestToCancel: { id: donorRequestToCancel.id },
    hospitalRequest: { id: hospitalRequest.id },
    hospitalRequestToCancel: { id: hospitalRequestToCancel.id },
    guestRequest: { id: guestRequest.id, body: guestBody },
    secrets: [
      ...accountSecrets('admin', admin.row),
      ...accountSecrets('hospital', hospitalAccount.row),
      ...accountSecrets('pendingDonor', pendingDonor.row),
      ...accountSecrets('approvedDonor', approvedDonor.row),
      ...accountSecrets('otherDonor', otherDonor.row),
      ...accountSecrets('subjectDonor', subjectDonor),
      ...requestSecrets('donorRequest', donorRequest),
      ...requestSecrets('hospitalRequest', hospitalRequest),
      ...requestSecrets('guestRequest', guestRequest),
    ],
    facilityId,
    article: { id: article.id, slug: article.slug },
    faqId,
    loginAccount: {
      email: loginSeed.row.email,
      password: loginSeed.password,
      refreshToken: loginTokens.tokens.refreshToken,
    },
    nextAddress,
    freshDonor: () => account(app, db, { status: 'approved', bloodType: 'AB+', km: 400 }),
    async close() {
      await testApp.close();
      await testDb.close();
    },
  };
}
