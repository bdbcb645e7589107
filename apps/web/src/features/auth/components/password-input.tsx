import { useState, type ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { Input } from '../../../components/field';
import { EyeIcon, EyeOffIcon } from './icons';

/**
 * A password input (inside a Field) with a show/hide toggle: typing a password on a small phone
 * keyboard is error-prone, and seeing it helps. The toggle is a pressed/not-pressed button.
 */
export function PasswordInput({
  autoComplete = 'current-password',
  ...props
}: Omit<ComponentProps<'input'>, 'type'>) {
  const { t } = useTranslation('auth');
  const [isVisible, setIsVisible] = useState(false);
  return (
    <div className="relative">
      <Input
        {...props}
        type={isVisible ? 'text' : 'password'}
        autoComplete={autoComplete}
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        className="pe-14"
      />
      <button
        type="button"
        aria-pressed={isVisible}
        aria-label={t('password.show')}
        onClick={() => setIsVisible((value) => !value)}
        className="absolute inset-y-0 end-0 inline-flex w-12 items-center justify-center rounded-e-lg text-slate-700 hover:bg-slate-100 hover:text-slate-900"
      >
        {isVisible ? <EyeOffIcon className="size-6" /> : <EyeIcon className="size-6" />}
      </button>
    </div>
  );
}
