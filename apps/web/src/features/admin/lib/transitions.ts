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

/** A status a request can move to (nothing moves back to pending). */
export type RequestTransition = Exclude<BloodRequestStatus, 'pending'>;

/** API.md "Blood requests", from @bdms/shared: what the current status allows. */
export function requestTransitionsFor(status: string): readonly RequestTransition[] {
  const targets = (BLOOD_REQUEST_TRANSITIONS as Record<string, readonly BloodRequestStatus[]>)[
    status
  ];
  return (targets ?? []).filter((target): target is RequestTransition => target !== 'pending');
}

/** Ending a request early tells the donors who were alerted; the notes say why. */
export function isClosingTransition(status: RequestTransition): boolean {
  return status === 'cancelled' || status === 'expired';
}
