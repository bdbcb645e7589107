import {
  HOSPITAL_INVITATION_TTL_HOURS,
  type CreateHospital,
  type DirectoryEntry,
  type HospitalAccount,
  type HospitalPage,
} from '@bdms/shared';
import type { Config } from '../../config/env';
import type { Db } from '../../db/client';
import type { FacilityRow } from '../../db/schema';
import { createActivityLog } from '../../lib/activity-log';
import { AppError } from '../../lib/app-error';
import { uniqueViolation } from '../../lib/db-errors';
import { fingerprint, type Idempotency } from '../../lib/idempotency';
import type { Mailer } from '../notifications/mail/mailer';
import { renderHospitalDecisionMail, renderInvitationMail } from '../notifications/mail/templates';
import type { RequestMeta } from '../../lib/request-context';
import { REVOKE_REASONS, type Sessions } from '../../lib/sessions';
import { issueSetPasswordLink } from '../../lib/set-password-links';
import { generateOpaqueToken } from '../../lib/tokens';
import type { AuthUser } from '../../plugins/auth';
import {
  createHospitalsRepository,
  type HospitalFilter,
  type HospitalWithAccount,
} from './hospitals.repository';

export const CREATE_HOSPITAL_ROUTE_KEY = 'POST /api/v1/admin/hospitals';

export interface HospitalsServiceDeps {
  db: Db;
  mail: Pick<Mailer, 'enqueue' | 'kick'>;
  sessions: Pick<Sessions, 'revokeAll'>;
  idempotency: Idempotency;
  config: Pick<Config, 'publicUrl' | 'jwtSecret'>;
  now?: () => number;
  /**
   * The blood-requests feature, composed in services.ts (features do not import each other):
   * re-points the open requests naming a facility once a hospital of it changed standing.
   */
  requests?: FacilityRequests;
}

/** What the hospitals feature needs of blood requests (issue #32 item 14). */
export interface FacilityRequests {
  /** In `tx`: open requests naming the facility point at its verified, enabled hospital. */
  repointFacility(tx: Db, facilityId: string): Promise<number>;
  /** After the commit: deliver what re-pointing wrote. */
  kick(): void;
}

const notFound = () => new AppError('NOT_FOUND', 'There is no hospital with this id.');
const emailTaken = () =>
  new AppError('EMAIL_TAKEN', 'An account with this e-mail address already exists.', [
    { path: 'body.email', message: 'An account with this e-mail address already exists.' },
  ]);
const phoneTaken = () =>
  new AppError('PHONE_TAKEN', 'An account with this phone number already exists.', [
    { path: 'body.phone', message: 'An account with this phone number already exists.' },
  ]);

export function toDirectoryEntry(facility: FacilityRow): DirectoryEntry {
  return {
    id: facility.id,
    name: facility.name,
    address: facility.address,
    city: facility.city,
    district: facility.district,
    state: facility.state,
    pincode: facility.pincode,
    phone: facility.phone,
    mobile: facility.mobile,
    email: facility.email,
    category: facility.category,
    licenceNumber: facility.licenceNumber,
    licenceObtained: facility.licenceObtained,
    licenceRenewed: facility.licenceRenewed,
  };
}

export function toHospitalAccount({
  hospital,
  user,
  facility,
  claimedBy,
}: HospitalWithAccount): HospitalAccount {
  return {
    id: hospital.id,
    userId: user?.id ?? '',
    name: hospital.name,
    email: user?.email ?? '',
    phone: hospital.phone ?? user?.phone ?? null,
    city: hospital.city,
    state: hospital.state,
    facilityId: hospital.facilityId,
    disabled: hospital.disabledAt !== null,
    createdAt: hospital.createdAt.toISOString(),
    verificationStatus: hospital.verificationStatus,
    registeredVia: hospital.registeredVia,
    licenceNumber: hospital.licenceNumber,
    contactName: hospital.contactName,
    // Invited accounts proved their address by using the e-mailed link.
    emailConfirmed: hospital.registeredVia === 'invitation' || hospital.emailConfirmedAt !== null,
    phoneConfirmed: hospital.phoneConfirmedAt !== null || Boolean(user?.phoneVerifiedAt),
    verifiedAt: hospital.verifiedAt?.toISOString() ?? null,
    rejectionReason: hospital.rejectionReason,
    directoryEntry: facility ? toDirectoryEntry(facility) : null,
    claimedBy: claimedBy ?? [],
  };
}

/**
 * Hospital accounts, created by administrators. The account starts approved with a password
 * nobody knows (not a valid hash, so no password matches it) and the hospital chooses its own
 * through an e-mailed set-password link: the password-reset machinery with purpose
 * `invitation`, valid HOSPITAL_INVITATION_TTL_HOURS. The invitation is an account e-mail, sent
 * whatever the flags and settings say.
 */
export function createHospitalsService(deps: HospitalsServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const repository = createHospitalsRepository(db);

  async function create(tx: Db, caller: AuthUser, input: CreateHospital, meta: RequestMeta) {
    const repo = createHospitalsRepository(tx);
    if (await repo.isEmailTaken(input.email)) throw emailTaken();
    if (await repo.isPhoneTaken(input.phone)) throw phoneTaken();
    const at = now();
    const hospital = await repo.insertHospital({
      name: input.name,
      facilityId: input.facilityId ?? null,
      city: input.city,
      state: input.state,
      phone: input.phone,
      createdAt: new Date(at),
    });
    const user = await repo.insertUser({
      email: input.email,
      passwordHash: `!invited:${generateOpaqueToken()}`,
      role: 'hospital',
      status: 'approved',
      fullName: input.name,
      phone: input.phone,
      city: input.city,
      state: input.state,
      language: input.language ?? 'en',
      hospitalId: hospital.id,
      createdAt: new Date(at),
    });
    const { link } = await issueSetPasswordLink(tx, {
      userId: user.id,
      purpose: 'invitation',
      now: at,
      publicUrl: deps.config.publicUrl,
    });
    const mail = renderInvitationMail({
      language: user.language,
      hospitalName: hospital.name,
      link,
      hours: HOSPITAL_INVITATION_TTL_HOURS,
      publicUrl: deps.config.publicUrl,
    });
    await deps.mail.enqueue(
      { to: user.email, userId: user.id, kind: 'hospital_invitation', ...mail },
      tx,
    );
    await createActivityLog(tx).record({
      action: 'hospital.created',
      actorId: caller.id,
      actorRole: caller.role,
      targetType: 'hospital',
      targetId: hospital.id,
      details: { userId: user.id, facilityId: hospital.facilityId },
      requestId: meta.requestId,
    });
    return toHospitalAccount({ hospital, user });
  }

  async function setDisabled(
    caller: AuthUser,
    id: string,
    disabled: boolean,
    meta: RequestMeta,
  ): Promise<HospitalAccount> {
    await db.transaction(async (tx) => {
      const repo = createHospitalsRepository(tx);
      const hospital = await repo.lock(id);
      if (!hospital) throw notFound();
      // Already so: nothing changes and nothing is logged again.
      if ((hospital.disabledAt !== null) === disabled) return;
      await repo.setDisabledAt(id, disabled ? new Date(now()) : null);
      // A disabled hospital speaks for its facility no more; enabled again, it may once more.
      if (hospital.facilityId) await deps.requests?.repointFacility(tx, hospital.facilityId);
      const accounts = await repo.listAccountIds(id);
      if (disabled) {
        for (const userId of accounts) {
          await deps.sessions.revokeAll(userId, REVOKE_REASONS.accountDisabled, tx);
        }
      }
      await createActivityLog(tx).record({
        action: disabled ? 'hospital.disabled' : 'hospital.enabled',
        actorId: caller.id,
        actorRole: caller.role,
        targetType: 'hospital',
        targetId: id,
        details: { accounts: accounts.length },
        requestId: meta.requestId,
      });
    });
    deps.requests?.kick();
    const found = await repository.findById(id);
    if (!found) throw notFound();
    return toHospitalAccount(found);
  }

  return {
    /**
     * A hospital and its account, with the invitation e-mailed. Idempotent by X-Request-ID: a
     * retry returns the first reply (and sends nothing again).
     */
    async create(
      caller: AuthUser,
      input: CreateHospital,
      meta: RequestMeta,
    ): Promise<{ hospital: HospitalAccount; replayed: boolean }> {
      try {
        if (!meta.idempotencyKey) {
          const hospital = await db.transaction((tx) => create(tx, caller, input, meta));
          deps.mail.kick();
          return { hospital, replayed: false };
        }
        const reply = await deps.idempotency.run(
          {
            key: meta.idempotencyKey,
            route: CREATE_HOSPITAL_ROUTE_KEY,
            requestHash: fingerprint(input, deps.config.jwtSecret),
          },
          async (tx) => ({ statusCode: 201, body: await create(tx, caller, input, meta) }),
        );
        if (!reply.replayed) deps.mail.kick();
        return { hospital: reply.body as HospitalAccount, replayed: reply.replayed };
      } catch (error) {
        // Two creations racing past the checks: the unique index decides.
        const constraint = uniqueViolation(error);
        if (constraint?.includes('email')) throw emailTaken();
        if (constraint?.includes('phone')) throw phoneTaken();
        throw error;
      }
    },

    async list(page: number, pageSize: number, filter: HospitalFilter = {}): Promise<HospitalPage> {
      const { items, total } = await repository.listPage(page, pageSize, filter);
      return { items: items.map(toHospitalAccount), total, page, pageSize };
    },

    /**
     * An administrator's decision on a hospital that registered itself (issue #17): `verified`
     * from pending or rejected (its e-mail must be confirmed), `rejected` with a reason from
     * pending. Anything else is 409 INVALID_TRANSITION. The contact is mailed either way (an
     * account e-mail, sent whatever the flags say), and the decision is in the activity log.
     */
    async decide(
      caller: AuthUser,
      id: string,
      decision: { status: 'verified' } | { status: 'rejected'; reason: string },
      meta: RequestMeta,
    ): Promise<HospitalAccount> {
      await db.transaction(async (tx) => {
        const repo = createHospitalsRepository(tx);
        const hospital = await repo.lock(id);
        if (!hospital) throw notFound();
        const from = hospital.verificationStatus;
        const allowed =
          decision.status === 'verified'
            ? from === 'pending' || from === 'rejected'
            : from === 'pending';
        if (!allowed) {
          throw new AppError(
            'INVALID_TRANSITION',
            `This hospital is ${from}; it cannot be ${decision.status} now.`,
          );
        }
        if (decision.status === 'verified' && hospital.emailConfirmedAt === null) {
          throw new AppError(
            'CONFLICT',
            'The hospital has not confirmed its e-mail address yet: it cannot be verified before.',
          );
        }
        const at = new Date(now());
        await repo.setVerification(
          id,
          decision.status === 'verified'
            ? {
                verificationStatus: 'verified',
                verifiedAt: at,
                verifiedBy: caller.id,
                rejectionReason: null,
              }
            : {
                verificationStatus: 'rejected',
                verifiedAt: null,
                verifiedBy: caller.id,
                rejectionReason: decision.reason,
              },
        );
        // Issue #32 item 14: the requests naming the facility go to whoever now speaks for it
        // (this hospital once verified, unless an older verified one does; away from it when
        // rejected), and a newly verified hospital is told of those awaiting verification.
        if (hospital.facilityId) await deps.requests?.repointFacility(tx, hospital.facilityId);
        const found = await repo.findById(id);
        const account = found?.user;
        if (account) {
          const [language] = await repo.languageOf(account.id);
          const mail = renderHospitalDecisionMail({
            language: language?.language,
            name: hospital.contactName ?? hospital.name,
            hospitalName: hospital.name,
            decision: decision.status,
            reason: decision.status === 'rejected' ? decision.reason : null,
            link: `${deps.config.publicUrl}/hospital/login`,
            publicUrl: deps.config.publicUrl,
          });
          await deps.mail.enqueue(
            {
              to: account.email,
              userId: account.id,
              kind: decision.status === 'verified' ? 'hospital_verified' : 'hospital_rejected',
              ...mail,
            },
            tx,
          );
        }
        await createActivityLog(tx).record({
          action: decision.status === 'verified' ? 'hospital.verified' : 'hospital.rejected',
          actorId: caller.id,
          actorRole: caller.role,
          targetType: 'hospital',
          targetId: id,
          details:
            decision.status === 'rejected'
              ? { from, reason: decision.reason }
              : { from, facilityId: hospital.facilityId },
          requestId: meta.requestId,
        });
      });
      deps.mail.kick();
      deps.requests?.kick();
      const found = await repository.findById(id);
      if (!found) throw notFound();
      return toHospitalAccount(found);
    },

    async get(id: string): Promise<HospitalAccount> {
      const found = await repository.findById(id);
      if (!found) throw notFound();
      return toHospitalAccount(found);
    },

    /** Signs the hospital's accounts out everywhere; sign-in is then 403 ACCOUNT_DISABLED. */
    disable: (caller: AuthUser, id: string, meta: RequestMeta) =>
      setDisabled(caller, id, true, meta),
    enable: (caller: AuthUser, id: string, meta: RequestMeta) =>
      setDisabled(caller, id, false, meta),
  };
}

export type HospitalsService = ReturnType<typeof createHospitalsService>;
