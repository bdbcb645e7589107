import type { QuestionnaireAnswers } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import type { App } from '../app';
import type { Db } from '../db/client';
import { users, type UserRow } from '../db/schema';
import { bearer, loginAs, seedUser } from './auth-helpers';
import { plainPdf } from './document-files';

/**
 * Small real files of each accepted type: uploads are decoded and drawn again
 * (features/documents/document-render.ts), so a file must be what its first bytes say.
 * The images are 8 × 8 pixels; the PDF is one 200 × 100 point page (test/document-files.ts).
 */
export const SAMPLE_FILES = {
  pdf: plainPdf(),
  png: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQI12M4IaeBFTEMLQkAiE5DgdTZD4AAAAAASUVORK5CYII=',
    'base64',
  ),
  jpeg: Buffer.from(
    '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAIAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAX/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABAb/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCQAIqH/9k=',
    'base64',
  ),
  webp: Buffer.from(
    'UklGRjQAAABXRUJQVlA4ICgAAACQAQCdASoIAAgAAsBMJaACdLoAA5gA/u1N3rvFpRr/56Z/W38f+MgA',
    'base64',
  ),
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
