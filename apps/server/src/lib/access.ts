import { AppError } from './app-error';
import type { AuthUser } from '../plugins/auth';

export const SELF_OR_ADMIN_MESSAGE = 'You can only see and change your own account.';

/**
 * API.md "Users": the user themself or an administrator; anyone else 403, whether or not the
 * id exists, so the answer reveals nothing about other accounts.
 */
export function assertSelfOrAdmin(caller: AuthUser, id: string): void {
  if (caller.id !== id && caller.role !== 'admin') {
    throw new AppError('FORBIDDEN', SELF_OR_ADMIN_MESSAGE);
  }
}

/** Writes that only the user themself may make (administrators too get 403 for others). */
export function assertSelf(caller: AuthUser, id: string, message = SELF_OR_ADMIN_MESSAGE): void {
  if (caller.id !== id) throw new AppError('FORBIDDEN', message);
}
