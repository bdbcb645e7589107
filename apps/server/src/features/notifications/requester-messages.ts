import { normalizeIndianPhone } from '@bdms/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  notificationDeliveries,
  type BloodRequestRow,
  type DeliveryChannel,
} from '../../db/schema';
import type { RequesterMessageKind } from './channels/channel';
import type { Notifier } from './notifier';

/** The web app's tracking page of a request (apps/web: /emergency?track=CODE). */
export function trackingPath(trackingCode: string): string {
  return `/emergency?track=${encodeURIComponent(trackingCode)}`;
}

export interface RequesterMessagesDeps {
  notifier: Pick<Notifier, 'messageRequester'>;
  publicUrl: string;
  now: () => number;
}

/**
 * A guest requester (no account: nothing in-app, no e-mail unless they gave one) is told on
 * the request's contact phone, through the notification outbox in the event's transaction:
 * `request_received` when the request goes to review (`pending`: at once, or once its code
 * came back; never while `unconfirmed`, when the code SMS is what goes), and `donor_coming`
 * when the first donor accepts. Each carries the tracking code and link, never a phone number
 * or the patient's name; at most one of each kind per request. A signed-in requester is told
 * by `notify` instead (in-app, e-mail, and their own phone channels if they chose them).
 */
export function createRequesterMessages(deps: RequesterMessagesDeps) {
  async function tell(
    tx: Db,
    row: BloodRequestRow,
    kind: RequesterMessageKind,
  ): Promise<DeliveryChannel | null> {
    if (row.createdBy !== null || row.createdByRole !== 'guest') return null;
    // A demo request's contact (the mockData flag) is never messaged.
    if (row.isDemo) return null;
    if (row.status !== (kind === 'request_received' ? 'pending' : 'in_progress')) return null;
    // A landline takes no SMS or WhatsApp; a scrubbed request has no phone.
    const destination = row.contactPhone ? normalizeIndianPhone(row.contactPhone) : null;
    if (!destination) return null;
    // The caller holds the request's row lock, so this read and the insert are not raced. Asked
    // only when a channel has a message to queue (issue #20: no statement when none would).
    const alreadySent = async () => {
      const [already] = await tx
        .select({ id: notificationDeliveries.id })
        .from(notificationDeliveries)
        .where(
          and(
            eq(notificationDeliveries.bloodRequestId, row.id),
            isNull(notificationDeliveries.notificationId),
            sql`${notificationDeliveries.payload} ->> 'kind' = ${kind}`,
          ),
        )
        .limit(1);
      return already !== undefined;
    };
    return deps.notifier.messageRequester(tx, {
      kind,
      bloodRequestId: row.id,
      destination,
      language: row.language,
      trackingCode: row.trackingCode,
      trackingUrl: `${deps.publicUrl}${trackingPath(row.trackingCode)}`,
      critical: row.urgency === 'critical',
      at: new Date(deps.now()),
      alreadySent,
    });
  }

  return {
    /** The request went to review (`pending`). */
    requestReceived: (tx: Db, row: BloodRequestRow) => tell(tx, row, 'request_received'),
    /** The first donor accepted (`in_progress`). */
    donorComing: (tx: Db, row: BloodRequestRow) => tell(tx, row, 'donor_coming'),
  };
}

export type RequesterMessages = ReturnType<typeof createRequesterMessages>;
