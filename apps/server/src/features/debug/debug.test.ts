import { serverDebugInfoSchema } from '@bdms/shared';
import { describe, expect, it } from 'vitest';
import { serverVersion } from '../../lib/paths';
import { signIn } from '../../test/donor-helpers';
import { useTestApp } from '../../test/test-app';

/** Issue #21: `debugMode` gives administrators the server's version and build, nobody else. */
const subject = useTestApp();
const db = () => subject.db;

const debugInfo = (headers: Record<string, string>) =>
  subject.app.inject({ url: '/api/v1/admin/debug', headers });

describe('GET /api/v1/admin/debug', () => {
  it('answers administrators only while debugMode is on', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const donor = await signIn(subject.app, db());
    const hospital = await signIn(subject.app, db(), { role: 'hospital' });

    const off = await debugInfo(admin.headers);
    expect(off.statusCode).toBe(404);
    expect(off.json().error.message).toBe('Debug mode is off.');
    expect(off.body).not.toContain(process.version);

    const on = await subject.app.inject({
      method: 'PUT',
      url: '/api/v1/admin/flags',
      headers: admin.headers,
      payload: { debugMode: true },
    });
    expect(on.statusCode, on.body).toBe(200);

    const res = await debugInfo(admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const info = serverDebugInfoSchema.strict().parse(res.json().data);
    expect(info).toMatchObject({
      version: serverVersion(),
      node: process.version,
      database: process.env.TEST_DB_DRIVER === 'postgres' ? 'postgres' : 'pglite',
    });
    expect(info.memory.rssMb).toBeGreaterThan(0);

    // Never for other roles, whatever the flag; and not without signing in.
    for (const user of [donor, hospital]) {
      const other = await debugInfo(user.headers);
      expect(other.statusCode).toBe(403);
      expect(other.body).not.toContain(process.version);
    }
    expect((await debugInfo({})).statusCode).toBe(401);
  });
});
