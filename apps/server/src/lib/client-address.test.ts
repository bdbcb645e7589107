import { describe, expect, it } from 'vitest';
import { requestBody } from '../test/blood-request-helpers';
import { useTestApp } from '../test/test-app';
import { addressKey } from './client-address';

describe('addressKey', () => {
  it('keys an IPv6 address by its /64, an IPv4 address (mapped or not) by itself', () => {
    expect(addressKey('203.0.113.5')).toBe('203.0.113.5');
    expect(addressKey('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(addressKey(undefined)).toBe('unknown');
  });
});

describe('per-address limits of IPv6 clients (#32 item 8)', () => {
  const subject = useTestApp({
    env: { FEATURE_FLAGS: 'bloodRequests', RATE_LIMIT_ALLOWLIST: '2001:db8:9:9::7' },
  });

  const create = (remoteAddress: string) =>
    subject.app.inject({
      method: 'POST',
      url: '/api/v1/blood-requests',
      payload: requestBody(),
      remoteAddress,
    });

  it('counts every address of one /64 together; another /64 has its own allowance', async () => {
    // Five requests an hour per client: five addresses of one /64 spend it all.
    for (let i = 1; i <= 5; i += 1) {
      const res = await create(`2001:db8:1:2::${i}`);
      expect(res.statusCode, res.body).toBe(201);
    }
    const sameNetwork = await create('2001:db8:1:2:ffff:abcd:1:9');
    expect(sameNetwork.statusCode).toBe(429);
    expect(sameNetwork.json().error.code).toBe('RATE_LIMITED');
    const otherNetwork = await create('2001:db8:1:3::1');
    expect(otherNetwork.statusCode, otherNetwork.body).toBe(201);
  });

  it('exempts an allow-listed address itself, not its whole /64', async () => {
    for (let i = 0; i < 6; i += 1) {
      const res = await create('2001:db8:9:9::7');
      expect(res.statusCode, res.body).toBe(201);
    }
    for (let i = 1; i <= 5; i += 1) {
      expect((await create(`2001:db8:9:9::${100 + i}`)).statusCode).toBe(201);
    }
    expect((await create('2001:db8:9:9::200')).statusCode).toBe(429);
  });

  it("counts sign-in code requests per (/64, account): a client's new addresses do not reset it", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i += 1) {
      const res = await subject.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login-otp',
        payload: { email: 'meena@example.org' },
        remoteAddress: `2001:db8:5:6::${i}`,
      });
      statuses.push(res.statusCode);
    }
    // Three codes free, then a wait (lib/auth-limits.ts otpRequests), whichever address asks.
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});
