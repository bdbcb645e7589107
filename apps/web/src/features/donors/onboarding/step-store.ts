import { APP_SLUG, ONBOARDING_STEPS } from '@bdms/shared';
import { storage } from '../../../lib/storage';

export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

/**
 * The step the donor is on, remembered on this device so a reload (or a flaky network that
 * reloads the page) resumes there. What the donor entered is on the server; only the step name
 * is stored here, never an answer.
 */
const keyFor = (userId: string) => `${APP_SLUG}-onboarding-step:${userId}`;

export function isOnboardingStep(value: unknown): value is OnboardingStep {
  return typeof value === 'string' && (ONBOARDING_STEPS as readonly string[]).includes(value);
}

export function readSavedStep(userId: string): OnboardingStep | null {
  const value = storage.get(keyFor(userId));
  return isOnboardingStep(value) ? value : null;
}

export function saveStep(userId: string, step: OnboardingStep): void {
  storage.set(keyFor(userId), step);
}

export function clearSavedStep(userId: string): void {
  storage.remove(keyFor(userId));
}
