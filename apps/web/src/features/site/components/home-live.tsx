import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PublicStats } from '@bdms/shared';
import { ArrowRightIcon } from '../../../components/icons';
import { cn } from '../../../lib/cn';
import { formatLargeFigure } from '../../../lib/intl';
import {
  HOME_FEATURED_LIMIT,
  featuredArticlesQueryOptions,
  publicStatsQueryOptions,
} from '../api/home-api';
import {
  FEATURED_BOX,
  FEATURED_FOOT,
  FEATURED_GRID,
  FIGURE_BOX,
  FIGURES_GRID,
  LIVE_HEADING,
  LIVE_SECTION,
  SKELETON_BAR,
} from '../home-layout';

/**
 * The home page's live parts, a lazy chunk of their own so the first load stays within its
 * budget: the platform's figures (`GET /api/v1/public/stats`) and the featured articles
 * (`GET /api/public/education/featured`). A part whose call fails is left out: a visitor never
 * sees an invented or zero figure presented as real.
 */

const FIGURES = [
  'approvedDonors',
  'requestsFulfilled',
  'facilitiesListed',
  'articles',
] as const satisfies readonly (keyof PublicStats)[];

/** Grey boxes of the parts' exact size while their data loads (nothing to read yet). */
function Skeleton({ part }: { part: 'figures' | 'featured' }) {
  const isFigures = part === 'figures';
  return (
    <div aria-hidden="true" className={LIVE_SECTION} data-testid={`${part}-skeleton`}>
      <div className={LIVE_HEADING}>
        <div className={cn(SKELETON_BAR, 'h-full w-60 max-w-full')} />
      </div>
      <div className={isFigures ? FIGURES_GRID : FEATURED_GRID}>
        {Array.from({ length: isFigures ? FIGURES.length : HOME_FEATURED_LIMIT }, (_, index) => (
          <div
            key={index}
            className={cn(
              isFigures ? FIGURE_BOX : FEATURED_BOX,
              'flex flex-col gap-3',
              isFigures && 'justify-center',
            )}
          >
            <div className={cn(SKELETON_BAR, isFigures ? 'h-8 w-20' : 'h-6 w-4/5')} />
            <div className={cn(SKELETON_BAR, 'h-4 w-28 max-w-full')} />
            {!isFigures && <div className={cn(SKELETON_BAR, 'h-4 w-full')} />}
          </div>
        ))}
      </div>
      {!isFigures && (
        <div className={FEATURED_FOOT}>
          <div className={cn(SKELETON_BAR, 'h-5 w-32')} />
        </div>
      )}
    </div>
  );
}

export function LiveFigures() {
  const { t, i18n } = useTranslation('site');
  const { data, isPending, isError } = useQuery(publicStatsQueryOptions);

  if (isPending) return <Skeleton part="figures" />;
  if (isError) return null;

  return (
    <section aria-labelledby="figures-heading" className={LIVE_SECTION}>
      <h2 id="figures-heading" className={LIVE_HEADING}>
        {t('figures.heading')}
      </h2>
      <dl className={FIGURES_GRID}>
        {FIGURES.map((figure) => (
          <div key={figure} className={cn(FIGURE_BOX, 'flex flex-col-reverse justify-center')}>
            <dt className="line-clamp-2 text-sm font-medium text-slate-700 sm:text-base">
              {t(`figures.${figure}`)}
            </dt>
            <dd className="text-3xl font-bold text-primary-800 tabular-nums">
              {formatLargeFigure(data[figure], i18n.language)}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function FeaturedArticles() {
  const { t, i18n } = useTranslation('site');
  const { data, isPending, isError } = useQuery(featuredArticlesQueryOptions(i18n.language));

  if (isPending) return <Skeleton part="featured" />;
  if (isError || data.length === 0) return null;

  return (
    <section aria-labelledby="featured-heading" className={LIVE_SECTION}>
      <h2 id="featured-heading" className={LIVE_HEADING}>
        {t('featured.heading')}
      </h2>
      <ul className={FEATURED_GRID}>
        {data.slice(0, HOME_FEATURED_LIMIT).map((article) => (
          <li
            key={article.id}
            className={cn(
              FEATURED_BOX,
              'relative flex flex-col shadow-sm hover:border-primary-200 hover:shadow-md',
            )}
          >
            <h3 className="line-clamp-2 text-lg font-semibold text-slate-900">
              {/* The whole card is the link's target (its ::after covers it). */}
              <Link
                to={`/articles/${encodeURIComponent(article.slug)}`}
                className="after:absolute after:inset-0 after:rounded-xl after:content-[''] hover:underline focus-visible:outline-none focus-visible:after:outline-3 focus-visible:after:outline-offset-2 focus-visible:after:outline-focus"
              >
                <span lang={article.language}>{article.title}</span>
              </Link>
            </h3>
            <p lang={article.language} className="mt-2 line-clamp-3 text-slate-700">
              {article.summary}
            </p>
            <p className="mt-auto pt-2 text-sm text-slate-700">
              {t('featured.readingMinutes', { count: article.readingMinutes })}
            </p>
          </li>
        ))}
      </ul>
      <div className={FEATURED_FOOT}>
        <Link
          to="/education"
          className="inline-flex min-h-11 items-center gap-2 font-semibold text-primary-700 underline underline-offset-4 hover:text-primary-800"
        >
          {t('featured.all')}
          <ArrowRightIcon className="size-5" />
        </Link>
      </div>
    </section>
  );
}

/** Both parts, one under the other: the home page mounts this lazily. */
export default function HomeLiveSections() {
  return (
    <>
      <LiveFigures />
      <FeaturedArticles />
    </>
  );
}
