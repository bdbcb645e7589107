import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { EducationCategory } from '@bdms/shared';
import { cn } from '../../../lib/cn';
import { educationSearchString } from '../lib/search-params';

const CHIP =
  'inline-flex min-h-11 shrink-0 items-center gap-2 rounded-full border-2 px-4 font-semibold whitespace-nowrap no-underline transition-colors';

/**
 * The topics as links (`?category=`), each with its number of articles; the current one is
 * marked. A search in progress is kept. One scrolling row on a phone, wrapped on wider screens.
 */
export function CategoryFilter({
  categories,
  names,
  current,
  query,
}: {
  categories: readonly EducationCategory[];
  /** Names in the visitor's language (useCategoryNames). */
  names: ReadonlyMap<string, string>;
  current: string;
  query: string;
}) {
  const { t } = useTranslation('education');
  const total = categories.reduce((sum, category) => sum + category.count, 0);
  const chips = [
    { slug: '', name: t('list.allTopics'), count: total },
    ...categories.map(({ slug, name, count }) => ({ slug, name: names.get(slug) ?? name, count })),
  ];
  return (
    <nav aria-label={t('list.topics')}>
      {/* relative: the visually hidden counts (absolutely positioned) stay inside the scrolling row. */}
      <ul className="relative -mx-4 flex gap-2 overflow-x-auto px-4 pb-2 sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0 sm:pb-0">
        {chips.map((chip) => {
          const isCurrent = chip.slug === current;
          return (
            <li key={chip.slug || 'all'} className="flex">
              <Link
                to={{
                  pathname: '/education',
                  search: educationSearchString({ q: query, category: chip.slug }),
                }}
                aria-current={isCurrent ? 'true' : undefined}
                className={cn(
                  CHIP,
                  isCurrent
                    ? 'border-primary-700 bg-primary-700 text-white hover:bg-primary-800'
                    : 'border-slate-300 bg-white text-slate-800 hover:border-slate-400 hover:bg-slate-50',
                )}
              >
                <span>{chip.name}</span>
                <span
                  aria-hidden="true"
                  className={cn(
                    'rounded-full px-2 text-sm',
                    isCurrent ? 'bg-white text-primary-800' : 'bg-slate-100 text-slate-700',
                  )}
                >
                  {chip.count}
                </span>{' '}
                <span className="sr-only">{t('list.topicCount', { count: chip.count })}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
