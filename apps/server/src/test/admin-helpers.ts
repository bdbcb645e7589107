import type { QuestionnaireAnswers } from '@bdms/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { documents, questionnaires, users, type NewUserRow, type UserRow } from '../db/schema';

let sequence = 0;

/**
 * Inserts a donor row directly (no password hash: these donors never sign in), with every
 * profile field set, so admin lists, filters and exports have something to show.
 */
export async function insertDonor(db: Db, overrides: Partial<NewUserRow> = {}): Promise<UserRow> {
  sequence += 1;
  const [row] = await db
    .insert(users)
    .values({
      email: `listed${sequence}@example.org`,
      passwordHash: '!none',
      role: 'donor',
      status: 'pending',
      fullName: `Listed Donor ${sequence}`,
      phone: `+9188${String(10000000 + sequence).padStart(8, '0')}`,
      bloodType: 'A+',
      gender: 'female',
      dateOfBirth: '1992-03-04',
      city: 'Nagpur',
      state: 'Maharashtra',
      pincode: '440001',
      available: true,
      availabilityConfirmedAt: new Date(),
      ...overrides,
    })
    .returning();
  return row!;
}

export const HEALTHY_ANSWERS: QuestionnaireAnswers = {
  weightKg: 64,
  firstTimeDonor: true,
  feelsWell: true,
  conditions: [],
};

/** A submitted questionnaire (what completes onboarding while documentUpload is off). */
export async function submitQuestionnaire(
  db: Db,
  userId: string,
  answers: QuestionnaireAnswers = HEALTHY_ANSWERS,
): Promise<void> {
  await db.insert(questionnaires).values({
    userId,
    answers,
    eligible: true,
    nextEligibleAt: null,
    deferrals: [],
    submittedAt: new Date(),
  });
}

/** An uploaded document row without a file (enough for onboarding and lists). */
export async function insertDocument(
  db: Db,
  userId: string,
  type: 'id_proof' | 'address_proof' = 'id_proof',
  verdict: { verified?: boolean; rejectionReason?: string | null } = {},
): Promise<string> {
  const [row] = await db
    .insert(documents)
    .values({
      userId,
      type,
      fileName: 'id.pdf',
      mimeType: 'application/pdf',
      size: 10,
      storageName: crypto.randomUUID(),
      verified: verdict.verified ?? false,
      rejectionReason: verdict.rejectionReason ?? null,
    })
    .returning({ id: documents.id });
  return row!.id;
}

/**
 * Inserts `count` donors with one multi-row INSERT (generate_series), fast enough for thousands.
 * Every `sameTime` consecutive donors share a registration time, so keyset paging must break
 * ties by id. Returns nothing: read them back with SQL.
 */
export async function insertManyDonors(
  db: Db,
  count: number,
  options: { sameTime?: number; prefix?: string } = {},
): Promise<void> {
  const sameTime = options.sameTime ?? 1;
  const prefix = options.prefix ?? 'bulk';
  await db.execute(sql`
    insert into users (email, password_hash, role, status, full_name, phone, blood_type, gender,
      date_of_birth, city, state, pincode, available, availability_confirmed_at, created_at)
    select ${prefix} || g || '@example.org', '!none', 'donor',
      (array['pending', 'approved', 'rejected', 'suspended'])[1 + g % 4],
      'Bulk Donor ' || g, '+917' || lpad(g::text, 9, '0'),
      (array['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-'])[1 + g % 8], 'male', '1990-01-01',
      'Pune', 'Maharashtra', '411001', true, now(),
      timestamptz '2024-01-01 00:00:00+00' + ((g / ${sameTime}) * interval '1 second')
    from generate_series(1, ${count}::int) as g`);
}

/** RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF) into rows of cells. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') {
        quoted = false;
      } else {
        cell += char;
      }
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else {
      cell += char;
    }
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}
