import type { Db } from '../../db/client';
import type { BloodRequestMatchRow, BloodRequestRow } from '../../db/schema';
import { createActivityLog } from '../../lib/activity-log';
import { AppError } from '../../lib/app-error';
import type { RequestMeta } from '../../lib/request-context';
import type { AuthUser } from '../../plugins/auth';
import {
  createBloodRequestsRepository,
  type BloodRequestsRepository,
  type HospitalInfo,
} from './blood-requests.repository';

/** Who acts: a signed-in user, a guest, or the server itself (expiry, widening). */
export interface Actor {
  id: string | null;
  role: 'guest' | 'donor' | 'hospital' | 'admin' | 'system';
}

export const actorOf = (caller: AuthUser | null): Actor =>
  caller ? { id: caller.id, role: caller.role } : { id: null, role: 'guest' };
export const SYSTEM: Actor = { id: null, role: 'system' };

export const notFound = () => new AppError('NOT_FOUND', 'There is no blood request with this id.');
export const forbidden = () =>
  new AppError('FORBIDDEN', 'You do not have permission to see or change this blood request.');

/** How a caller relates to a request: what they may read and change. */
export type Access = 'admin' | 'owner' | 'hospital' | 'matched';

export async function hospitalOf(
  repo: BloodRequestsRepository,
  caller: AuthUser,
): Promise<HospitalInfo | null> {
  return caller.role === 'hospital' ? repo.hospitalOfUser(caller.id) : null;
}

export async function accessOf(
  repo: BloodRequestsRepository,
  caller: AuthUser,
  row: BloodRequestRow,
): Promise<{ access: Access | null; match?: BloodRequestMatchRow }> {
  if (caller.role === 'admin') return { access: 'admin' };
  if (row.createdBy === caller.id) return { access: 'owner' };
  if (caller.role === 'hospital') {
    const inScope = await repo.isInHospitalScope(row.id, caller.id, await hospitalOf(repo, caller));
    return { access: inScope ? 'hospital' : null };
  }
  if (caller.role === 'donor') {
    const match = await repo.findMatch(row.id, caller.id);
    if (match) return { access: 'matched', match };
  }
  return { access: null };
}

export async function logContactAccess(
  tx: Db,
  caller: AuthUser,
  meta: Pick<RequestMeta, 'requestId'>,
  action: string,
  targetId: string | null,
  details: Record<string, unknown>,
) {
  await createActivityLog(tx).record({
    action,
    actorId: caller.id,
    actorRole: caller.role,
    targetType: 'blood_request',
    targetId,
    details,
    requestId: meta.requestId,
  });
}

export async function loadLocked(tx: Db, id: string): Promise<BloodRequestRow> {
  const row = await createBloodRequestsRepository(tx).findById(id, true);
  if (!row) throw notFound();
  return row;
}

export async function requireManager(
  repo: BloodRequestsRepository,
  caller: AuthUser,
  row: BloodRequestRow,
  allowOwner: boolean,
): Promise<Access> {
  const { access } = await accessOf(repo, caller, row);
  if (access === 'admin' || access === 'hospital' || (allowOwner && access === 'owner')) {
    return access;
  }
  // A hospital account's own request is "its own" (API.md: status and accepted donors are for
  // the hospital for its own requests), though `accessOf` sees its author as the owner first.
  if (access === 'owner' && caller.role === 'hospital') return 'hospital';
  throw forbidden();
}
