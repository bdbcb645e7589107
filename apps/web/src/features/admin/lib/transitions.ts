import { BLOOD_REQUEST_TRANSITIONS, type BloodRequestStatus } from '@bdms/shared';
import type { DonorAction } from '../api/admin-api';

/**
 * API.md "Donor status": pending → approve | reject; approved → suspend; suspended →
 * reactivate; rejected waits for the donor to change documents or questionnaire.
 */
export const DONOR_ACTIONS: Record<string, readonly DonorAction[]> = {
  pending: ['approve', 'reject'],
  approved: ['suspend'],
  active: ['suspend'],
  suspended: ['reactivate'],
  rejected: [],
};

export function donorActionsFor(status: string | null | undefined): readonly DonorAction[] {
  return DONOR_ACTIONS[status ?? 'pending'] ?? [];
}

/** Reject and suspend tell the donor why; the reason is required. */
export function needsReason(action: DonorAction): boolean {
  return action === 'reject' || action === 'suspend';
}

/**
 * A status staff can move a request to: nothing moves back to pending (an unconfirmed request
 * becomes pending only by its SMS code, and is never in a staff list).
 */
export type RequestTransition = Exclude<BloodRequestStatus, 'pending' | 'unconfirmed'>;

/** API.md "Blood requests", from @bdms/shared: what the current status allows. */
export function requestTransitionsFor(status: string): readonly RequestTransition[] {
  const targets = (BLOOD_REQUEST_TRANSITIONS as Record<string, readonly BloodRequestStatus[]>)[
    status
  ];
  return (targets ?? []).filter(
    (target): target is RequestTransition => target !== 'pending' && target !== 'unconfirmed',
  );
}

/** Ending a request early tells the donors who were alerted; the notes say why. */
export function isClosingTransition(status: RequestTransition): boolean {
  return status === 'cancelled' || status === 'expired';
}
