import type { HTMLAttributes, ReactNode } from 'react';
import { cn } from '../lib/cn';

export interface CardProps extends Omit<HTMLAttributes<HTMLElement>, 'title'> {
  as?: 'div' | 'section' | 'article' | 'li';
  tone?: 'default' | 'emphasis' | 'muted';
  title?: ReactNode;
  titleAs?: 'h2' | 'h3' | 'h4';
  icon?: ReactNode;
}

const TONES = {
  default: 'border border-slate-200 bg-white',
  emphasis: 'border-2 border-primary-200 bg-primary-50',
  muted: 'border border-slate-200 bg-slate-50',
} as const;

export function Card({
  as: Element = 'div',
  tone = 'default',
  title,
  titleAs: Title = 'h3',
  icon,
  className,
  children,
  ...props
}: CardProps) {
  return (
    <Element className={cn('rounded-xl p-5 shadow-sm', TONES[tone], className)} {...props}>
      {(title || icon) && (
        <div className="mb-2 flex items-start gap-3">
          {icon && <span className="mt-0.5 shrink-0 text-primary-700">{icon}</span>}
          {title && <Title className="text-lg font-semibold text-slate-900">{title}</Title>}
        </div>
      )}
      {children}
    </Element>
  );
}
