import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { EducationContentItem } from '@bdms/shared';
import { ClockIcon } from '../../../components/icons';
import { cn } from '../../../lib/cn';
import { useTextLanguage } from '../lib/content-language';

export function articlePath(slug: string): string {
  return `/articles/${encodeURIComponent(slug)}`;
}

export interface ArticleCardProps {
  article: EducationContentItem;
  /** The category's name (from `GET /categories`); left out while unknown. */
  categoryName?: string | undefined;
  tone?: 'default' | 'emphasis';
}

/**
 * An article in a list: category, title (the link), summary and reading time. The whole card
 * is the link's target area, a big tap target on a phone; the link itself is the title only,
 * so a screen reader hears a short name.
 */
export function ArticleCard({ article, categoryName, tone = 'default' }: ArticleCardProps) {
  const { t } = useTranslation('education');
  const textLanguage = useTextLanguage(article.language);
  return (
    <article
      className={cn(
        'relative flex h-full flex-col rounded-xl p-5 shadow-sm transition-colors hover:border-primary-700 has-[:focus-visible]:ring-3 has-[:focus-visible]:ring-focus',
        tone === 'emphasis'
          ? 'border-2 border-primary-200 bg-primary-50'
          : 'border border-slate-200 bg-white',
      )}
    >
      {categoryName && <p className="text-sm font-semibold text-primary-800">{categoryName}</p>}
      <h3 className="mt-1 text-lg leading-snug font-semibold text-slate-900" {...textLanguage}>
        <Link
          to={articlePath(article.slug)}
          className="no-underline after:absolute after:inset-0 after:rounded-xl hover:underline focus-visible:outline-none"
        >
          {article.title}
        </Link>
      </h3>
      <p className="mt-2 text-slate-700" {...textLanguage}>
        {article.summary}
      </p>
      <p className="mt-auto flex items-center gap-1.5 pt-3 text-sm text-slate-600">
        <ClockIcon className="size-4" />
        {t('article.readingTime', { count: article.readingMinutes })}
      </p>
    </article>
  );
}

/** Cards in a responsive grid: one column on a phone, up to `columns` on a wide screen. */
export function ArticleCardList({
  articles,
  categoryNames,
  columns = 2,
  tone,
}: {
  articles: readonly EducationContentItem[];
  categoryNames: ReadonlyMap<string, string>;
  columns?: 2 | 3;
  tone?: ArticleCardProps['tone'];
}) {
  return (
    <ul
      className={cn(
        'grid gap-4 sm:grid-cols-2',
        columns === 3 ? 'lg:grid-cols-3' : 'lg:grid-cols-2',
      )}
    >
      {articles.map((article) => (
        <li key={article.id}>
          <ArticleCard
            article={article}
            categoryName={categoryNames.get(article.category)}
            tone={tone}
          />
        </li>
      ))}
    </ul>
  );
}

/** Grey cards where articles are about to appear; announced once as "Loading articles...". */
export function ArticleListSkeleton({ count, columns = 2 }: { count: number; columns?: 2 | 3 }) {
  const { t } = useTranslation('education');
  return (
    <div>
      <p role="status" className="sr-only">
        {t('list.loading')}
      </p>
      <ul
        aria-hidden="true"
        className={cn(
          'grid gap-4 sm:grid-cols-2',
          columns === 3 ? 'lg:grid-cols-3' : 'lg:grid-cols-2',
        )}
      >
        {Array.from({ length: count }, (_, index) => (
          <li
            key={index}
            className="flex h-44 animate-pulse flex-col gap-3 rounded-xl border border-slate-200 p-5"
          >
            <span className="h-3 w-1/3 rounded bg-slate-200" />
            <span className="h-5 w-4/5 rounded bg-slate-200" />
            <span className="h-3 w-full rounded bg-slate-100" />
            <span className="h-3 w-11/12 rounded bg-slate-100" />
            <span className="mt-auto h-3 w-1/4 rounded bg-slate-100" />
          </li>
        ))}
      </ul>
    </div>
  );
}
