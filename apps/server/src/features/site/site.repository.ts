import { sql } from 'drizzle-orm';
import { executeRows, type Db } from '../../db/client';
import { bloodRequests, educationContent, facilities, users } from '../../db/schema';

export interface SiteCounts {
  approvedDonors: number;
  requestsFulfilled: number;
  facilitiesListed: number;
  articles: number;
}

export function createSiteRepository(db: Db) {
  return {
    /**
     * The home page's figures in one round trip. Approved donors are live donor accounts an
     * administrator approved (suspended, rejected, pending and erased ones do not count); the
     * (role, status) index serves it.
     */
    async counts(): Promise<SiteCounts> {
      const [row] = await executeRows<Record<keyof SiteCounts, number | string>>(
        db,
        sql`select
          (select count(*) from ${users}
            where ${users.role} = 'donor' and ${users.status} = 'approved'
              and ${users.deletedAt} is null) as "approvedDonors",
          (select count(*) from ${bloodRequests}
            where ${bloodRequests.status} = 'fulfilled') as "requestsFulfilled",
          (select count(*) from ${facilities}) as "facilitiesListed",
          (select count(*) from ${educationContent}
            where ${educationContent.unpublishedAt} is null) as "articles"`,
      );
      return {
        approvedDonors: Number(row?.approvedDonors ?? 0),
        requestsFulfilled: Number(row?.requestsFulfilled ?? 0),
        facilitiesListed: Number(row?.facilitiesListed ?? 0),
        articles: Number(row?.articles ?? 0),
      };
    },
  };
}

export type SiteRepository = ReturnType<typeof createSiteRepository>;
