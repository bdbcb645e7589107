import { DAY, HOUR } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { activityLog, bloodStock, notifications } from '../../db/schema';
import { seedCentreAccount, seedFacility, type CentreAccount } from '../../test/stock-helpers';
import { useTestApp } from '../../test/test-app';

// 03:00 IST.
const START = Date.parse('2026-11-25T21:30:00Z');
let clock = START;
const subject = useTestApp({ services: { now: () => clock } });
const db = () => subject.db;

let facilityId: string;
let centre: CentreAccount;

beforeEach(async () => {
  clock = START;
  facilityId = await seedFacility(db(), {
    name: 'Reminded Centre',
    latitude: 28.6,
    longitude: 77.2,
  });
  centre = await seedCentreAccount(subject.app, db(), facilityId);
  const res = await subject.app.inject({
    method: 'PUT',
    url: `/api/v1/facilities/${facilityId}/stock`,
    headers: centre.headers,
    payload: { lines: [{ bloodType: 'O-', component: 'prbc', units: 3 }] },
  });
  expect(res.statusCode, res.body).toBe(200);
});

const run = () => subject.app.services.stockReminderJob.runOnce();
const reminders = () =>
  db().select().from(notifications).where(eq(notifications.userId, centre.userId));

describe('the stock reminder job', () => {
  it('reminds a centre silent for 3 days once, and again only after a new lapse', async () => {
    clock = START + 3 * DAY - HOUR;
    expect(await run()).toEqual({ reminded: 0 });
    expect(await reminders()).toEqual([]);

    clock = START + 3 * DAY + HOUR;
    expect(await run()).toEqual({ reminded: 1 });
    const [sent] = await reminders();
    expect(sent).toMatchObject({ type: 'stock.reminder', link: '/hospital/stock' });
    expect(sent!.message).toContain('Reminded Centre');
    // 26 Nov 2026 in India (03:00 IST), though 25 Nov in UTC.
    expect(sent!.message).toContain('26 November 2026');
    expect(await run()).toEqual({ reminded: 0 });
    expect(await reminders()).toHaveLength(1);
    const logged = await db()
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'stock.reminded'));
    expect(logged).toHaveLength(1);

    // An update starts a new lapse: reminded again 3 days after it, not before.
    await db()
      .update(bloodStock)
      .set({ updatedAt: new Date(START + 4 * DAY) })
      .where(eq(bloodStock.facilityId, facilityId));
    clock = START + 6 * DAY;
    expect(await run()).toEqual({ reminded: 0 });
    clock = START + 7 * DAY + HOUR;
    expect(await run()).toEqual({ reminded: 1 });
    expect(await reminders()).toHaveLength(2);
  });

  it('leaves disabled and unverified centres alone', async () => {
    const pendingFacility = await seedFacility(db(), { latitude: 28.7, longitude: 77.1 });
    await seedCentreAccount(subject.app, db(), pendingFacility, { verificationStatus: 'pending' });
    await db()
      .insert(bloodStock)
      .values({
        facilityId: pendingFacility,
        bloodType: 'A+',
        component: 'prbc',
        units: 1,
        updatedAt: new Date(START),
      });
    clock = START + 4 * DAY;
    expect(await run()).toEqual({ reminded: 1 });
  });
});
