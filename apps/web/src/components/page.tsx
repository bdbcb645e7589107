import type { ReactNode } from 'react';
import { usePageMeta } from '../lib/use-page-meta';
import { cn } from '../lib/cn';

export interface PageProps {
  /** The page's name: its h1 and the first part of `<title>`. */
  title: string;
  description: string;
  lead?: ReactNode;
  className?: string;
  children?: ReactNode;
}

/** A page's frame: its title and meta description, and one h1 followed by the content. */
export function Page({ title, description, lead, className, children }: PageProps) {
  usePageMeta(title, description);
  return (
    <div className={cn('container-page animate-page-in py-8 sm:py-12', className)}>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
      {lead && <p className="mt-4 max-w-3xl text-lg text-slate-700">{lead}</p>}
      {children}
    </div>
  );
}
