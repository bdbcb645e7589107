import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { executeRows, type Db } from '../../db/client';
import { reportDeliveries, users } from '../../db/schema';

/** A timestamp's Indian calendar day: India is UTC+5:30 all year (no daylight saving). */
const indianDay = (column: string) =>
  sql.raw(`to_char((${column} + interval '330 minutes') at time zone 'UTC', 'YYYY-MM-DD')`);

export interface DayStateCount {
  day: string;
  state: string | null;
  n: number;
  units: number;
}

interface Window {
  from: Date;
  until: Date;
}

const num = (value: number | string | null | undefined): number => Number(value ?? 0);

/**
 * A request anyone saw: not a guest's request whose phone code never came back (issue #16:
 * `unconfirmed`, in no list, nobody told; it expires so). Its history says whether it ever was.
 */
const everConfirmed = sql.raw(`r.status <> 'unconfirmed' and (
  not exists (
    select 1 from blood_request_history h where h.request_id = r.id and h.status = 'unconfirmed'
  ) or exists (
    select 1 from blood_request_history h where h.request_id = r.id and h.status = 'pending'
  ))`);

export function createReportsRepository(db: Db) {
  const between = (column: string, window: Window) =>
    sql`${sql.raw(column)} >= ${window.from.toISOString()}::timestamptz and ${sql.raw(column)} < ${window.until.toISOString()}::timestamptz`;

  async function dayState(query: ReturnType<typeof sql>): Promise<DayStateCount[]> {
    const rows = await executeRows<{
      day: string;
      state: string | null;
      n: number | string;
      units: number | string | null;
    }>(db, query);
    return rows.map((row) => ({
      day: row.day,
      state: row.state,
      n: num(row.n),
      units: num(row.units),
    }));
  }

  return {
    /** Donor accounts created in the window, erased ones included, by Indian day and state. */
    registrations(window: Window): Promise<DayStateCount[]> {
      return dayState(sql`
        select ${indianDay('u.created_at')} as day, nullif(trim(u.state), '') as state,
          count(*)::int as n, 0 as units
        from users u
        where u.role = 'donor' and ${between('u.created_at', window)}
        group by 1, 2`);
    },

    /** Approvals (the activity log's `donor.approved`) in the window, by the donor's state. */
    approvals(window: Window): Promise<DayStateCount[]> {
      return dayState(sql`
        select ${indianDay('a.at')} as day, nullif(trim(u.state), '') as state,
          count(*)::int as n, 0 as units
        from activity_log a
        left join users u on a.target_type = 'user' and u.id::text = a.target_id
        where a.action = 'donor.approved' and ${between('a.at', window)}
        group by 1, 2`);
    },

    /**
     * Blood requests made in the window, by Indian day and the request's state (a guest's request
     * never confirmed by its phone code is left out).
     */
    requests(window: Window): Promise<DayStateCount[]> {
      return dayState(sql`
        select ${indianDay('r.created_at')} as day, nullif(trim(r.state), '') as state,
          count(*)::int as n, 0 as units
        from blood_requests r
        where ${between('r.created_at', window)} and ${everConfirmed}
        group by 1, 2`);
    },

    /**
     * Donations made in the window (recorded and reported) by Indian day and state: the donor's
     * state, else (an erased donor) the state of the request it answered.
     */
    donations(window: Window): Promise<DayStateCount[]> {
      return dayState(sql`
        select ${indianDay('d.donated_at')} as day,
          coalesce(nullif(trim(u.state), ''), nullif(trim(r.state), '')) as state,
          count(*)::int as n, coalesce(sum(d.units), 0)::int as units
        from donations d
        left join users u on u.id = d.donor_id
        left join blood_requests r on r.id = d.request_id
        where ${between('d.donated_at', window)}
        group by 1, 2`);
    },

    /** Requests made in the window by urgency and current status. */
    async requestsByUrgencyAndStatus(
      window: Window,
    ): Promise<{ urgency: string; status: string; n: number }[]> {
      const rows = await executeRows<{ urgency: string; status: string; n: number | string }>(
        db,
        sql`
          select r.urgency, r.status, count(*)::int as n
          from blood_requests r
          where ${between('r.created_at', window)} and ${everConfirmed}
          group by 1, 2`,
      );
      return rows.map((row) => ({ urgency: row.urgency, status: row.status, n: num(row.n) }));
    },

    /**
     * For requests made in the window that a donor accepted: how many, and the median and mean
     * minutes from the request to its first acceptance (counted in the database). An acceptance
     * the donor later withdrew (issue #18) still counts at the time it was given: the match row
     * then says `withdrawn` (at the withdrawal), the activity log keeps the acceptance.
     */
    async firstAcceptance(
      window: Window,
    ): Promise<{ accepted: number; median: number | null; average: number | null }> {
      const [row] = await executeRows<{
        accepted: number | string;
        median: number | string | null;
        average: number | string | null;
      }>(
        db,
        sql`
          with acceptances as (
            select m.request_id::text as request_id, m.responded_at as at
            from blood_request_matches m
            where m.response = 'accepted' and m.responded_at >= ${window.from.toISOString()}::timestamptz
            union all
            select a.target_id as request_id, a.at
            from activity_log a
            where a.action = 'blood_request.responded' and a.target_type = 'blood_request'
              and a.details->>'response' = 'accepted'
              -- No answer comes before its request: the month's start bounds the scan.
              and a.at >= ${window.from.toISOString()}::timestamptz
          ),
          firsts as (
            select extract(epoch from (min(x.at) - r.created_at)) / 60.0 as minutes
            from blood_requests r
            join acceptances x on x.request_id = r.id::text
            where ${between('r.created_at', window)} and ${everConfirmed}
            group by r.id, r.created_at
          )
          select count(*)::int as accepted,
            percentile_cont(0.5) within group (order by minutes) as median,
            avg(minutes) as average
          from firsts`,
      );
      return {
        accepted: num(row?.accepted),
        median: row?.median === null || row?.median === undefined ? null : Number(row.median),
        average: row?.average === null || row?.average === undefined ? null : Number(row.average),
      };
    },

    /** Claims a month's e-mail for this process; false: another process (or run) had it. */
    async claimDelivery(month: string, at: Date): Promise<boolean> {
      const rows = await db
        .insert(reportDeliveries)
        .values({ month, claimedAt: at })
        .onConflictDoNothing()
        .returning({ month: reportDeliveries.month });
      return rows.length === 1;
    },

    async recordRecipients(month: string, recipients: number): Promise<void> {
      await db
        .update(reportDeliveries)
        .set({ recipients })
        .where(eq(reportDeliveries.month, month));
    },

    /** Administrators who can sign in (not erased, not suspended): the report's readers. */
    administrators(): Promise<{ id: string; email: string; language: string }[]> {
      return db
        .select({ id: users.id, email: users.email, language: users.language })
        .from(users)
        .where(
          and(eq(users.role, 'admin'), isNull(users.deletedAt), ne(users.status, 'suspended')),
        );
    },
  };
}

export type ReportsRepository = ReturnType<typeof createReportsRepository>;
