import { expect, type APIRequestContext } from '@playwright/test';
import { E2E_ADMIN, E2E_DLT, E2E_MAIL_URL, E2E_PHONE_URL } from './constants';

let counter = 0;

/** A unique, valid donor registration body (phone numbers start 6–9 and never repeat). */
export function newDonor(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const stamp = `${Date.now() % 1_000_000}`.padStart(6, '0');
  return {
    email: `donor-${stamp}-${counter}@e2e.test`,
    password: 'donor-password-1',
    fullName: `Asha Rao ${counter}`,
    phone: `9${stamp}${String(counter).padStart(3, '0')}`.slice(0, 10),
    bloodType: 'O-',
    dateOfBirth: '1994-05-17',
    gender: 'female',
    city: 'Hyderabad',
    state: 'Telangana',
    pincode: '500001',
    consent: true,
    ...overrides,
  };
}

type Envelope<T> = { success: boolean; data: T; error?: { code: string; message: string } };

export async function apiPost<T>(
  request: APIRequestContext,
  path: string,
  body: unknown,
  token?: string,
): Promise<T> {
  const res = await request.post(path, {
    data: body,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const json = (await res.json()) as Envelope<T>;
  expect(res.ok(), `${path}: ${JSON.stringify(json.error)}`).toBe(true);
  return json.data;
}

export type AuthResult = { user: { id: string; email: string }; tokens: { accessToken: string } };

export async function registerDonor(
  request: APIRequestContext,
  overrides: Record<string, unknown> = {},
) {
  const body = newDonor(overrides);
  const result = await apiPost<AuthResult>(request, '/api/v1/auth/register', body);
  return { ...body, id: result.user.id, token: result.tokens.accessToken };
}

export async function adminToken(request: APIRequestContext): Promise<string> {
  const result = await apiPost<AuthResult>(request, '/api/v1/auth/login', {
    ...E2E_ADMIN,
    role: 'admin',
  });
  return result.tokens.accessToken;
}

/** Waits for a message to `to` whose text matches `pattern`, and returns the first capture group. */
export async function readMail(
  request: APIRequestContext,
  to: string,
  pattern: RegExp,
): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`${E2E_MAIL_URL}/messages?to=${encodeURIComponent(to)}`);
        const messages = (await res.json()) as { text: string }[];
        for (const message of messages.reverse()) {
          const match = pattern.exec(message.text);
          if (match) {
            found = match[1] ?? match[0];
            return true;
          }
        }
        return false;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return found as string;
}

export async function apiPut<T>(
  request: APIRequestContext,
  path: string,
  body: unknown,
  token: string,
): Promise<T> {
  const res = await request.put(path, {
    data: body,
    headers: { authorization: `Bearer ${token}` },
  });
  const json = (await res.json()) as Envelope<T>;
  expect(res.ok(), `${path}: ${JSON.stringify(json.error)}`).toBe(true);
  return json.data;
}

/** Answers that make a healthy adult eligible today. */
export const HEALTHY_ANSWERS = {
  weightKg: 62,
  firstTimeDonor: false,
  feelsWell: true,
  conditions: [],
};

/** Registers a donor, completes the questionnaire and has the administrator approve them. */
export async function registerApprovedDonor(
  request: APIRequestContext,
  overrides: Record<string, unknown> = {},
) {
  const donor = await registerDonor(request, overrides);
  await apiPut(
    request,
    `/api/v1/users/${donor.id}/questionnaire`,
    { answers: HEALTHY_ANSWERS },
    donor.token,
  );
  const admin = await adminToken(request);
  await apiPost(request, `/api/v1/admin/donors/${donor.id}/approve`, {}, admin);
  return donor;
}

/** Creates a hospital account and sets its password through the e-mailed invitation link. */
export async function createHospital(request: APIRequestContext) {
  const admin = await adminToken(request);
  const stamp = `${Date.now() % 1_000_000}`.padStart(6, '0');
  const hospital = {
    name: `Care Hospital ${stamp}`,
    email: `hospital-${stamp}@e2e.test`,
    phone: `8${stamp}123`.slice(0, 10),
    city: 'Hyderabad',
    state: 'Telangana',
  };
  await apiPost(request, '/api/v1/admin/hospitals', hospital, admin);
  const token = await readMail(request, hospital.email, /reset-password\?token=([A-Za-z0-9_-]+)/);
  const password = 'hospital-password-1';
  await apiPost(request, '/api/v1/auth/reset-password', { token, password });
  return { ...hospital, password };
}

/** An SMS as the harness's SMSC acknowledged it (apps/server/src/test/smpp-server.ts). */
export interface ReceivedSms {
  messageId: string;
  destinationAddr: string;
  dataCoding: number;
  text: string;
  entityId: string | null;
  templateId: string | null;
  at: number;
}

/** Every SMS the SMSC acknowledged for `phone` (E.164), oldest first. */
export async function smsTo(request: APIRequestContext, phone: string): Promise<ReceivedSms[]> {
  const res = await request.get(`${E2E_PHONE_URL}/sms?to=${encodeURIComponent(phone)}`);
  return (await res.json()) as ReceivedSms[];
}

/** Waits for the first SMS to `phone` sent at or after `since` (ms) that `match` accepts. */
export async function waitForSms(
  request: APIRequestContext,
  phone: string,
  match: (sms: ReceivedSms) => boolean,
  { since = 0, timeout = 30_000 }: { since?: number; timeout?: number } = {},
): Promise<ReceivedSms> {
  let found: ReceivedSms | undefined;
  await expect
    .poll(
      async () => {
        found = (await smsTo(request, phone)).find((sms) => sms.at >= since && match(sms));
        return found !== undefined;
      },
      { timeout },
    )
    .toBe(true);
  return found as ReceivedSms;
}

/**
 * The first one-time code sent by SMS to `phone` at or after `since`: the SMS carries the DLT
 * template of codes and starts with the 6 digits.
 */
export async function readSmsCode(
  request: APIRequestContext,
  phone: string,
  since = 0,
): Promise<{ code: string; text: string; sms: ReceivedSms }> {
  const sms = await waitForSms(
    request,
    phone,
    (candidate) =>
      candidate.templateId === E2E_DLT.templates.phone_code && /^\d{6}\b/.test(candidate.text),
    { since },
  );
  return { code: sms.text.slice(0, 6), text: sms.text, sms };
}

export async function apiGet<T>(
  request: APIRequestContext,
  path: string,
  token?: string,
): Promise<T> {
  const res = await request.get(path, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  expect(res.ok(), path).toBe(true);
  return ((await res.json()) as { data: T }).data;
}
