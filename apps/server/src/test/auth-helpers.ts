import type { AuthResult, RegisterInput, Role, User } from '@bdms/shared';
import { addIsoDays, addIsoMonths, todayInIndia, userSchema } from '@bdms/shared';
import { expect } from 'vitest';
import type { App } from '../app';
import type { Db } from '../db/client';
import { users, type UserRow } from '../db/schema';
import { hashPassword } from '../lib/password';

/** A date of birth `years` years (and `extraDays` days later) before today in India, for the 18–65 rule. */
export function birthDateYearsAgo(years: number, extraDays = 0): string {
  return addIsoDays(addIsoMonths(todayInIndia(), -12 * years), extraDays);
}

let sequence = 0;

/** A valid registration body; every call gets its own e-mail and phone. */
export function registerBody(overrides: Partial<RegisterInput> = {}): RegisterInput {
  sequence += 1;
  return {
    email: `donor${sequence}@example.org`,
    password: 'correct horse battery',
    fullName: 'Asha Verma',
    phone: `98${String(76543210 + sequence).padStart(8, '0')}`,
    bloodType: 'O+',
    dateOfBirth: birthDateYearsAgo(30),
    gender: 'female',
    city: 'Pune',
    state: 'Maharashtra',
    pincode: '411001',
    consent: true,
    ...overrides,
  };
}

export interface SeededUser {
  row: UserRow;
  password: string;
}

/** Inserts an account directly (any role or status), with a real password hash. */
export async function seedUser(
  db: Db,
  options: {
    role?: Role;
    status?: UserRow['status'];
    email?: string;
    phone?: string | null;
    password?: string;
    language?: string;
    deletedAt?: Date | null;
  } = {},
): Promise<SeededUser> {
  sequence += 1;
  const password = options.password ?? 'seeded password 1';
  const role = options.role ?? 'donor';
  const [row] = await db
    .insert(users)
    .values({
      email: options.email ?? `${role}${sequence}@example.org`,
      passwordHash: await hashPassword(password),
      role,
      status: options.status ?? (role === 'donor' ? 'pending' : 'approved'),
      fullName: `${role} ${sequence}`,
      phone:
        options.phone === undefined
          ? `+9197${String(10000000 + sequence).padStart(8, '0')}`
          : options.phone,
      bloodType: role === 'donor' ? 'B+' : null,
      language: options.language ?? 'en',
      deletedAt: options.deletedAt ?? null,
    })
    .returning();
  return { row: row!, password };
}

export async function loginAs(
  app: App,
  seeded: SeededUser,
  remoteAddress = '203.0.113.10',
): Promise<AuthResult> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email: seeded.row.email, password: seeded.password },
    remoteAddress,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as AuthResult;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Asserts the reply user is exactly API.md's user object (no extra keys such as passwordHash). */
export function expectUserShape(user: unknown): User {
  const parsed = userSchema.strict().safeParse(user);
  expect(parsed.error?.issues ?? []).toEqual([]);
  return parsed.data!;
}
