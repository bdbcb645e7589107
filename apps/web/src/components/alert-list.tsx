import type { ReactNode } from 'react';
import type { AlertPosition } from '@bdms/shared';
import { cn } from '../lib/cn';
import { Alert, type AlertVariant } from './alert';

/** An alert item (product spec section 3). */
export interface AlertItem {
  id: string;
  variant: AlertVariant;
  title?: ReactNode;
  message?: ReactNode;
  icon?: ReactNode;
  dismissible?: boolean;
}

const POSITIONS: Record<AlertPosition, string> = {
  'top-right': 'top-4 right-4',
  'top-left': 'top-4 left-4',
  'bottom-right': 'bottom-4 right-4',
  'bottom-left': 'bottom-4 left-4',
  'top-center': 'top-4 left-1/2 -translate-x-1/2',
  'bottom-center': 'bottom-4 left-1/2 -translate-x-1/2',
};

export interface AlertListProps {
  alerts: AlertItem[];
  /** Where the list floats; top-right unless told otherwise. */
  position?: AlertPosition;
  /** Called with the alert's id 200 ms after it was dismissed. */
  onDismiss?: (id: string) => void;
  className?: string;
}

export function AlertList({
  alerts,
  position = 'top-right',
  onDismiss,
  className,
}: AlertListProps) {
  if (alerts.length === 0) return null;
  return (
    <div
      data-position={position}
      className={cn(
        'fixed z-40 flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-3',
        position.startsWith('bottom') && 'flex-col-reverse',
        POSITIONS[position],
        className,
      )}
    >
      {alerts.map(({ id, ...alert }) => (
        <Alert key={id} {...alert} onDismiss={() => onDismiss?.(id)} />
      ))}
    </div>
  );
}
