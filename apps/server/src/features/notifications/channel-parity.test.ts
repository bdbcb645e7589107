import { nextEligibleAfterDonation } from '@bdms/shared';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  bloodRequestMatches,
  bloodRequests,
  channelConsents,
  notificationDeliveries,
  notifications,
  questionnaires,
  users,
} from '../../db/schema';
import { bearer, loginAs } from '../../test/auth-helpers';
import { makeDonor, northOfHyderabad, requestBody } from '../../test/blood-request-helpers';
import { healthyAnswers, signIn, type SignedInUser } from '../../test/donor-helpers';
import { startTestSmppServer, type TestSmppServer } from '../../test/smpp-server';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import {
  startWhatsAppCloudServer,
  type WhatsAppCloudServer,
} from '../../test/whatsapp-cloud-server';
import { localDate } from './templates';

/**
 * Issue #32, "channel parity": every action a donor can take on the web (accept, decline,
 * withdraw, stop) is driven through the web route, an SMS reply (the SMPP peer) and a WhatsApp
 * reply or button (the Cloud API peer, signed webhooks), as a suspended, a deferred, an
 * unverified-phone and an erased donor. Each channel gets its own donor and request (far apart,
 * so no alert crosses), and the outcome read back from the database — the match, the request,
 * the accepted count, what the requester was told, whether the contact was released — must be
 * the same on every channel.
 */

const SECRET = 'app-secret-for-tests';
const DAY = 86_400_000;
let testDb: TestDatabase;
let subject: TestApp | null = null;
let smsc: TestSmppServer | null = null;
let cloud: WhatsAppCloudServer | null = null;
let clock: number;
let admin: SignedInUser;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterEach(async () => {
  await subject?.close();
  await smsc?.close();
  await cloud?.close();
  subject = null;
  smsc = null;
  cloud = null;
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;

async function start(at = Date.parse('2026-11-25T12:00:00+05:30')) {
  clock = at;
  smsc = await startTestSmppServer();
  cloud = await startWhatsAppCloudServer({
    token: 'test-token',
    appSecret: SECRET,
    phoneNumberId: '1234567890',
    now: () => clock,
  });
  subject = await createTestApp({
    database: testDb.database,
    env: {
      PUBLIC_URL: 'https://rakt.example.in',
      FEATURE_FLAGS: 'smsNotifications,whatsappIntegration',
      SMS_SMPP_URL: smsc.url,
      SMS_SENDER_ID: 'BDMSIN',
      WHATSAPP_API_URL: cloud.url,
      WHATSAPP_TOKEN: 'test-token',
      WHATSAPP_PHONE_NUMBER_ID: '1234567890',
      WHATSAPP_APP_SECRET: SECRET,
      WHATSAPP_VERIFY_TOKEN: 'verify-token-1',
      WHATSAPP_ALERT_TEMPLATE: 'blood_alert',
      RATE_LIMIT_ALLOWLIST: '203.0.113.10',
    },
    services: { backgroundJobs: false, now: () => clock, smsReconnectBaseMs: 20 },
  });
  admin = await signIn(subject.app, db(), { role: 'admin' });
  const settings = await call('PUT', '/api/v1/admin/notifications/settings', admin, {
    smsEnabled: true,
    maxAlertsPerDonorPer7d: 20,
  });
  expect(settings.statusCode, settings.body).toBe(200);
}

function call(
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  url: string,
  user?: SignedInUser,
  payload?: object,
) {
  return subject!.app.inject({ method, url, headers: user?.headers ?? {}, payload });
}

type Channel = 'web' | 'sms' | 'whatsapp';
const CHANNELS: Channel[] = ['web', 'sms', 'whatsapp'];
/** Each channel's scene is this far north of Hyderabad: beyond every round's radius. */
const SCENE_KM: Record<Channel, number> = { web: 0, sms: 300, whatsapp: 600 };
type Action = 'accept' | 'decline' | 'withdraw' | 'stop';
type State = 'suspended' | 'deferred' | 'unverified' | 'erased';

let phoneSequence = 0;

interface Scene {
  channel: Channel;
  donor: SignedInUser;
  /** E.164, and as the peers write it (no "+"). */
  phone: string;
  digits: string;
  requester: SignedInUser;
  requestId: string;
  contactPhone: string;
  /** The donor's alert on this scene's phone channel (none for the web). */
  deliveryId: string | null;
}

/**
 * A donor with a verified mobile who turned SMS and WhatsApp alerts on and answered the
 * questionnaire, and a verified request 4 km away that alerted them on every channel.
 */
async function scene(channel: Channel): Promise<Scene> {
  const app = subject!.app;
  phoneSequence += 1;
  const digits = `9198${String(10_000_000 + phoneSequence)}`;
  const phone = `+${digits}`;
  const donor = await makeDonor(app, db(), { km: SCENE_KM[channel] + 4, now: clock });
  await db()
    .update(users)
    .set({ phone, phoneVerifiedAt: new Date(clock - DAY), language: 'en' })
    .where(eq(users.id, donor.row.id));
  await db()
    .insert(questionnaires)
    .values({
      userId: donor.row.id,
      answers: healthyAnswers(),
      eligible: true,
      submittedAt: new Date(clock - 10 * DAY),
    });
  for (const phoneChannel of ['sms', 'whatsapp'] as const) {
    const consent = await call('PUT', `/api/v1/notifications/channels/${phoneChannel}`, donor, {
      consent: true,
      language: 'en',
    });
    expect(consent.statusCode, consent.body).toBe(200);
  }
  const requester = await signIn(app, db(), { role: 'donor', fullName: 'Owner Requester' });
  const body = requestBody({ ...northOfHyderabad(SCENE_KM[channel]) });
  const created = await call('POST', '/api/v1/blood-requests', requester, body);
  expect(created.statusCode, created.body).toBe(201);
  const requestId: string = created.json().data.request.id;
  const verified = await call('PUT', `/api/v1/blood-requests/${requestId}/status`, admin, {
    status: 'verified',
    notes: 'Called the hospital',
  });
  expect(verified.statusCode, verified.body).toBe(200);
  await app.services.notifier.deliverDue();
  const alerts = await db()
    .select()
    .from(notificationDeliveries)
    .where(
      and(
        eq(notificationDeliveries.bloodRequestId, requestId),
        eq(notificationDeliveries.destination, phone),
      ),
    );
  // Told on both phone channels, each once.
  expect(alerts.map((row) => [row.channel, row.status]).sort()).toEqual([
    ['sms', 'sent'],
    ['whatsapp', 'sent'],
  ]);
  const alert = alerts.find((row) => row.channel === channel);
  return {
    channel,
    donor,
    phone,
    digits,
    requester,
    requestId,
    contactPhone: String(body.contactPhone),
    deliveryId: alert?.id ?? null,
  };
}

async function webRespond(s: Scene, response: 'accepted' | 'declined' | 'withdrawn') {
  return call('POST', `/api/v1/blood-requests/${s.requestId}/respond`, s.donor, { response });
}

async function webhook(signed: { headers: Record<string, string>; payload: string }) {
  const res = await subject!.app.inject({
    method: 'POST',
    url: '/api/v1/webhooks/whatsapp',
    headers: signed.headers,
    payload: signed.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** What the donor saw: the web reply's body, or the answer the phone channel sent back. */
async function act(s: Scene, action: Action): Promise<{ status: number | null; text: string }> {
  if (s.channel === 'web') {
    if (action === 'stop') {
      const res = await call('PUT', '/api/v1/notifications/channels/sms', s.donor, {
        consent: false,
        language: 'en',
      });
      return { status: res.statusCode, text: res.body };
    }
    const response = { accept: 'accepted', decline: 'declined', withdraw: 'withdrawn' } as const;
    const res = await webRespond(s, response[action]);
    return { status: res.statusCode, text: res.body };
  }
  if (s.channel === 'sms') {
    const word = { accept: 'YES', decline: 'NO', stop: 'STOP' } as Record<Action, string>;
    const before = smsc!.received.length;
    expect(await smsc!.inbound(s.digits, word[action]!)).toBe(0);
    const answers = smsc!.received.slice(before).filter((sms) => sms.destinationAddr === s.digits);
    expect(answers).toHaveLength(1);
    return { status: null, text: answers[0]!.text };
  }
  const before = cloud!.messages.length;
  if (action === 'stop') await webhook(cloud!.textWebhook(s.digits, 'stop'));
  else {
    const payload = `${action === 'accept' ? 'accept' : 'decline'}:${s.deliveryId}`;
    const label = action === 'accept' ? 'I can donate' : 'Not now';
    await webhook(cloud!.buttonWebhook(s.digits, payload, label));
  }
  const answers = cloud!.messages
    .slice(before)
    .filter((message) => message.body.to === s.digits && message.body.type === 'text');
  expect(answers).toHaveLength(1);
  return { status: null, text: answers[0]!.body.text!.body };
}

/** What the database holds after the action, the same for every channel when parity holds. */
async function outcome(s: Scene) {
  const [match] = await db()
    .select()
    .from(bloodRequestMatches)
    .where(
      and(
        eq(bloodRequestMatches.requestId, s.requestId),
        eq(bloodRequestMatches.donorId, s.donor.row.id),
      ),
    );
  const [request] = await db()
    .select()
    .from(bloodRequests)
    .where(eq(bloodRequests.id, s.requestId));
  const accepted = await db()
    .select()
    .from(bloodRequestMatches)
    .where(
      and(
        eq(bloodRequestMatches.requestId, s.requestId),
        eq(bloodRequestMatches.response, 'accepted'),
      ),
    );
  const toldRequester = await db()
    .select({ type: notifications.type })
    .from(notifications)
    .where(eq(notifications.userId, s.requester.row.id))
    .orderBy(desc(notifications.createdAt));
  const consentChannel = s.channel === 'whatsapp' ? 'whatsapp' : 'sms';
  const [consent] = await db()
    .select()
    .from(channelConsents)
    .where(
      and(eq(channelConsents.userId, s.donor.row.id), eq(channelConsents.channel, consentChannel)),
    )
    .orderBy(desc(channelConsents.grantedAt))
    .limit(1);
  return {
    response: match?.response ?? null,
    requestStatus: request!.status,
    acceptedCount: accepted.length,
    requesterTold: toldRequester
      .map((row) => row.type)
      .filter((type) => type.startsWith('blood_request.donor_'))
      .sort(),
    // The consent of the channel the action came by (the web's "stop" switches SMS off).
    consentStands: consent ? consent.withdrawnAt === null : null,
  };
}

/** Puts the donor in `state` after they were alerted. */
async function become(s: Scene, state: State) {
  if (state === 'suspended') {
    const res = await call('POST', `/api/v1/admin/donors/${s.donor.row.id}/suspend`, admin, {
      reason: 'Abusive messages to a requester',
    });
    expect(res.statusCode, res.body).toBe(200);
    // A suspended donor may still sign in (to read the suspension): a fresh session.
    const { tokens } = await loginAs(subject!.app, s.donor);
    s.donor.headers = bearer(tokens.accessToken);
  } else if (state === 'deferred') {
    // "Not feeling well today", told after the alert (NBTC 2017: the donor must be in good health).
    const res = await call('PUT', `/api/v1/users/${s.donor.row.id}/questionnaire`, s.donor, {
      answers: healthyAnswers({ feelsWell: false }),
    });
    expect(res.statusCode, res.body).toBe(200);
  } else if (state === 'unverified') {
    // The number's proof is gone (the account's number was never confirmed by a code).
    await db().update(users).set({ phoneVerifiedAt: null }).where(eq(users.id, s.donor.row.id));
  } else {
    const res = await call('DELETE', `/api/v1/users/${s.donor.row.id}`, admin);
    expect(res.statusCode, res.body).toBe(200);
  }
}

const STATES: State[] = ['suspended', 'deferred', 'unverified', 'erased'];
const ACTIONS: Action[] = ['accept', 'decline', 'withdraw', 'stop'];

describe('channel parity (issue #32): every donor action has one outcome whatever the channel', () => {
  for (const state of STATES) {
    for (const action of ACTIONS) {
      it(`${action} as a ${state} donor`, async () => {
        await start();
        const results: {
          channel: Channel;
          seen: { status: number | null; text: string } | null;
          held: Held;
          s: Scene;
        }[] = [];
        for (const channel of CHANNELS) {
          const s = await scene(channel);
          // A withdrawal needs an acceptance first, made while the donor could still give.
          if (action === 'withdraw') {
            const accepted = await webRespond(s, 'accepted');
            expect(accepted.statusCode, accepted.body).toBe(200);
          }
          await become(s, state);
          if (action === 'withdraw' && channel !== 'web') {
            // SMS and WhatsApp cannot express a withdrawal: no keyword, no button (replies.ts
            // knows YES, NO and STOP). The donor withdraws on the web; nothing to drive here.
            results.push({ channel, seen: null, held: await outcome(s), s });
            continue;
          }
          const seen = await act(s, action);
          // Never the requester's phone in a refused or voided answer (checked below per case).
          results.push({ channel, seen, held: await outcome(s), s });
        }
        const web = results.find((result) => result.channel === 'web')!;
        const phones = results.filter((result) => result.channel !== 'web');
        const expected = EXPECTED[state][action];
        for (const result of results) {
          if (action === 'withdraw' && result.channel !== 'web') continue;
          // The one account that may act: an unverified NUMBER's owner signed in by password.
          if (state === 'unverified' && result.channel === 'web') continue;
          // The contact is never released to a donor in any of these states.
          expect(result.seen!.text, `${result.channel}`).not.toContain(result.s.contactPhone);
        }
        if (state === 'unverified') {
          // The web knows the donor by their password; a phone channel knows a person only by a
          // verified number (issue #32 item 7). So the web acts for the account, and a reply
          // from the unverified number is a stranger's: answered, and nothing changes.
          expect(web.held, 'web').toEqual(expected.web);
          for (const result of phones) {
            expect(result.held, result.channel).toEqual(expected.phone);
            if (result.seen) expect(result.seen.text).toMatch(expected.phoneAnswer!);
          }
          return;
        }
        for (const result of results) {
          if (action === 'withdraw' && result.channel !== 'web') {
            // Still the state the suspension or erasure left (voided) or the acceptance made.
            expect(result.held, result.channel).toEqual(expected.withoutAction ?? expected.web);
            continue;
          }
          expect(result.held, result.channel).toEqual(expected.web);
        }
        if (expected.webStatus) expect(web.seen!.status, web.seen!.text).toBe(expected.webStatus);
        if (expected.webCode) expect(JSON.parse(web.seen!.text).error.code).toBe(expected.webCode);
        for (const result of phones) {
          if (result.seen && expected.phoneAnswer) {
            expect(result.seen.text, result.channel).toMatch(expected.phoneAnswer);
          }
        }
      }, 60_000);
    }
  }
});

type Held = Awaited<ReturnType<typeof outcome>>;
interface Expected {
  /** What the database holds after the web action (and after the phone ones, when parity). */
  web: Held;
  /** For the unverified number: what a phone reply leaves. */
  phone?: Held;
  /** SMS/WhatsApp cannot withdraw: what they hold without acting. */
  withoutAction?: Held;
  webStatus?: number;
  webCode?: string;
  phoneAnswer?: RegExp;
}

const untouched: Held = {
  response: null,
  requestStatus: 'verified',
  acceptedCount: 0,
  requesterTold: [],
  consentStands: true,
};
const LATE = /no longer needs an answer/;
const UNKNOWN = /did not understand/;
const STOPPED = /no more alerts/;

const EXPECTED: Record<State, Record<Action, Expected>> = {
  // Issue #32 item 6: the suspension voided the open alert (declined) and the acceptance
  // (withdrawn: out of the count, the requester told); every later answer changes nothing.
  suspended: {
    accept: {
      web: { ...untouched, response: 'declined' },
      webStatus: 403,
      webCode: 'FORBIDDEN',
      phoneAnswer: LATE,
    },
    decline: {
      web: { ...untouched, response: 'declined' },
      webStatus: 403,
      webCode: 'FORBIDDEN',
      phoneAnswer: LATE,
    },
    withdraw: {
      web: {
        ...untouched,
        response: 'withdrawn',
        requestStatus: 'in_progress',
        requesterTold: ['blood_request.donor_accepted', 'blood_request.donor_withdrew'],
      },
      webStatus: 403,
    },
    // Withdrawing consent is always allowed, suspended or not (the alert itself was voided).
    stop: {
      web: { ...untouched, response: 'declined', consentStands: false },
      phoneAnswer: STOPPED,
    },
  },
  // Issue #32 item 2: eligibility is checked again at the moment of accepting.
  deferred: {
    accept: {
      web: untouched,
      webStatus: 409,
      webCode: 'DONOR_NOT_ELIGIBLE',
      phoneAnswer: /cannot give blood now/,
    },
    decline: { web: { ...untouched, response: 'declined' }, webStatus: 200 },
    withdraw: {
      web: {
        ...untouched,
        response: 'withdrawn',
        requestStatus: 'in_progress',
        requesterTold: ['blood_request.donor_accepted', 'blood_request.donor_withdrew'],
      },
      withoutAction: {
        ...untouched,
        response: 'accepted',
        requestStatus: 'in_progress',
        acceptedCount: 1,
        requesterTold: ['blood_request.donor_accepted'],
      },
      webStatus: 200,
    },
    stop: { web: { ...untouched, consentStands: false }, phoneAnswer: STOPPED },
  },
  // Issue #32 item 7.
  unverified: {
    accept: {
      web: {
        ...untouched,
        response: 'accepted',
        requestStatus: 'in_progress',
        acceptedCount: 1,
        requesterTold: ['blood_request.donor_accepted'],
      },
      phone: untouched,
      phoneAnswer: UNKNOWN,
    },
    decline: {
      web: { ...untouched, response: 'declined' },
      phone: untouched,
      phoneAnswer: UNKNOWN,
    },
    withdraw: {
      web: {
        ...untouched,
        response: 'withdrawn',
        requestStatus: 'in_progress',
        requesterTold: ['blood_request.donor_accepted', 'blood_request.donor_withdrew'],
      },
      phone: {
        ...untouched,
        response: 'accepted',
        requestStatus: 'in_progress',
        acceptedCount: 1,
        requesterTold: ['blood_request.donor_accepted'],
      },
    },
    // A STOP from a number nobody verified is answered, and withdraws no account's consent
    // (alerts never go to that number anyway: see the test below).
    stop: { web: { ...untouched, consentStands: false }, phone: untouched, phoneAnswer: STOPPED },
  },
  // Issue #32 item 6: the erasure voided the donor's matches; the account and its number are
  // gone (the number is nobody's now), consents deleted with the account.
  erased: {
    accept: {
      web: { ...untouched, response: 'declined', consentStands: null },
      webStatus: 401,
      phoneAnswer: UNKNOWN,
    },
    decline: {
      web: { ...untouched, response: 'declined', consentStands: null },
      webStatus: 401,
      phoneAnswer: UNKNOWN,
    },
    withdraw: {
      web: {
        ...untouched,
        response: 'withdrawn',
        requestStatus: 'in_progress',
        requesterTold: ['blood_request.donor_accepted', 'blood_request.donor_withdrew'],
        consentStands: null,
      },
      webStatus: 401,
    },
    stop: {
      web: { ...untouched, response: 'declined', consentStands: null },
      webStatus: 401,
      phoneAnswer: STOPPED,
    },
  },
};

describe('phone alerts and replies need a verified number (issue #32 item 7)', () => {
  it('sends no SMS or WhatsApp alert to an unverified number and refuses consent without one', async () => {
    await start();
    const s = await scene('sms');
    await db().update(users).set({ phoneVerifiedAt: null }).where(eq(users.id, s.donor.row.id));
    // A new request near the same donor: in-app yes, phone no.
    const body = requestBody({ ...northOfHyderabad(SCENE_KM.sms) });
    const created = await call('POST', '/api/v1/blood-requests', s.requester, body);
    const id: string = created.json().data.request.id;
    await call('PUT', `/api/v1/blood-requests/${id}/status`, admin, {
      status: 'verified',
      notes: 'Called the hospital',
    });
    await subject!.app.services.notifier.deliverDue();
    const [match] = await db()
      .select()
      .from(bloodRequestMatches)
      .where(
        and(eq(bloodRequestMatches.requestId, id), eq(bloodRequestMatches.donorId, s.donor.row.id)),
      );
    expect(match).toBeDefined();
    const phoneRows = await db()
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.bloodRequestId, id));
    expect(phoneRows.filter((row) => row.destination === s.phone)).toEqual([]);
    expect(smsc!.received.filter((sms) => sms.destinationAddr === s.digits)).toHaveLength(1);

    // Consent: withdrawn, then asked again without a verified number: refused, nothing recorded.
    await call('PUT', '/api/v1/notifications/channels/whatsapp', s.donor, {
      consent: false,
      language: 'en',
    });
    const refused = await call('PUT', '/api/v1/notifications/channels/whatsapp', s.donor, {
      consent: true,
      language: 'en',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('PHONE_NOT_VERIFIED');
    const consents = await db()
      .select()
      .from(channelConsents)
      .where(
        and(eq(channelConsents.userId, s.donor.row.id), eq(channelConsents.channel, 'whatsapp')),
      );
    expect(consents).toHaveLength(1);
    expect(consents[0]!.withdrawnAt).not.toBeNull();
  }, 60_000);
});

describe('an alert waiting for quiet hours to end (issue #32 item 7)', () => {
  it('is not sent once the number lost its proof, on SMS and WhatsApp', async () => {
    // 21:00 India time: the Critical scene alerts go now; an urgent one waits for 07:00.
    await start(Date.parse('2026-11-25T23:00:00+05:30'));
    const s = await scene('sms');
    const body = requestBody({ ...northOfHyderabad(SCENE_KM.sms), urgency: 'urgent' });
    const created = await call('POST', '/api/v1/blood-requests', s.requester, body);
    const id: string = created.json().data.request.id;
    await call('PUT', `/api/v1/blood-requests/${id}/status`, admin, {
      status: 'verified',
      notes: 'Called the hospital',
    });
    await subject!.app.services.notifier.deliverDue();
    const waiting = await db()
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.bloodRequestId, id));
    expect(waiting.map((row) => [row.channel, row.status]).sort()).toEqual([
      ['sms', 'queued'],
      ['whatsapp', 'queued'],
    ]);
    await db().update(users).set({ phoneVerifiedAt: null }).where(eq(users.id, s.donor.row.id));
    const smsBefore = smsc!.received.length;
    const cloudBefore = cloud!.messages.length;
    clock = Date.parse('2026-11-26T07:00:00+05:30');
    await subject!.app.services.notifier.deliverDue();
    const after = await db()
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.bloodRequestId, id));
    expect(after.map((row) => [row.channel, row.status, row.lastError]).sort()).toEqual([
      ['sms', 'skipped', 'The phone number is not verified.'],
      ['whatsapp', 'skipped', 'The phone number is not verified.'],
    ]);
    expect(smsc!.received.length).toBe(smsBefore);
    expect(cloud!.messages.length).toBe(cloudBefore);
  }, 60_000);
});

describe('a refused accept says why, in the donor’s language (issue #32 item 2)', () => {
  it('a donation recorded the same day: web 409 with the date, SMS in Hindi with the same date', async () => {
    await start();
    const web = await scene('web');
    const sms = await scene('sms');
    // The donation recorded this morning (users.lastDonationAt is what recording one sets).
    const donatedAt = new Date(clock - 3 * 3_600_000);
    for (const s of [web, sms]) {
      await db()
        .update(users)
        .set({ lastDonationAt: donatedAt, language: 'hi' })
        .where(eq(users.id, s.donor.row.id));
    }
    // 90 days for a man (Schedule F XII-B), counted in Indian days from 00:00 IST.
    const next = nextEligibleAfterDonation(donatedAt, 'male').toISOString();

    const refused = await webRespond(web, 'accepted');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'DONOR_NOT_ELIGIBLE',
      details: { reason: 'donation_interval', nextEligibleAt: next },
    });
    expect(refused.body).not.toContain(web.contactPhone);

    const seen = await act(sms, 'accept');
    expect(seen.text).toContain(localDate(next)('hi'));
    expect(seen.text).toContain('रक्तदान नहीं कर सकते');
    expect(seen.text).not.toContain(sms.contactPhone);
    for (const s of [web, sms]) {
      expect(await outcome(s)).toEqual(untouched);
    }
  }, 60_000);

  it('a newly declared permanent condition: web 409 with no date; WhatsApp says so; declining still works', async () => {
    await start();
    const web = await scene('web');
    const whatsapp = await scene('whatsapp');
    for (const s of [web, whatsapp]) {
      const res = await call('PUT', `/api/v1/users/${s.donor.row.id}/questionnaire`, s.donor, {
        answers: healthyAnswers({ conditions: ['hiv'] }),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const refused = await webRespond(web, 'accepted');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'DONOR_NOT_ELIGIBLE',
      details: { reason: 'deferred', nextEligibleAt: null },
    });
    const seen = await act(whatsapp, 'accept');
    expect(seen.text).toMatch(/cannot give blood now.*Your account shows why/);
    for (const s of [web, whatsapp]) expect(await outcome(s)).toEqual(untouched);

    expect((await webRespond(web, 'declined')).statusCode).toBe(200);
    await act(whatsapp, 'decline');
    for (const s of [web, whatsapp]) {
      expect(await outcome(s)).toEqual({ ...untouched, response: 'declined' });
    }
  }, 60_000);
});
