import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { mailOutbox, notificationDeliveries, notifications } from '../../../db/schema';
import { signIn } from '../../../test/donor-helpers';
import { useTestApp } from '../../../test/test-app';
import type * as MailTemplates from '../mail/templates';

// A message whose e-mail cannot be written (a template bug) is simulated by its title.
vi.mock('../mail/templates', async (importOriginal) => {
  const actual = await importOriginal<typeof MailTemplates>();
  return {
    ...actual,
    renderNotificationMail: (input: Parameters<typeof actual.renderNotificationMail>[0]) => {
      if (input.title === 'Unwritable') throw new Error('No template for this message.');
      return actual.renderNotificationMail(input);
    },
  };
});

const subject = useTestApp({ env: { FEATURE_FLAGS: 'emailNotifications' } });

describe('e-mail deliveries in a batch', () => {
  it('one message that cannot be written waits alone; the rest of the batch goes to the outbox', async () => {
    const db = subject.db;
    const donors = [];
    for (let i = 0; i < 3; i += 1) donors.push(await signIn(subject.app, db));
    for (const donor of donors) {
      await subject.app.services.notifier.notify(db, donor.row.id, {
        type: 'donor.approved',
        reachOut: true,
      });
    }
    const [stuck] = await db
      .update(notifications)
      .set({ title: 'Unwritable' })
      .where(eq(notifications.userId, donors[1]!.row.id))
      .returning();

    expect(await subject.app.services.notifier.deliverDue()).toBe(3);

    const rows = await db.select().from(notificationDeliveries);
    expect(rows.find((row) => row.notificationId === stuck!.id)).toMatchObject({
      status: 'queued',
      attempts: 1,
      lastError: 'No template for this message.',
    });
    expect(rows.filter((row) => row.status === 'sent')).toHaveLength(2);
    const outbox = await db.select().from(mailOutbox);
    expect(outbox.map((row) => row.userId).sort()).toEqual(
      [donors[0]!.row.id, donors[2]!.row.id].sort(),
    );
  });
});
