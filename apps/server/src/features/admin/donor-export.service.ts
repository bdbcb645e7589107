import { Readable, pipeline } from 'node:stream';
import type { ExportDonors, FeatureFlags } from '@bdms/shared';
import { stringify, type Stringifier } from 'csv-stringify';
import type { Db } from '../../db/client';
import { createActivityLog } from '../../lib/activity-log';
import { AppError } from '../../lib/app-error';
import { isAvailableNow } from '../../lib/availability';
import type { RequestMeta } from '../../lib/request-context';
import type { AuthUser } from '../../plugins/auth';
import {
  createAdminRepository,
  type AdminRepository,
  type DonorFilters,
  type ExportRow,
} from './admin.repository';

/** Rows read per query: memory stays flat however many donors there are. */
export const EXPORT_BATCH_SIZE = 1000;
const DAY_MS = 86_400_000;
const EARLIEST_DAY = '1970-01-01';
const LATEST_DAY = '9000-01-01';

export const EXPORT_COLUMNS = [
  { key: 'id', header: 'ID' },
  { key: 'fullName', header: 'Full name' },
  { key: 'email', header: 'E-mail' },
  { key: 'phone', header: 'Phone' },
  { key: 'bloodType', header: 'Blood type' },
  { key: 'gender', header: 'Gender' },
  { key: 'dateOfBirth', header: 'Date of birth' },
  { key: 'city', header: 'City' },
  { key: 'state', header: 'State' },
  { key: 'pincode', header: 'PIN code' },
  { key: 'status', header: 'Status' },
  { key: 'available', header: 'Available' },
  { key: 'onboardingCompleted', header: 'Onboarding completed' },
  { key: 'totalDonations', header: 'Total donations' },
  { key: 'lastDonation', header: 'Last donation' },
  { key: 'registeredAt', header: 'Registered at' },
] as const;
type ExportRecord = Record<(typeof EXPORT_COLUMNS)[number]['key'], string>;

/**
 * CSV injection (OWASP): a spreadsheet runs a cell that starts with = + - @ (or a tab or
 * carriage return, which some trim before looking) as a formula. A leading single quote makes
 * it text. Phone numbers in E.164 start with +, so they carry the quote too.
 */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function toExportRecord(row: ExportRow, now: number): ExportRecord {
  const cells: ExportRecord = {
    id: row.id,
    fullName: row.fullName,
    email: row.email,
    phone: row.phone ?? '',
    bloodType: row.bloodType ?? '',
    gender: row.gender ?? '',
    dateOfBirth: row.dateOfBirth ?? '',
    city: row.city ?? '',
    state: row.state ?? '',
    pincode: row.pincode ?? '',
    status: row.status,
    available: isAvailableNow(row, now) ? 'yes' : 'no',
    onboardingCompleted: row.onboardingCompleted ? 'yes' : 'no',
    totalDonations: String(row.totalDonations),
    lastDonation: row.lastDonationAt?.toISOString() ?? '',
    registeredAt: row.createdAt.toISOString(),
  };
  for (const key of Object.keys(cells) as (keyof ExportRecord)[]) {
    cells[key] = neutraliseCell(cells[key]);
  }
  return cells;
}

export interface DonorExportDeps {
  db: Db;
  flags: { getFlags(): Promise<FeatureFlags> };
  now?: () => number;
  logger?: { error(object: object, message: string): void };
  /** Tests pass a failing one. */
  repository?: Pick<AdminRepository, 'exportBatch'>;
  batchSize?: number;
}

export interface DonorExport {
  fileName: string;
  /** BOM, header row and one line per donor, produced as the reader asks for them. */
  stream: Stringifier;
  /** Resolves with the number of rows once the export ended (or rejects when it failed). */
  done: Promise<number>;
}

function filtersOf(body: ExportDonors): DonorFilters {
  if (body.from && body.to && body.from > body.to) {
    throw new AppError('VALIDATION_ERROR', '"from" must not be after "to".', [
      { path: 'body.to', message: '"to" must be on or after "from".' },
    ]);
  }
  // Bounds outside what anyone registered in do not filter; dropping them keeps dates such as
  // 0000-01-01 or 9999-12-31 (valid, but beyond the database's range once a day is added) from
  // ever reaching it.
  const from = body.from && body.from > EARLIEST_DAY ? body.from : undefined;
  const to = body.to && body.to < LATEST_DAY ? body.to : undefined;
  return {
    status: body.status,
    bloodType: body.bloodType,
    q: body.q || undefined,
    from: from ? new Date(`${from}T00:00:00.000Z`) : undefined,
    // `to` is inclusive: up to the end of that day (UTC).
    before: to ? new Date(new Date(`${to}T00:00:00.000Z`).getTime() + DAY_MS) : undefined,
  };
}

/**
 * The streamed donor export (`POST /admin/export/donors`). Donors are read in keyset batches of
 * EXPORT_BATCH_SIZE by (registered at, id) and written through csv-stringify into the reply as
 * the client reads, so memory does not grow with the number of donors, and no transaction is
 * held (PGlite runs one at a time). Donors registered after the export started are left out.
 * The first batch is read before anything is sent, so a failure there is an ordinary error
 * reply; a failure later destroys the stream (the client sees a cut-off download, never a
 * complete-looking file) and is logged. Both outcomes are in the activity log.
 */
export function createDonorExportService(deps: DonorExportDeps) {
  const now = deps.now ?? Date.now;
  const repository = deps.repository ?? createAdminRepository(deps.db);
  const batchSize = deps.batchSize ?? EXPORT_BATCH_SIZE;

  return {
    async start(caller: AuthUser, body: ExportDonors, meta: RequestMeta): Promise<DonorExport> {
      const filters = filtersOf(body);
      const startedAt = now();
      const cutoff = new Date(startedAt);
      const { documentUpload } = await deps.flags.getFlags();
      const read = (after: { cursorAt: string; id: string } | null) =>
        repository.exportBatch({
          filters,
          cutoff,
          idProofRequired: documentUpload,
          after,
          limit: batchSize,
        });
      const first = await read(null);

      let rows = 0;
      async function* records(): AsyncGenerator<ExportRecord> {
        let batch = first;
        for (;;) {
          for (const row of batch) {
            rows += 1;
            yield toExportRecord(row, startedAt);
          }
          const last = batch.at(-1);
          if (batch.length < batchSize || !last) return;
          batch = await read({ cursorAt: last.cursorAt, id: last.id });
        }
      }

      const csv = stringify({
        bom: true,
        header: true,
        columns: EXPORT_COLUMNS.map(({ key, header }) => ({ key, header })),
      });
      const logged = {
        actorId: caller.id,
        actorRole: caller.role,
        targetType: 'donors',
        requestId: meta.requestId,
      };
      const appliedFilters = Object.fromEntries(
        Object.entries(body).filter(([, value]) => value !== undefined && value !== ''),
      );
      const done = new Promise<number>((resolve, reject) => {
        // pipeline destroys both streams on any error, so the reply is cut off, not ended.
        pipeline(Readable.from(records()), csv, (error) => {
          const activity = createActivityLog(deps.db);
          if (!error) {
            void activity
              .record({
                ...logged,
                action: 'donors.exported',
                details: { filters: appliedFilters, rowCount: rows, ms: now() - startedAt },
              })
              .then(
                () => resolve(rows),
                (logError: unknown) => {
                  deps.logger?.error({ err: logError }, 'could not log a finished donor export');
                  resolve(rows);
                },
              );
            return;
          }
          const aborted = (error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE';
          deps.logger?.error(
            { err: error, rowsWritten: rows, aborted },
            aborted
              ? 'donor export stopped: the client went away'
              : 'donor export failed mid-stream; the download was cut off',
          );
          void activity
            .record({
              ...logged,
              action: 'donors.export_failed',
              details: { filters: appliedFilters, rowsWritten: rows, aborted },
            })
            .catch(() => {})
            .finally(() => reject(error));
        });
      });
      // Nobody has to wait for it; the outcome is logged either way.
      done.catch(() => {});
      const day = new Date(startedAt).toISOString().slice(0, 10);
      return { fileName: `donors-export-${day}.csv`, stream: csv, done };
    },
  };
}

export type DonorExportService = ReturnType<typeof createDonorExportService>;
