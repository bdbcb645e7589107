import type { QuestionnaireAnswers } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import type { App } from '../app';
import type { Db } from '../db/client';
import { users, type UserRow } from '../db/schema';
import { bearer, loginAs, seedUser } from './auth-helpers';

/** The smallest files each signature check accepts (magic bytes plus some padding). */
export const SAMPLE_FILES = {
  // A PDF is also parsed (features/documents/pdf-check.ts): it needs a catalog.
  pdf: Buffer.from(
    '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n' +
      '2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  ),
  png: Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.alloc(32, 1),
  ]),
  jpeg: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(32, 2)]),
  webp: Buffer.concat([
    Buffer.from('RIFF'),
    Buffer.from([0x20, 0, 0, 0]),
    Buffer.from('WEBPVP8 '),
    Buffer.alloc(24, 3),
  ]),
  html: Buffer.from('<!doctype html><script>alert(document.cookie)</script>'),
};

export interface MultipartFile {
  field?: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A multipart/form-data body, built by hand so tests control every byte. */
export function multipart(fields: Record<string, string>, files: MultipartFile[] = []) {
  const boundary = `----bdms-test-${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export function uploadDocument(
  app: App,
  headers: Record<string, string>,
  type: string,
  file: Partial<MultipartFile> = {},
) {
  const body = multipart({ type }, [
    { filename: 'id.pdf', contentType: 'application/pdf', data: SAMPLE_FILES.pdf, ...file },
  ]);
  return app.inject({
    method: 'POST',
    url: '/api/v1/documents',
    payload: body.payload,
    headers: { ...headers, ...body.headers },
  });
}

export interface SignedInUser {
  row: UserRow;
  password: string;
  headers: Record<string, string>;
}

/** A seeded account signed in through the API, with a donor's date of birth and gender. */
export async function signIn(
  app: App,
  db: Db,
  options: Parameters<typeof seedUser>[1] & {
    gender?: 'male' | 'female' | 'other';
    dateOfBirth?: string;
    fullName?: string;
  } = {},
): Promise<SignedInUser> {
  const { gender, dateOfBirth, fullName, ...seedOptions } = options;
  const seeded = await seedUser(db, seedOptions);
  const [row] = await db
    .update(users)
    .set({
      gender: gender ?? (seeded.row.role === 'donor' ? 'male' : null),
      dateOfBirth: dateOfBirth ?? (seeded.row.role === 'donor' ? '1990-05-20' : null),
      ...(fullName ? { fullName } : {}),
    })
    .where(eq(users.id, seeded.row.id))
    .returning();
  const { tokens } = await loginAs(app, { row: row!, password: seeded.password });
  return { row: row!, password: seeded.password, headers: bearer(tokens.accessToken) };
}

export function healthyAnswers(
  overrides: Partial<QuestionnaireAnswers> = {},
): QuestionnaireAnswers {
  return { weightKg: 64, firstTimeDonor: true, feelsWell: true, conditions: [], ...overrides };
}
