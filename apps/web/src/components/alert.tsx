import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ALERT } from '@bdms/shared';
import { cn } from '../lib/cn';
import { CloseIcon } from './icons';
import { STATUS_STYLES, StatusIcon, isUrgent, type StatusVariant } from './status';

export type AlertVariant = StatusVariant;

export interface AlertProps {
  variant?: AlertVariant;
  title?: ReactNode;
  message?: ReactNode;
  children?: ReactNode;
  /** Replaces the variant's icon; `null` shows none. */
  icon?: ReactNode;
  /** Alerts can be dismissed unless this is false (product spec section 2). */
  dismissible?: boolean;
  /** Called 200 ms after the alert was dismissed (it hides at once). */
  onDismiss?: () => void;
  className?: string;
}

export function Alert({
  variant = 'info',
  title,
  message,
  children,
  icon,
  dismissible = true,
  onDismiss,
  className,
}: AlertProps) {
  const { t } = useTranslation();
  const [isVisible, setIsVisible] = useState(true);
  const onDismissRef = useRef(onDismiss);
  useEffect(() => {
    onDismissRef.current = onDismiss;
  });

  if (!isVisible) return null;

  const dismiss = () => {
    setIsVisible(false);
    // The callback still fires if the alert's parent unmounts meanwhile: the caller owns the list.
    setTimeout(() => onDismissRef.current?.(), ALERT.dismissCallbackDelayMs);
  };
  const styles = STATUS_STYLES[variant];

  return (
    <div
      role={isUrgent(variant) ? 'alert' : 'status'}
      className={cn(
        'flex animate-scale-in items-start gap-3 rounded-lg border-s-4 p-4 shadow-sm',
        styles.box,
        className,
      )}
    >
      {icon !== null && (
        <span className={cn('mt-0.5 shrink-0', styles.icon)}>
          {icon ?? <StatusIcon variant={variant} />}
        </span>
      )}
      <div className="min-w-0 flex-1">
        <span className="sr-only">{t(`status.${variant}`)}: </span>
        {title && <p className="font-semibold">{title}</p>}
        {message && <p className={title ? 'mt-1' : undefined}>{message}</p>}
        {children}
      </div>
      {dismissible && (
        <button
          type="button"
          onClick={dismiss}
          aria-label={t('alert.dismiss')}
          className="-m-2 inline-flex size-11 shrink-0 items-center justify-center rounded-lg hover:bg-black/5"
        >
          <CloseIcon />
        </button>
      )}
    </div>
  );
}
