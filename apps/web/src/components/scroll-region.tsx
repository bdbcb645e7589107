import type { ReactNode } from 'react';

/**
 * A box that scrolls on its own (a wide table on a phone): a named region that takes focus, so
 * the keyboard can scroll it too (axe: scrollable-region-focusable).
 */
export function ScrollRegion({
  label,
  className = 'overflow-x-auto',
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div tabIndex={0} role="region" aria-label={label} className={className}>
      {children}
    </div>
  );
}
