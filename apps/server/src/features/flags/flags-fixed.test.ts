import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activityLog, featureFlags } from '../../db/schema';
import { loadConfig } from '../../config/env';
import { signIn } from '../../test/donor-helpers';
import { useTestApp } from '../../test/test-app';

/**
 * Issue #21: `privacyProtection` has no safe meaning for "off" and `homePageRedesign` has no
 * other home page to switch to, so both are fixed on: refused at run time and at start, and a
 * row stored before that does not switch them off.
 */
const subject = useTestApp();
const db = () => subject.db;

const config = async () =>
  (await subject.app.inject({ url: '/api/v1/config' })).json().data.flags as Record<
    string,
    boolean
  >;

describe('flags fixed on', () => {
  it.each(['privacyProtection', 'homePageRedesign'])(
    'an administrator cannot switch %s off: 400, nothing stored, nothing logged',
    async (flag) => {
      const admin = await signIn(subject.app, db(), { role: 'admin' });
      const res = await subject.app.inject({
        method: 'PUT',
        url: '/api/v1/admin/flags',
        headers: admin.headers,
        payload: { [flag]: false, debugMode: true },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: `${flag} is fixed on and cannot be switched off.`,
        details: [{ path: `body.${flag}` }],
      });
      // The whole change was refused, the other flag in it too.
      expect(await db().select().from(featureFlags)).toEqual([]);
      expect(
        await db().select().from(activityLog).where(eq(activityLog.action, 'flags.updated')),
      ).toEqual([]);
      expect(await config()).toMatchObject({ [flag]: true, debugMode: false });
      // Switching it "on" is allowed and changes nothing.
      const on = await subject.app.inject({
        method: 'PUT',
        url: '/api/v1/admin/flags',
        headers: admin.headers,
        payload: { [flag]: true },
      });
      expect(on.statusCode, on.body).toBe(200);
    },
  );

  it('stays on when an older row says off', async () => {
    await db()
      .insert(featureFlags)
      .values({ key: 'privacyProtection', enabled: false, source: 'admin' });
    expect((await config()).privacyProtection).toBe(true);
  });

  it('stops the start when FEATURE_FLAGS switches one off, naming it', () => {
    expect(() => loadConfig({ FEATURE_FLAGS: 'bloodRequests,-privacyProtection' })).toThrow(
      /FEATURE_FLAGS: -privacyProtection: this flag is fixed on and cannot be switched off/,
    );
  });
});
