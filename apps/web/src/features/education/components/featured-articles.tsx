import { useId } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/query-state';
import { useFeaturedArticles, usePopularArticles } from '../api/education';
import { textLanguageProps, useReaderLanguage } from '../lib/content-language';
import { ArticleCardList, ArticleListSkeleton, articlePath } from './article-card';

/** "Featured articles": the three the editors chose (`GET /featured`). */
export function FeaturedArticles({
  categoryNames,
}: {
  categoryNames: ReadonlyMap<string, string>;
}) {
  const { t } = useTranslation('education');
  const headingId = useId();
  const featured = useFeaturedArticles();
  if (featured.isSuccess && featured.data.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="mt-10">
      <h2 id={headingId} className="mb-4 text-2xl font-bold text-slate-900">
        {t('list.featured')}
      </h2>
      {featured.isPending ? (
        <ArticleListSkeleton count={3} columns={3} />
      ) : featured.isError ? (
        <LoadError error={featured.error} onRetry={() => void featured.refetch()} />
      ) : (
        <ArticleCardList
          articles={featured.data}
          categoryNames={categoryNames}
          columns={3}
          tone="emphasis"
        />
      )}
    </section>
  );
}

/** "Most read": the five most viewed (`GET /popular`), a short numbered list. */
export function PopularArticles() {
  const { t } = useTranslation('education');
  const headingId = useId();
  const popular = usePopularArticles();
  const readerLanguage = useReaderLanguage();
  if (popular.isSuccess && popular.data.length === 0) return null;
  return (
    <section
      aria-labelledby={headingId}
      className="self-start rounded-xl border border-slate-200 bg-slate-50 p-5"
    >
      <h2 id={headingId} className="text-xl font-bold text-slate-900">
        {t('list.popular')}
      </h2>
      {popular.isPending ? (
        <div className="mt-4 flex animate-pulse flex-col gap-4" aria-hidden="true">
          {Array.from({ length: 5 }, (_, index) => (
            <span key={index} className="h-5 rounded bg-slate-200" />
          ))}
        </div>
      ) : popular.isError ? (
        <div className="mt-4">
          <LoadError error={popular.error} onRetry={() => void popular.refetch()} />
        </div>
      ) : (
        <ol className="mt-4 flex flex-col gap-3">
          {popular.data.map((article, index) => (
            <li key={article.id} className="flex gap-3">
              <span
                aria-hidden="true"
                className="flex size-8 shrink-0 items-center justify-center rounded-full bg-white font-bold text-primary-800 ring-1 ring-primary-200"
              >
                {index + 1}
              </span>
              <div className="min-w-0">
                <Link
                  to={articlePath(article.slug)}
                  {...textLanguageProps(article.language, readerLanguage)}
                  className="font-semibold text-slate-900 underline decoration-slate-300 hover:decoration-primary-700"
                >
                  {article.title}
                </Link>
                <p className="text-sm text-slate-600">
                  {t('article.readingTime', { count: article.readingMinutes })}
                </p>
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
