import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { createActivityLog } from './activity-log';
import { loadDonorFacts, onboardingState } from './donor-facts';
import type { Notifier } from '../features/notifications/notifier';

export interface DonorInputContext {
  notifier: Pick<Notifier, 'notify' | 'notifyAdmins'>;
  /** The `documentUpload` flag: an ID proof is required to complete onboarding. */
  idProofRequired: boolean;
  actorId: string;
  actorRole: string;
  requestId: string | null;
  now: number;
}

export interface DonorInputOutcome {
  /** A rejected donor went back to pending. */
  resubmitted: boolean;
  /** Onboarding became complete with this change (administrators were told). */
  completed: boolean;
}

/**
 * Runs in the transaction of a donor's own change to their documents or questionnaire
 * (API.md "Donor status"): a rejected donor goes back to `pending`, and when onboarding becomes
 * complete the administrators are told that a donor awaits verification — once per submission.
 */
export async function afterDonorInputChanged(
  tx: Db,
  userId: string,
  context: DonorInputContext,
): Promise<DonorInputOutcome> {
  const activity = createActivityLog(tx);
  const [user] = await tx
    .select({ status: users.status, onboardingCompletedAt: users.onboardingCompletedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('update')
    .limit(1);
  if (!user) return { resubmitted: false, completed: false };
  let completedAt = user.onboardingCompletedAt;
  let status = user.status;
  const resubmitted = status === 'rejected';
  if (resubmitted) {
    status = 'pending';
    completedAt = null;
    await tx
      .update(users)
      .set({ status, onboardingCompletedAt: null, rejectionReason: null })
      .where(eq(users.id, userId));
    await activity.record({
      action: 'donor.resubmitted',
      actorId: context.actorId,
      actorRole: context.actorRole,
      targetType: 'user',
      targetId: userId,
      details: { from: 'rejected', to: 'pending' },
      requestId: context.requestId,
    });
    await context.notifier.notify(tx, userId, { type: 'donor.resubmitted', link: '/onboarding' });
  }
  const state = onboardingState(await loadDonorFacts(tx, userId), context.idProofRequired);
  if (!state.onboardingCompleted || completedAt) return { resubmitted, completed: false };
  await tx
    .update(users)
    .set({ onboardingCompletedAt: new Date(context.now) })
    .where(eq(users.id, userId));
  // Approved or suspended donors editing their answers are not new work for the administrators.
  if (status !== 'pending') return { resubmitted, completed: false };
  await activity.record({
    action: 'donor.onboarding_completed',
    actorId: context.actorId,
    actorRole: context.actorRole,
    targetType: 'user',
    targetId: userId,
    details: { idProofRequired: context.idProofRequired },
    requestId: context.requestId,
  });
  await context.notifier.notifyAdmins(tx, {
    type: 'donor.awaiting_verification',
    link: '/admin/verification',
  });
  return { resubmitted, completed: true };
}
