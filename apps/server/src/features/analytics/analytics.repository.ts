import { BLOOD_TYPES } from '@bdms/shared';
import { and, count, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { executeRows, type Db } from '../../db/client';
import { bloodRequests, donations, users } from '../../db/schema';

export const SERIES_NAMES = ['registrations', 'requests', 'donations'] as const;
export type SeriesName = (typeof SERIES_NAMES)[number];

/**
 * Where each daily series comes from: a query yielding one `at` timestamp per event, or null
 * for "none yet". Blood requests count by their creation time.
 */
export type SeriesSources = Record<SeriesName, SQL | null>;

export const DEFAULT_SERIES_SOURCES: SeriesSources = {
  // Every donor registration, including accounts erased since: the registration happened.
  registrations: sql`select ${users.createdAt} as at from ${users} where ${users.role} = 'donor'`,
  // Every blood request made, whatever became of it.
  requests: sql`select ${bloodRequests.createdAt} as at from ${bloodRequests}`,
  // Reported and recorded donations alike.
  donations: sql`select ${donations.donatedAt} as at from ${donations}`,
};

export interface DailyRow {
  date: string;
  registrations: number;
  requests: number;
  donations: number;
}

const NONE = sql`select null::timestamptz as at where false`;

export function createAnalyticsRepository(db: Db, sources: SeriesSources = DEFAULT_SERIES_SOURCES) {
  return {
    /**
     * One row per UTC day from `firstDay` to `lastDay` (YYYY-MM-DD, inclusive), oldest first,
     * zero-filled by generate_series: the counting happens in the database, whatever the volume.
     */
    async dailySeries(firstDay: string, lastDay: string): Promise<DailyRow[]> {
      const from = new Date(`${firstDay}T00:00:00.000Z`);
      const until = new Date(new Date(`${lastDay}T00:00:00.000Z`).getTime() + 86_400_000);
      const counted = (name: SeriesName) => sql`
        select (s.at at time zone 'UTC')::date as day, count(*)::int as n
        from (${sources[name] ?? NONE}) as s
        where s.at >= ${from.toISOString()}::timestamptz and s.at < ${until.toISOString()}::timestamptz
        group by 1`;
      const rows = await executeRows<{
        date: string;
        registrations: number | string;
        requests: number | string;
        donations: number | string;
      }>(
        db,
        sql`
          with days as (
            select d::date as day
            from generate_series(${firstDay}::date, ${lastDay}::date, interval '1 day') as d
          ),
          registrations as (${counted('registrations')}),
          requests as (${counted('requests')}),
          donations as (${counted('donations')})
          select to_char(days.day, 'YYYY-MM-DD') as date,
            coalesce(registrations.n, 0) as registrations,
            coalesce(requests.n, 0) as requests,
            coalesce(donations.n, 0) as donations
          from days
          left join registrations on registrations.day = days.day
          left join requests on requests.day = days.day
          left join donations on donations.day = days.day
          order by days.day`,
      );
      return rows.map((row) => ({
        date: row.date,
        registrations: Number(row.registrations),
        requests: Number(row.requests),
        donations: Number(row.donations),
      }));
    },

    /** Approved live donors by blood type, every type present (zeros included). */
    async approvedByBloodType(): Promise<Record<string, number>> {
      const rows = await db
        .select({ bloodType: users.bloodType, total: count() })
        .from(users)
        .where(
          and(
            eq(users.role, 'donor'),
            eq(users.status, 'approved'),
            isNull(users.deletedAt),
            isNotNull(users.bloodType),
          ),
        )
        .groupBy(users.bloodType);
      const distribution: Record<string, number> = Object.fromEntries(
        BLOOD_TYPES.map((type) => [type, 0]),
      );
      for (const row of rows) if (row.bloodType) distribution[row.bloodType] = Number(row.total);
      return distribution;
    },
  };
}

export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;
