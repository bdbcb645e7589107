import type { Db } from '../../db/client';
import { encodeRows, insertJsonRows } from '../../db/json-rows';
import { ph, prebuilt, type Alongside } from '../../db/prebuilt';
import { notificationDeliveries, notifications, type NewNotificationRow } from '../../db/schema';
import type { DeliveryInsert } from './channels/channel';

/** What telling some people writes (Notifier.planMany): their notifications and deliveries. */
export interface NotificationBatch {
  /** Each recipient's notification id, in order; null for one told nothing. */
  ids: (string | null)[];
  notifications: NewNotificationRow[];
  deliveries: DeliveryInsert[];
}

/**
 * The batch as the values of its statements: `n` the notifications, `d` their deliveries, each
 * one JSON parameter however many rows there are (db/json-rows.ts).
 */
export function notificationBatchValues(batch: NotificationBatch): { n: string; d: string } {
  return {
    n: encodeRows(notifications, batch.notifications),
    d: encodeRows(notificationDeliveries, batch.deliveries),
  };
}

/**
 * The batch's inserts, to go alongside another statement (db/prebuilt.ts) with
 * `notificationBatchValues` among its values. A delivery points at its notification: foreign
 * keys are checked at the end of the whole statement.
 */
export function notificationBatchStatements(db: Db): Alongside[] {
  return [
    insertJsonRows(db, notifications, ph('n')),
    insertJsonRows(db, notificationDeliveries, ph('d')),
  ];
}

const writeStatement = prebuilt<{ n: string; d: string }, unknown>((db) => {
  const [inApp, deliveries] = notificationBatchStatements(db) as [Alongside, Alongside];
  return { main: inApp as unknown as PromiseLike<unknown>, alongside: [deliveries] };
});

/** The batch in one statement, built once (nothing when it is empty). */
export async function writeNotificationBatch(db: Db, batch: NotificationBatch): Promise<void> {
  if (batch.notifications.length === 0 && batch.deliveries.length === 0) return;
  await writeStatement(db, notificationBatchValues(batch));
}
