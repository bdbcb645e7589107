import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  bloodRequestHistory,
  bloodRequests,
  clientLogs,
  idempotencyKeys,
  notifications,
  users,
} from '../../db/schema';
import { makeDonor, requestBody } from '../../test/blood-request-helpers';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
import { useTestApp } from '../../test/test-app';

const t = useTestApp();

async function call(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  who?: SignedInUser,
  payload?: object,
) {
  return t.app.inject({ method, url, headers: who?.headers, ...(payload ? { payload } : {}) });
}

async function createRequest(who: SignedInUser, overrides: Record<string, unknown>) {
  const res = await call('POST', '/api/v1/blood-requests', who, requestBody(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.request as { id: string };
}

async function logAs(who: SignedInUser, message: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/client-logs',
    headers: who.headers,
    payload: { entries: [{ level: 'error', message, timestamp: new Date().toISOString() }] },
  });
  expect(res.statusCode, res.body).toBe(202);
}

describe('DELETE /api/v1/users/{id} and the blood requests the user made', () => {
  it('cancels their open requests, tells accepted donors not to travel, and removes their contact details everywhere', async () => {
    const requester = await signIn(t.app, t.db, { fullName: 'Meena Iyer', status: 'approved' });
    const admin = await signIn(t.app, t.db, { role: 'admin' });
    const helper = await makeDonor(t.app, t.db, { bloodType: 'O-', fullName: 'Arjun Reddy' });
    const bystander = await signIn(t.app, t.db, { fullName: 'Other Person' });

    // Open, verified, a donor accepted: the requester is the contact (their name, their phone).
    const mine = await createRequest(requester, {
      contactName: 'Meena Iyer',
      contactPhone: requester.row.phone!.replace('+91', ''),
      contactEmail: requester.row.email,
      patientName: 'Lakshmi Iyer',
    });
    expect(
      (await call('PUT', `/api/v1/blood-requests/${mine.id}/status`, admin, { status: 'verified' }))
        .statusCode,
    ).toBe(200);
    const accepted = await call('POST', `/api/v1/blood-requests/${mine.id}/respond`, helper, {
      response: 'accepted',
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    // Open, pending, for a relative who is the contact.
    const relative = await createRequest(requester, {
      contactName: 'Sunita Rao',
      patientName: 'Gopal Rao',
      hospitalName: 'Apollo Hospital',
    });
    // Already closed: stays closed, but loses the details too.
    const closed = await createRequest(requester, { hospitalName: 'KIMS Hospital' });
    expect(
      (await call('DELETE', `/api/v1/blood-requests/${closed.id}`, requester)).statusCode,
    ).toBe(200);
    // Someone else's request is not touched.
    const others = await createRequest(bystander, { hospitalName: 'Yashoda Hospital' });

    await logAs(requester, 'requester log');
    await logAs(bystander, 'bystander log');

    const res = await call('DELETE', `/api/v1/users/${requester.row.id}`, requester, {
      password: requester.password,
    });
    expect(res.statusCode, res.body).toBe(200);

    const rows = await t.db
      .select()
      .from(bloodRequests)
      .where(inArray(bloodRequests.id, [mine.id, relative.id, closed.id, others.id]));
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(mine.id)).toMatchObject({
      status: 'cancelled',
      contactName: null,
      contactPhone: null,
      contactEmail: null,
      patientName: null,
    });
    // The relative's name is not the requester's: it stays; the phone, e-mail and patient go.
    expect(byId.get(relative.id)).toMatchObject({
      status: 'cancelled',
      contactName: 'Sunita Rao',
      contactPhone: null,
      contactEmail: null,
      patientName: null,
    });
    expect(byId.get(closed.id)).toMatchObject({
      status: 'cancelled',
      contactPhone: null,
      contactEmail: null,
      patientName: null,
    });
    expect(byId.get(others.id)).toMatchObject({
      status: 'pending',
      contactName: 'Ravi Kumar',
      patientName: 'Lakshmi Devi',
    });
    expect(byId.get(others.id)!.contactPhone).not.toBeNull();

    // History: one cancel each for the two open ones, saying why; the closed one is not cancelled again.
    const history = await t.db
      .select()
      .from(bloodRequestHistory)
      .where(eq(bloodRequestHistory.status, 'cancelled'));
    const cancels = (id: string) => history.filter((row) => row.requestId === id);
    expect(cancels(mine.id)).toEqual([
      expect.objectContaining({ notes: 'Cancelled: the requester erased their account.' }),
    ]);
    expect(cancels(relative.id)).toHaveLength(1);
    expect(cancels(closed.id)).toEqual([
      expect.objectContaining({ notes: 'Cancelled by the requester.' }),
    ]);

    // The donor on their way is told the request closed.
    const told = await t.db
      .select({ type: notifications.type, message: notifications.message })
      .from(notifications)
      .where(eq(notifications.userId, helper.row.id));
    expect(told.map((row) => row.type)).toContain('blood_request.closed');

    // Client logs stay, without the user id; the bystander's keep theirs.
    const logs = await t.db.select().from(clientLogs);
    expect(logs.find((row) => row.message === 'requester log')?.userId).toBeNull();
    expect(logs.find((row) => row.message === 'bystander log')?.userId).toBe(bystander.row.id);

    const [tombstone] = await t.db.select().from(users).where(eq(users.id, requester.row.id));
    expect(tombstone!.deletedAt).not.toBeNull();
  });

  // Issue #32 item 19: the leftovers of erasure.
  it("removes their requests' notes and the stored reply of creating them, and keeps others'", async () => {
    const requester = await signIn(t.app, t.db, { fullName: 'Meena Iyer', status: 'approved' });
    const bystander = await signIn(t.app, t.db, { fullName: 'Other Person' });
    const NOTES = 'Ward 4, ask for Meena at +91 98765 00011, UPI meena@okaxis';
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/v1/blood-requests',
      headers: { ...requester.headers, 'x-request-id': 'erasure-leftovers-1' },
      payload: requestBody({ notes: NOTES }),
    });
    expect(made.statusCode, made.body).toBe(201);
    const mine = made.json().data.request as { id: string };
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/api/v1/blood-requests',
      headers: { ...bystander.headers, 'x-request-id': 'erasure-leftovers-2' },
      payload: requestBody({ notes: 'Bystander notes stay.' }),
    });
    expect(theirs.statusCode, theirs.body).toBe(201);
    const stored = await t.db.select().from(idempotencyKeys);
    expect(stored).toHaveLength(2);
    expect(JSON.stringify(stored)).toContain('meena@okaxis');

    const res = await call('DELETE', `/api/v1/users/${requester.row.id}`, requester, {
      password: requester.password,
    });
    expect(res.statusCode, res.body).toBe(200);

    const [row] = await t.db.select().from(bloodRequests).where(eq(bloodRequests.id, mine.id));
    expect(row!.notes).toBeNull();
    const left = await t.db.select().from(idempotencyKeys);
    expect(left.map((entry) => entry.key)).toEqual(['erasure-leftovers-2']);
    expect(JSON.stringify(left)).not.toContain('meena@okaxis');
    const [other] = await t.db
      .select()
      .from(bloodRequests)
      .where(eq(bloodRequests.id, theirs.json().data.request.id));
    expect(other!.notes).toBe('Bystander notes stay.');
    // No request row holds their notes any more.
    const everything = JSON.stringify(await t.db.select().from(bloodRequests));
    expect(everything).not.toContain('meena@okaxis');
  });

  it('lets an administrator erase a requester, with the same effect on their requests', async () => {
    const requester = await signIn(t.app, t.db, { fullName: 'Meena Iyer', status: 'approved' });
    const admin = await signIn(t.app, t.db, { role: 'admin' });
    const open = await createRequest(requester, { contactName: 'meena iyer ' });
    const res = await call('DELETE', `/api/v1/users/${requester.row.id}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.db.select().from(bloodRequests).where(eq(bloodRequests.id, open.id));
    expect(row).toMatchObject({ status: 'cancelled', contactName: null, contactPhone: null });
    const [entry] = await t.db
      .select()
      .from(bloodRequestHistory)
      .where(eq(bloodRequestHistory.status, 'cancelled'));
    expect(entry).toMatchObject({ by: admin.row.id, byRole: 'admin' });
  });
});
