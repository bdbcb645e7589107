import { useTranslation } from 'react-i18next';
import { cn } from '../../../lib/cn';
import { STRENGTH_LEVELS, passwordStrength } from './password-strength';

const BAR_COLOURS = {
  weak: 'bg-primary-700',
  fair: 'bg-warning-700',
  good: 'bg-info-700',
  strong: 'bg-success-700',
} as const;

/** Four bars and a word (never colour alone), announced politely as the level changes. */
export function PasswordStrengthMeter({ password, id }: { password: string; id?: string }) {
  const { t } = useTranslation('auth');
  const level = passwordStrength(password);
  const filled = level ? STRENGTH_LEVELS.indexOf(level) + 1 : 0;
  return (
    <div className="flex flex-col gap-1">
      <div aria-hidden="true" className="grid grid-cols-4 gap-1">
        {STRENGTH_LEVELS.map((bar, index) => (
          <span
            key={bar}
            className={cn(
              'h-1.5 rounded-full',
              level && index < filled ? BAR_COLOURS[level] : 'bg-slate-200',
            )}
          />
        ))}
      </div>
      <p id={id} aria-live="polite" className="min-h-6 text-sm font-medium text-slate-700">
        {level && t('password.strength', { level: t(`password.levels.${level}`) })}
      </p>
    </div>
  );
}
