import { createHmac, randomInt, randomUUID } from 'node:crypto';
import {
  BLOOD_REQUEST_LIMITS,
  type BloodRequestStatus,
  type CreateBloodRequest,
  type CreateBloodRequestResult,
} from '@bdms/shared';
import type { Db } from '../../db/client';
import type { BloodRequestRow, NewBloodRequestRow } from '../../db/schema';
import { lockStatement } from '../../lib/advisory-lock';
import { AppError } from '../../lib/app-error';
import { uniqueViolation } from '../../lib/db-errors';
import { fingerprint, type Idempotency } from '../../lib/idempotency';
import type { Mailer } from '../notifications/mail/mailer';
import type { Notifier } from '../notifications/notifier';
import type { RequesterMessages } from '../notifications/requester-messages';
import type { RequestMeta } from '../../lib/request-context';
import type { AuthUser } from '../../plugins/auth';
import { accessOf, actorOf, SYSTEM } from './blood-request-access';
import type { RequestLifecycle } from './blood-request-lifecycle';
import { locate } from './blood-request-location';
import { fullView, toFullView } from './blood-request-views';
import {
  createBloodRequestsRepository,
  hospitalNameKey,
  type BloodRequestsRepository,
} from './blood-requests.repository';
import type { RequestConfirmation } from './request-confirmation';
import { insertRequest, phoneState } from './request-statements';
import { renderTrackingLinkMail } from './tracking-link.mail';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const CREATE_ROUTE_KEY = 'POST /api/v1/blood-requests';
export const CODE_NOT_SENT_NOTE =
  'No confirmation code could be sent to the contact phone today (its daily limit); sent to review.';

/** Per contact phone (guests and donors), counted in the database so every process agrees. */
export const PHONE_LIMIT = { max: 3, windowMs: DAY_MS } as const;
/** An open request with the same phone, blood type and hospital within this window is returned instead. */
export const DUPLICATE_WINDOW_MS = DAY_MS;
/** The tracking link of one request is sent to its contact at most once in this window. */
export const TRACKING_LINK_RESEND_MS = HOUR_MS;

// No 0/O, 1/I/L or U: a code read over the phone or typed from a screenshot is not mistaken.
const TRACKING_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
export const TRACKING_CODE_LENGTH = 8;

/** 8 characters of a 30-letter alphabet: 30^8 ≈ 6.6 × 10^11 codes (≈ 39 bits), uniformly drawn. */
export function generateTrackingCode(): string {
  let code = '';
  for (let i = 0; i < TRACKING_CODE_LENGTH; i += 1) {
    code += TRACKING_ALPHABET[randomInt(TRACKING_ALPHABET.length)];
  }
  return code;
}

export interface RequestIntakeDeps {
  db: Db;
  notifier: Pick<Notifier, 'kick'>;
  idempotency: Idempotency;
  /** Tracking links to the contact on file (a duplicate made by someone who may not see it). */
  mail: Pick<Mailer, 'enqueue' | 'kick'>;
  config: { jwtSecret: string; publicUrl: string };
  now: () => number;
  /** A guest's request confirmed by a code sent to its contact phone (issue #16). */
  confirmation: Pick<RequestConfirmation, 'required' | 'unconfirmedExpiry' | 'issue'>;
  /** A guest's tracking code and link by SMS/WhatsApp once the request goes to review. */
  requester: Pick<RequesterMessages, 'requestReceived'>;
}

/**
 * Taking a blood request in (`POST /api/v1/blood-requests`): limits, the duplicate guard that
 * hands back nothing the caller did not send, placing it, and the first steps of its life.
 */
export function createRequestIntake(deps: RequestIntakeDeps, lifecycle: RequestLifecycle) {
  const { db, notifier, now } = deps;
  const { transition, notifyStaff, planStaffNotifications } = lifecycle;

  const ipHash = (ip: string) =>
    createHmac('sha256', deps.config.jwtSecret)
      .update(`blood-request-ip:${ip}`)
      .digest('hex')
      .slice(0, 32);

  /** `limitedFrom`: when the phone's PHONE_LIMIT.max-th newest request in the window was made. */
  function checkPhoneLimit(limitedFrom: number | null, at: Date) {
    if (limitedFrom === null) return;
    const freeAt = limitedFrom + PHONE_LIMIT.windowMs;
    const seconds = Math.max(1, Math.ceil((freeAt - at.getTime()) / 1000));
    throw new AppError(
      'RATE_LIMITED',
      `This phone number has made ${PHONE_LIMIT.max} requests in the last 24 hours. Please call the hospital's blood bank, or try again later.`,
      undefined,
      { 'retry-after': String(seconds) },
    );
  }

  /** A duplicate is handed back whole only to its owner, an administrator, the hospital in scope. */
  async function mayReadDuplicate(
    repo: BloodRequestsRepository,
    caller: AuthUser,
    row: BloodRequestRow,
  ): Promise<boolean> {
    const { access } = await accessOf(repo, caller, row);
    return access === 'admin' || access === 'owner' || access === 'hospital';
  }

  /**
   * The tracking link to the e-mail given with the request, at most once per
   * TRACKING_LINK_RESEND_MS (a prober cannot flood the owner's inbox). Without an e-mail on file
   * nothing is sent; the reply is the same either way.
   */
  async function sendTrackingLink(tx: Db, row: BloodRequestRow, at: Date) {
    if (!row.contactEmail) return;
    const sentAt = row.trackingLinkSentAt?.getTime();
    if (sentAt !== undefined && at.getTime() - sentAt < TRACKING_LINK_RESEND_MS) return;
    await deps.mail.enqueue(
      renderTrackingLinkMail({
        to: row.contactEmail,
        language: row.language,
        contactName: row.contactName ?? row.contactEmail,
        trackingCode: row.trackingCode,
        publicUrl: deps.config.publicUrl,
      }),
      tx,
    );
    await createBloodRequestsRepository(tx).update(row.id, {
      trackingLinkSentAt: at,
      updatedAt: row.updatedAt,
    });
  }

  /**
   * Anyone (guests too). Guests and donors → pending; hospital accounts and administrators →
   * verified, and the first matching round runs in the same transaction. Duplicate guard,
   * per-phone limit and idempotency as documented on the route.
   */
  async function create(
    caller: AuthUser | null,
    body: CreateBloodRequest,
    meta: RequestMeta,
  ): Promise<{ statusCode: 200 | 201; result: CreateBloodRequestResult; replayed: boolean }> {
    if (caller?.status === 'suspended') {
      throw new AppError('FORBIDDEN', 'Your account is suspended, so you cannot make requests.');
    }
    const actor = actorOf(caller);
    const privileged = actor.role === 'hospital' || actor.role === 'admin';

    const confirmationCode: { deliver?: () => void } = {};
    const work = async (
      tx: Db,
    ): Promise<{ statusCode: 200 | 201; body: CreateBloodRequestResult }> => {
      const repo = createBloodRequestsRepository(tx);
      const at = new Date(now());
      const nameKey = hospitalNameKey(body.hospitalName);
      // The per-phone limit comes first: past it, a duplicate is refused like anything else,
      // so the limit does not tell a prober which of its guesses matched.
      // Both are read in one statement, after the phone's lock: one phone's requests are taken
      // one at a time on every instance (the limit and the duplicate guard read, then write, so
      // parallel requests must not read the same state). The lock and the read go in one
      // message where the driver allows (db/prebuilt.ts `after`).
      const { limitedFrom, duplicate } = await phoneState(
        tx,
        {
          contactPhone: body.contactPhone,
          bloodType: body.bloodType,
          facilityId: body.facilityId ?? null,
          hospitalNameKey: nameKey,
          city: body.city,
          duplicateSince: new Date(at.getTime() - DUPLICATE_WINDOW_MS),
          limit: { max: PHONE_LIMIT.max, since: new Date(at.getTime() - PHONE_LIMIT.windowMs) },
        },
        lockStatement('blood-request-phone', body.contactPhone),
      );
      if (!privileged) checkPhoneLimit(limitedFrom, at);
      if (duplicate) {
        if (caller && (await mayReadDuplicate(repo, caller, duplicate))) {
          return {
            statusCode: 200,
            body: { request: await fullView(tx, duplicate), duplicate: true },
          };
        }
        // Anyone else learns only that it exists; its owner gets the link at the contact on file.
        await sendTrackingLink(tx, duplicate, at);
        return { statusCode: 200, body: { request: null, duplicate: true } };
      }
      // A hospital account's request is at its own facility unless it names another one.
      const ownHospital =
        actor.role === 'hospital' && caller ? await repo.hospitalOfUser(caller.id) : null;
      const facilityId = body.facilityId ?? ownHospital?.facilityId ?? null;
      const location = await locate(repo, {
        facilityId,
        latitude: body.latitude ?? null,
        longitude: body.longitude ?? null,
        pincode: body.pincode ?? null,
      });
      let hospitalId = ownHospital?.id ?? null;
      if (!hospitalId && facilityId) hospitalId = await repo.hospitalForFacility(facilityId);
      const unconfirmed = await deps.confirmation.required(
        tx,
        caller,
        privileged,
        body.contactPhone,
      );
      const status: BloodRequestStatus = privileged ? 'verified' : 'pending';
      const firstStatus: BloodRequestStatus = unconfirmed ? 'unconfirmed' : 'pending';
      const requiredBy = body.requiredBy ? new Date(body.requiredBy) : null;
      const expiresAt =
        requiredBy ?? new Date(at.getTime() + BLOOD_REQUEST_LIMITS.defaultLifetimeHours * HOUR_MS);
      const values: NewBloodRequestRow = {
        trackingCode: '',
        status: firstStatus,
        urgency: body.urgency,
        bloodType: body.bloodType,
        unitsNeeded: body.unitsNeeded,
        patientName: body.patientName ?? null,
        hospitalName: body.hospitalName,
        hospitalNameKey: nameKey,
        facilityId,
        hospitalId,
        city: body.city,
        state: body.state,
        address: body.address ?? null,
        pincode: body.pincode ?? null,
        ...location,
        contactName: body.contactName,
        contactPhone: body.contactPhone,
        contactEmail: body.contactEmail ?? null,
        // False until the code comes back (true then); stays false when no code could be sent
        // and the request goes to review unconfirmed: the verifiers see it (issue #32 item 9).
        contactPhoneConfirmed: unconfirmed ? false : null,
        requiredBy,
        // Unconfirmed, it lives only until the confirmation window closes.
        expiresAt: unconfirmed ? deps.confirmation.unconfirmedExpiry(at, expiresAt) : expiresAt,
        notes: body.notes ?? null,
        language: body.language ?? null,
        createdBy: actor.id,
        createdByRole: actor.role,
        requesterIpHash: ipHash(meta.ip),
        createdAt: at,
        updatedAt: at,
      };
      // A guest's or a donor's request with nothing to confirm awaits verification at once: the
      // staff's notifications are known before it is written, and go with it (issue #20).
      const staffNow =
        privileged || unconfirmed
          ? undefined
          : await planStaffNotifications(tx, { ...values, hospitalId });
      // The request, its first history step and its audit entry: one statement. A tracking code
      // already taken fails it, and the whole transaction runs again (below) with a new one.
      const id = randomUUID();
      const trackingCode = generateTrackingCode();
      const firstStep = {
        requestId: id,
        status: firstStatus,
        notes: null,
        by: actor.id,
        byRole: actor.role,
        at,
      };
      let row = await insertRequest(
        tx,
        { ...values, id, trackingCode },
        {
          history: firstStep,
          activity: [
            {
              action: 'blood_request.created',
              actorId: actor.id,
              actorRole: caller?.role ?? null,
              targetType: 'blood_request',
              targetId: id,
              details: {
                trackingCode,
                urgency: values.urgency,
                bloodType: values.bloodType,
                unitsNeeded: values.unitsNeeded,
                locationSource: values.locationSource,
              },
              requestId: meta.requestId,
            },
          ],
        },
        staffNow,
      );
      const rowAsCreated = row;
      if (status === 'verified') {
        row = await transition(
          tx,
          row,
          'verified',
          actor,
          'Made by a hospital or an administrator.',
          meta,
        );
      }
      let waitsForCode = unconfirmed;
      if (unconfirmed) {
        try {
          // Nobody is told until the code comes back.
          confirmationCode.deliver = (await deps.confirmation.issue(tx, row)).deliver;
        } catch (error) {
          // The number's codes for today are spent (perhaps by someone else): an emergency is
          // never refused for it; the request goes to review as it would without the flag.
          if (!(error instanceof AppError) || error.code !== 'RATE_LIMITED') throw error;
          row = await transition(tx, row, 'pending', SYSTEM, CODE_NOT_SENT_NOTE, meta);
          waitsForCode = false;
        }
      }
      if (!waitsForCode) {
        if (!staffNow) await notifyStaff(tx, row);
        // A guest is told now (pending); with a code to confirm, when it comes back.
        await deps.requester.requestReceived(tx, row);
      }
      // Nothing moved it since it was written (a guest's request): its history is the first step
      // and no donor was asked yet, so the reply needs no read (issue #20).
      const request =
        row === rowAsCreated ? toFullView(row, [firstStep], undefined) : await fullView(tx, row);
      return { statusCode: 201, body: { request, duplicate: false } };
    };

    const runOnce = async (): Promise<{ statusCode: number; body: unknown; replayed: boolean }> =>
      meta.idempotencyKey
        ? deps.idempotency.run(
            {
              key: meta.idempotencyKey,
              route: CREATE_ROUTE_KEY,
              requestHash: fingerprint({ body, caller: caller?.id ?? null }, deps.config.jwtSecret),
            },
            work,
          )
        : { ...(await db.transaction(work)), replayed: false };
    let outcome: { statusCode: number; body: unknown; replayed: boolean };
    for (let attempt = 1; ; attempt += 1) {
      try {
        outcome = await runOnce();
        break;
      } catch (error) {
        // A tracking code already taken (one chance in billions per request): nothing of the
        // attempt was kept; the request is taken again with a new code.
        if (attempt < 4 && uniqueViolation(error)?.includes('tracking_code')) {
          confirmationCode.deliver = undefined;
          continue;
        }
        throw error;
      }
    }
    // After the commit (a replay sends nothing: the code went out the first time).
    if (!outcome.replayed) confirmationCode.deliver?.();
    notifier.kick();
    deps.mail.kick();
    return {
      statusCode: outcome.statusCode === 200 ? 200 : 201,
      result: outcome.body as CreateBloodRequestResult,
      replayed: outcome.replayed,
    };
  }

  return { create };
}
