import { useTranslation } from 'react-i18next';
import { buttonClasses } from '../../../components/button';
import { cn } from '../../../lib/cn';
import { telHref, type PhoneNumber } from '../lib/phone-numbers';
import { PhoneIcon } from './icons';

/**
 * A facility's numbers as tap-to-call links; what cannot be called (a number published
 * incomplete) is shown as text. `compact` is the list's style, else big buttons.
 */
export function PhoneLinks({
  numbers,
  variant = 'compact',
  className,
}: {
  numbers: PhoneNumber[];
  variant?: 'compact' | 'buttons';
  className?: string;
}) {
  const { t } = useTranslation('facilities');
  if (numbers.length === 0) return null;
  return (
    <ul
      className={cn(
        variant === 'buttons' ? 'flex flex-col gap-3' : 'flex flex-wrap gap-x-4 gap-y-1',
        className,
      )}
    >
      {numbers.map((number) => {
        const href = telHref(number);
        if (!href) {
          return (
            <li key={number.text} className="flex min-h-11 items-center gap-2 text-slate-700">
              <PhoneIcon className="size-5 shrink-0 text-slate-500" />
              <span>
                {number.text} <span className="text-sm">{t('phone.notCallable')}</span>
              </span>
            </li>
          );
        }
        return (
          <li key={href}>
            {variant === 'buttons' ? (
              <a
                href={href}
                className={buttonClasses({
                  variant: 'primary',
                  size: 'lg',
                  fullWidth: true,
                  className: 'justify-start text-start',
                })}
              >
                <PhoneIcon className="size-6 shrink-0" />
                <span>{t('phone.call', { number: number.text })}</span>
              </a>
            ) : (
              <a
                href={href}
                aria-label={t('phone.call', { number: number.text })}
                className="inline-flex min-h-11 items-center gap-2 font-semibold text-primary-700 underline underline-offset-2 hover:text-primary-800"
              >
                <PhoneIcon className="size-5 shrink-0" />
                <span>{number.text}</span>
              </a>
            )}
          </li>
        );
      })}
    </ul>
  );
}
