import { adminReferralsSchema, myReferralsSchema } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { donations, users } from '../../db/schema';
import { registerBody } from '../../test/auth-helpers';
import { signIn } from '../../test/donor-helpers';
import { useTestApp } from '../../test/test-app';

const t = useTestApp();

async function setFlag(headers: Record<string, string>, referralSystem: boolean) {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/v1/admin/flags',
    headers,
    payload: { referralSystem },
  });
  expect(res.statusCode, res.body).toBe(200);
}

function register(overrides: Parameters<typeof registerBody>[0], remoteAddress = '203.0.113.10') {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: registerBody(overrides),
    remoteAddress,
  });
}

async function userByEmail(email: string) {
  const [row] = await t.db.select().from(users).where(eq(users.email, email));
  return row!;
}

describe('referrals (referralSystem)', () => {
  it('is 404 while off and ignores a code at registration; on, gives a code, a link and a share text', async () => {
    const admin = await signIn(t.app, t.db, { role: 'admin' });
    const donor = await signIn(t.app, t.db, { role: 'donor', fullName: 'Kavya Nair' });
    const off = await t.app.inject({ url: '/api/v1/referrals/me', headers: donor.headers });
    expect(off.statusCode).toBe(404);
    expect(off.json().error.message).toContain('referralSystem');
    expect(
      (await t.app.inject({ url: '/api/v1/admin/referrals', headers: admin.headers })).statusCode,
    ).toBe(404);
    // Off: a code (even a made-up one) changes nothing and no address hash is kept.
    const ignored = await register({ email: 'ignored@example.org', referralCode: 'ABCDEFGH' });
    expect(ignored.statusCode, ignored.body).toBe(201);
    expect(await userByEmail('ignored@example.org')).toMatchObject({
      referredBy: null,
      registrationAddressHash: null,
    });

    await setFlag(admin.headers, true);
    const res = await t.app.inject({ url: '/api/v1/referrals/me?lang=hi', headers: donor.headers });
    expect(res.statusCode, res.body).toBe(200);
    const mine = myReferralsSchema.strict().parse(res.json().data);
    expect(mine.code).toMatch(/^[A-HJ-KM-NP-Z2-9]{8}$/);
    expect(mine.link).toBe(`http://localhost:3000/register?ref=${mine.code}`);
    expect(mine.shareText).toContain(mine.link);
    expect(mine.shareText).toContain('आमंत्रण कोड');
    // Nothing about the donor in what is shared.
    expect(mine.shareText).not.toContain('Kavya');
    expect(mine.whatsappUrl).toBe(`https://wa.me/?text=${encodeURIComponent(mine.shareText)}`);
    expect(mine).toMatchObject({ joined: 0, donated: 0, friends: [] });
    expect(mine.milestones).toEqual([
      { joined: 1, reached: false },
      { joined: 5, reached: false },
      { joined: 10, reached: false },
      { joined: 25, reached: false },
    ]);
    // The code is fixed once made.
    const again = await t.app.inject({ url: '/api/v1/referrals/me', headers: donor.headers });
    expect(again.json().data.code).toBe(mine.code);
  });

  it('records who invited whom, counts joins and donations, names only those who agreed, and badges', async () => {
    const admin = await signIn(t.app, t.db, { role: 'admin' });
    await setFlag(admin.headers, true);
    const donor = await signIn(t.app, t.db, { role: 'donor' });
    const { code } = (
      await t.app.inject({ url: '/api/v1/referrals/me', headers: donor.headers })
    ).json().data;

    const shared = await register({
      email: 'priya@example.org',
      fullName: 'Priya Sharma',
      referralCode: code.toLowerCase(),
      shareWithReferrer: true,
    });
    expect(shared.statusCode, shared.body).toBe(201);
    const quiet = await register({
      email: 'quiet@example.org',
      fullName: 'Quiet Person',
      referralCode: code,
    });
    expect(quiet.statusCode, quiet.body).toBe(201);
    const unknown = await register({ email: 'typo@example.org', referralCode: 'ZZZZZZZZ' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.details).toEqual([
      { path: 'body.referralCode', message: expect.stringContaining('not known') },
    ]);
    expect(await t.db.select().from(users).where(eq(users.email, 'typo@example.org'))).toEqual([]);
    const malformed = await register({ email: 'bad@example.org', referralCode: 'AB' });
    expect(malformed.statusCode).toBe(400);

    const priya = await userByEmail('priya@example.org');
    const quietRow = await userByEmail('quiet@example.org');
    expect(priya).toMatchObject({ referredBy: donor.row.id, referralShared: true });
    expect(quietRow).toMatchObject({ referredBy: donor.row.id, referralShared: false });
    expect(priya.registrationAddressHash).toMatch(/^[0-9a-f]+$/);
    expect(priya.registrationAddressHash).not.toContain('203.0.113.10');
    await t.db
      .insert(donations)
      .values({ donorId: quietRow.id, donatedAt: new Date(), place: 'X' });

    const mine = myReferralsSchema.parse(
      (await t.app.inject({ url: '/api/v1/referrals/me', headers: donor.headers })).json().data,
    );
    expect(mine.joined).toBe(2);
    expect(mine.donated).toBe(1);
    // Both still wait for an administrator: no badge yet (issue #32 item 20).
    expect(mine.milestones[0]).toEqual({ joined: 1, reached: false });
    expect(mine.milestones[1]).toEqual({ joined: 5, reached: false });
    // Only Priya agreed; the one who donated did not, so no name is tied to that donation.
    expect(mine.friends).toEqual([
      { firstName: 'Priya', joinedAt: priya.createdAt.toISOString(), donated: false },
    ]);
    expect(JSON.stringify(mine)).not.toContain('Quiet');
    await t.db.update(users).set({ status: 'approved' }).where(eq(users.id, priya.id));
    const approved = myReferralsSchema.parse(
      (await t.app.inject({ url: '/api/v1/referrals/me', headers: donor.headers })).json().data,
    );
    expect(approved.milestones[0]).toEqual({ joined: 1, reached: true });
  });

  it('gives badges only for approved invitees: not pending, rejected, suspended or erased ones', async () => {
    const admin = await signIn(t.app, t.db, { role: 'admin' });
    await setFlag(admin.headers, true);
    const donor = await signIn(t.app, t.db, { role: 'donor' });
    const { code } = (
      await t.app.inject({ url: '/api/v1/referrals/me', headers: donor.headers })
    ).json().data;
    const kinds = ['pending', 'rejected', 'suspended', 'erased', 'approved'] as const;
    for (const kind of kinds) {
      const res = await register({ email: `${kind}@example.org`, referralCode: code });
      expect(res.statusCode, res.body).toBe(201);
    }
    const set = (kind: string, values: Partial<typeof users.$inferInsert>) =>
      t.db
        .update(users)
        .set(values)
        .where(eq(users.email, `${kind}@example.org`));
    await set('rejected', { status: 'rejected' });
    await set('suspended', { status: 'suspended' });
    // An account erased after its approval.
    await set('erased', { status: 'approved', deletedAt: new Date() });
    const read = async () =>
      myReferralsSchema.parse(
        (await t.app.inject({ url: '/api/v1/referrals/me', headers: donor.headers })).json().data,
      );

    // Still waiting for an administrator.
    await set('approved', { status: 'pending' });
    const before = await read();
    // Five accounts joined with the code and none of them is an approved donor: no badge.
    expect(before.joined).toBe(5);
    expect(before.milestones.every((milestone) => !milestone.reached)).toBe(true);

    await set('approved', { status: 'approved' });
    const after = await read();
    expect(after.milestones).toEqual([
      { joined: 1, reached: true },
      { joined: 5, reached: false },
      { joined: 10, reached: false },
      { joined: 25, reached: false },
    ]);
    const rows = await t.db
      .select({ email: users.email, status: users.status, deletedAt: users.deletedAt })
      .from(users)
      .where(eq(users.referredBy, donor.row.id));
    expect(rows).toHaveLength(5);
    expect(rows.filter((row) => row.status === 'approved' && !row.deletedAt)).toEqual([
      { email: 'approved@example.org', status: 'approved', deletedAt: null },
    ]);
  });

  it('shows administrators the counts and the addresses many accounts came from', async () => {
    const admin = await signIn(t.app, t.db, { role: 'admin' });
    await setFlag(admin.headers, true);
    const donor = await signIn(t.app, t.db, { role: 'donor', fullName: 'Ravi Kumar' });
    const { code } = (
      await t.app.inject({ url: '/api/v1/referrals/me', headers: donor.headers })
    ).json().data;
    for (const name of ['Fake One', 'Fake Two', 'Fake Three']) {
      const res = await register(
        {
          email: `${name.replace(' ', '').toLowerCase()}@example.org`,
          fullName: name,
          referralCode: code,
        },
        '198.51.100.7',
      );
      expect(res.statusCode, res.body).toBe(201);
    }
    await register({ email: 'elsewhere@example.org' }, '192.0.2.44');

    const forbidden = await t.app.inject({
      url: '/api/v1/admin/referrals',
      headers: donor.headers,
    });
    expect(forbidden.statusCode).toBe(403);
    const res = await t.app.inject({ url: '/api/v1/admin/referrals', headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    const overview = adminReferralsSchema.strict().parse(res.json().data);
    expect(overview.totals).toEqual({ referred: 3, donated: 0, referrers: 1 });
    expect(overview.topReferrers).toEqual([
      { id: donor.row.id, name: 'Ravi Kumar', joined: 3, donated: 0 },
    ]);
    expect(overview.clusters).toHaveLength(1);
    const [cluster] = overview.clusters;
    expect(cluster).toMatchObject({ accounts: 3, referred: 3 });
    expect(cluster!.key).toHaveLength(8);
    expect(cluster!.members.map((member) => member.name).sort()).toEqual([
      'Fake One',
      'Fake Three',
      'Fake Two',
    ]);
    expect(cluster!.members.every((member) => member.referrerName === 'Ravi Kumar')).toBe(true);
    expect(JSON.stringify(overview)).not.toContain('198.51.100.7');
  });
});
