import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useFeatureFlag } from '../../../config/use-config';
import { cn } from '../../../lib/cn';

const LINKS = [
  { to: '/admin', key: 'overview', end: true },
  { to: '/admin/verification', key: 'verification', end: false },
  { to: '/admin/requests', key: 'requests', end: false },
  { to: '/admin/reports', key: 'reports', end: false },
] as const;

/**
 * Moves between the console screens; the current one is marked for every reader. The monthly
 * report is listed while the flag `analyticsReporting` is on.
 */
export function AdminNav() {
  const { t } = useTranslation('admin');
  const reports = useFeatureFlag('analyticsReporting');
  return (
    <nav aria-label={t('nav.label')} className="mt-6 border-b border-slate-200">
      <ul className="-mb-px flex flex-wrap gap-x-1">
        {LINKS.filter((link) => link.key !== 'reports' || reports).map((link) => (
          <li key={link.to} className="shrink-0">
            <NavLink
              to={link.to}
              end={link.end}
              className={({ isActive }) =>
                cn(
                  'inline-flex min-h-11 items-center border-b-4 px-2 font-semibold no-underline sm:px-4',
                  isActive
                    ? 'border-primary-700 text-primary-800'
                    : 'border-transparent text-slate-700 hover:border-slate-300 hover:text-slate-900',
                )
              }
            >
              {t(`nav.${link.key}`)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
