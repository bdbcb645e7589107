import { and, count, desc, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryAll } from '../../lib/query-all';
import {
  activityLog,
  bloodRequests,
  channelConsents,
  clientLogs,
  consentRecords,
  documents,
  donations,
  idempotencyKeys,
  mailOutbox,
  notifications,
  oneTimeCodes,
  passwordResetTokens,
  pushSubscriptions,
  questionnaires,
  refreshTokens,
  users,
  type ActivityLogRow,
  type NewUserRow,
  type UserRow,
} from '../../db/schema';

export type ProfileChanges = Partial<
  Pick<
    NewUserRow,
    | 'fullName'
    | 'phone'
    | 'city'
    | 'state'
    | 'pincode'
    | 'bloodType'
    | 'available'
    | 'language'
    | 'availableUntil'
    | 'availabilityConfirmedAt'
    | 'availabilityRemindedAt'
  >
>;

/** Activity where the user acted or was acted on. */
const involving = (userId: string) =>
  or(
    eq(activityLog.actorId, userId),
    and(eq(activityLog.targetType, 'user'), eq(activityLog.targetId, userId)),
  );

export function createUsersRepository(db: Db) {
  return {
    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    async findIdByPhone(phone: string): Promise<string | undefined> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.phone, phone))
        .limit(1);
      return row?.id;
    },

    /** Throws the driver's unique violation when the phone belongs to someone else. */
    async updateProfile(id: string, changes: ProfileChanges): Promise<UserRow | undefined> {
      const [row] = await db.update(users).set(changes).where(eq(users.id, id)).returning();
      return row;
    },

    async setPasswordHash(id: string, passwordHash: string): Promise<void> {
      await db.update(users).set({ passwordHash }).where(eq(users.id, id));
    },

    async listActivity(
      userId: string,
      limit: number,
      offset = 0,
    ): Promise<{ items: ActivityLogRow[]; total: number }> {
      const [items, [totals]] = await queryAll(db, [
        () =>
          db
            .select()
            .from(activityLog)
            .where(involving(userId))
            .orderBy(desc(activityLog.at), desc(activityLog.id))
            .limit(limit)
            .offset(offset),
        () => db.select({ total: count() }).from(activityLog).where(involving(userId)),
      ]);
      return { items, total: Number(totals?.total ?? 0) };
    },

    async exportRows(userId: string) {
      const [consents, donationRows, notificationRows, subscriptions] = await queryAll(db, [
        () => db.select().from(consentRecords).where(eq(consentRecords.userId, userId)),
        () =>
          db
            .select()
            .from(donations)
            .where(eq(donations.donorId, userId))
            .orderBy(desc(donations.donatedAt)),
        () =>
          db
            .select()
            .from(notifications)
            .where(eq(notifications.userId, userId))
            .orderBy(desc(notifications.createdAt)),
        () => db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)),
      ]);
      return { consents, donations: donationRows, notifications: notificationRows, subscriptions };
    },

    async countLiveAdmins(): Promise<number> {
      const [row] = await db
        .select({ total: count() })
        .from(users)
        .where(and(eq(users.role, 'admin'), sql`${users.deletedAt} is null`));
      return Number(row?.total ?? 0);
    },

    /**
     * Erasure (DPDP Act 2023, s. 12): deletes everything personal the user has — documents'
     * rows (files are removed by the caller after commit), questionnaire, notifications, push
     * subscriptions, sessions, codes, consent records, mail, stored register and blood request
     * replies, the notes of their blood requests; unlinks
     * their client logs — and
     * turns the users row into a tombstone that keeps donations counted. Returns the documents
     * whose files must go.
     */
    async erase(userId: string, at: Date) {
      const removedDocuments = await db
        .delete(documents)
        .where(eq(documents.userId, userId))
        .returning({ storageName: documents.storageName });
      await db.delete(questionnaires).where(eq(questionnaires.userId, userId));
      await db.delete(notifications).where(eq(notifications.userId, userId));
      await db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
      await db.delete(refreshTokens).where(eq(refreshTokens.userId, userId));
      await db.delete(oneTimeCodes).where(eq(oneTimeCodes.userId, userId));
      await db.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId));
      await db.delete(consentRecords).where(eq(consentRecords.userId, userId));
      // Issue #32 item 6: the SMS and WhatsApp consents (with the number they were for) go too.
      await db.delete(channelConsents).where(eq(channelConsents.userId, userId));
      await db.delete(mailOutbox).where(eq(mailOutbox.userId, userId));
      // What their browser reported stays for diagnosis, no longer tied to them.
      await db.update(clientLogs).set({ userId: null }).where(eq(clientLogs.userId, userId));
      // Issue #32 item 19: their requests' notes are their own words (often a name, a phone,
      // a ward). The history's notes are the platform's and the staff's, and stay.
      await db
        .update(bloodRequests)
        .set({ notes: null })
        .where(eq(bloodRequests.createdBy, userId));
      // A stored registration reply holds the user object with e-mail and phone; a stored reply
      // of creating a blood request holds the request as made (contact, patient, notes).
      await db
        .delete(idempotencyKeys)
        .where(
          or(
            sql`${idempotencyKeys.body} -> 'user' ->> 'id' = ${userId}`,
            sql`${idempotencyKeys.body} -> 'request' ->> 'id' in (select ${bloodRequests.id}::text from ${bloodRequests} where ${bloodRequests.createdBy} = ${userId})`,
          ),
        );
      await db
        .update(users)
        .set({
          email: `deleted-${userId}@invalid`,
          // Not a hash any verifier accepts: nobody can sign in.
          passwordHash: '!erased',
          fullName: 'Deleted user',
          phone: null,
          bloodType: null,
          gender: null,
          dateOfBirth: null,
          city: null,
          state: null,
          pincode: null,
          latitude: null,
          longitude: null,
          available: false,
          availableUntil: null,
          availabilityConfirmedAt: null,
          availabilityRemindedAt: null,
          rejectionReason: null,
          suspensionReason: null,
          language: 'en',
          lastLoginAt: null,
          // Referrals: the code stops working and the address hash goes; who invited whom
          // stays (the inviter's count does not shrink), never named again.
          referralCode: null,
          referralShared: false,
          registrationAddressHash: null,
          deletedAt: at,
          tokenVersion: sql`${users.tokenVersion} + 1`,
        })
        .where(eq(users.id, userId));
      return removedDocuments;
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
