import { REFERRAL_CLUSTER_MIN_ACCOUNTS } from '@bdms/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { executeRows, type Db } from '../../db/client';
import { users } from '../../db/schema';

/**
 * An invitee who counts towards the inviter's badges (issue #32 item 20): an account an
 * administrator approved and that is not erased. A pending registration, a rejected or suspended
 * one, or an erased account is a name on a form, not a donor the inviter brought.
 */
const APPROVED_INVITEE = sql`u.status = 'approved' and u.deleted_at is null`;

export function createReferralsRepository(db: Db) {
  return {
    async findCode(userId: string): Promise<string | null> {
      const [current] = await db
        .select({ code: users.referralCode })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return current?.code ?? null;
    },

    /** Only if the account has none yet: two first visits at once end with one code. */
    async setCodeIfNone(userId: string, code: string): Promise<void> {
      await db
        .update(users)
        .set({ referralCode: code })
        .where(and(eq(users.id, userId), isNull(users.referralCode)));
    },

    /**
     * The inviter's counts: everyone who registered with the code (`joined`), those who gave
     * blood since (`donated`) and those approved and not erased (`approved`, what badges count).
     */
    async inviteeCounts(
      referrerId: string,
    ): Promise<{ joined: number; donated: number; approved: number }> {
      const [counts] = await executeRows<{
        joined: number | string;
        donated: number | string;
        approved: number | string;
      }>(
        db,
        sql`
          select count(*)::int as joined,
            count(*) filter (where exists (
              select 1 from donations d where d.donor_id = u.id
            ))::int as donated,
            count(*) filter (where ${APPROVED_INVITEE})::int as approved
          from users u where u.referred_by = ${referrerId}`,
      );
      return {
        joined: Number(counts?.joined ?? 0),
        donated: Number(counts?.donated ?? 0),
        approved: Number(counts?.approved ?? 0),
      };
    },

    /** Invitees who agreed to be named to the inviter, newest first (50 at most). */
    sharedInvitees(referrerId: string) {
      return executeRows<{ full_name: string; created_at: Date | string; donated: boolean }>(
        db,
        sql`
          select u.full_name, u.created_at,
            exists (select 1 from donations d where d.donor_id = u.id) as donated
          from users u
          where u.referred_by = ${referrerId} and u.referral_shared and u.deleted_at is null
          order by u.created_at desc
          limit 50`,
      );
    },

    async totals() {
      const [totals] = await executeRows<{
        referred: number | string;
        donated: number | string;
        referrers: number | string;
      }>(
        db,
        sql`
          select count(*)::int as referred,
            count(*) filter (where exists (
              select 1 from donations d where d.donor_id = u.id
            ))::int as donated,
            count(distinct u.referred_by)::int as referrers
          from users u where u.referred_by is not null`,
      );
      return totals;
    },

    topReferrers() {
      return executeRows<{
        id: string;
        full_name: string;
        joined: number | string;
        donated: number | string;
      }>(
        db,
        sql`
          select r.id, r.full_name, count(*)::int as joined,
            count(*) filter (where exists (
              select 1 from donations d where d.donor_id = u.id
            ))::int as donated
          from users u join users r on r.id = u.referred_by
          group by r.id, r.full_name
          order by joined desc, r.full_name
          limit 20`,
      );
    },

    addressClusters() {
      return executeRows<{
        hash: string;
        accounts: number | string;
        referred: number | string;
        first_at: Date | string;
        last_at: Date | string;
      }>(
        db,
        sql`
          select u.registration_address_hash as hash, count(*)::int as accounts,
            count(u.referred_by)::int as referred,
            min(u.created_at) as first_at, max(u.created_at) as last_at
          from users u
          where u.registration_address_hash is not null
          group by 1
          having count(*) >= ${REFERRAL_CLUSTER_MIN_ACCOUNTS}
          order by accounts desc, last_at desc
          limit 20`,
      );
    },

    /** The newest 10 accounts of each address cluster. */
    clusterMembers(hashes: readonly string[]) {
      if (hashes.length === 0) return Promise.resolve([]);
      return executeRows<{
        hash: string;
        id: string;
        full_name: string;
        created_at: Date | string;
        referrer_name: string | null;
      }>(
        db,
        sql`
          select * from (
            select u.registration_address_hash as hash, u.id, u.full_name, u.created_at,
              r.full_name as referrer_name,
              row_number() over (
                partition by u.registration_address_hash order by u.created_at desc
              ) as n
            from users u left join users r on r.id = u.referred_by
            where u.registration_address_hash in (${sql.join(
              hashes.map((hash) => sql`${hash}`),
              sql`, `,
            )})
          ) ranked
          where n <= 10
          order by created_at desc`,
      );
    },
  };
}

export type ReferralsRepository = ReturnType<typeof createReferralsRepository>;
