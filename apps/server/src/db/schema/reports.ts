import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The monthly report e-mails sent (feature flag `analyticsReporting`): one row per report month
 * (YYYY-MM), inserted by whichever server process claims the month first, so a report goes out
 * once however many processes run the job.
 */
export const reportDeliveries = pgTable('report_deliveries', {
  month: text().primaryKey(),
  claimedAt: timestamp({ withTimezone: true }).notNull(),
  recipients: integer().notNull().default(0),
});

export type ReportDeliveryRow = typeof reportDeliveries.$inferSelect;
