import { useTranslation } from 'react-i18next';
import { ONBOARDING_STEPS } from '@bdms/shared';
import { cn } from '../../../../lib/cn';
import type { OnboardingStep } from '../../onboarding/step-store';

/**
 * The three steps as a numbered list. Each is a button: the donor may go back to any step (and
 * forward: what is missing is said on the review step). The current one is `aria-current="step"`.
 */
export function StepNav({
  current,
  done,
  onSelect,
}: {
  current: OnboardingStep;
  done: Partial<Record<OnboardingStep, boolean>>;
  onSelect: (step: OnboardingStep) => void;
}) {
  const { t } = useTranslation('onboarding');
  return (
    <nav aria-label={t('stepsLabel')} className="mt-6">
      <ol className="grid grid-cols-3 gap-2">
        {ONBOARDING_STEPS.map((step, index) => {
          const isCurrent = step === current;
          const isDone = Boolean(done[step]) && !isCurrent;
          const state = isCurrent ? 'current' : isDone ? 'done' : 'todo';
          return (
            <li key={step} className="min-w-0">
              <button
                type="button"
                aria-current={isCurrent ? 'step' : undefined}
                onClick={() => onSelect(step)}
                className={cn(
                  'flex min-h-11 w-full flex-col items-center gap-1 rounded-lg border-b-4 px-1 pt-1 pb-2 text-center text-sm font-semibold sm:flex-row sm:gap-2 sm:px-2 sm:text-start sm:text-base',
                  isCurrent
                    ? 'border-primary-700 text-primary-800'
                    : 'border-slate-200 text-slate-700 hover:bg-slate-50',
                )}
              >
                <span
                  aria-hidden="true"
                  className={cn(
                    'flex size-8 shrink-0 items-center justify-center rounded-full border-2 text-base',
                    isCurrent && 'border-primary-700 bg-primary-700 text-white',
                    isDone && 'border-success-700 bg-success-700 text-white',
                    state === 'todo' && 'border-slate-400 bg-white text-slate-800',
                  )}
                >
                  {isDone ? '✓' : index + 1}
                </span>
                <span className="leading-tight">
                  {t(`steps.${step}`)}
                  <span className="sr-only">, {t(`stepState.${state}`)}</span>
                </span>
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
