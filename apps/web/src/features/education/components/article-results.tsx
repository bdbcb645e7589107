import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { Pagination } from '../../../components/pagination';
import { LoadError } from '../../../components/query-state';
import { useArticles } from '../api/education';
import { ARTICLES_PAGE_SIZE, type EducationSearch } from '../lib/search-params';
import { ArticleCardList, ArticleListSkeleton } from './article-card';

/**
 * The articles of the current search (or all of them, newest first), a page at a time, with
 * its loading, empty and error states. The count is announced when a search finishes.
 */
export function ArticleResults({
  search,
  categoryNames,
  onPageChange,
}: {
  search: EducationSearch;
  categoryNames: ReadonlyMap<string, string>;
  onPageChange: (page: number) => void;
}) {
  const { t } = useTranslation('education');
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { q, category, page } = search;
  const isFiltered = Boolean(q || category);
  const articles = useArticles({
    q: q || undefined,
    category: category || undefined,
    page,
    pageSize: ARTICLES_PAGE_SIZE,
  });
  const categoryName = categoryNames.get(category) ?? category;

  // A new page of results: start reading (and tabbing) at its heading.
  const previousPage = useRef(page);
  useEffect(() => {
    if (previousPage.current === page) return;
    previousPage.current = page;
    headingRef.current?.focus({ preventScroll: true });
    headingRef.current?.scrollIntoView?.({ block: 'start' });
  }, [page]);

  const total = articles.data?.total ?? 0;
  const summary = !articles.isSuccess
    ? ''
    : q && category
      ? t('list.summaryBoth', { count: total, q, category: categoryName })
      : q
        ? t('list.summaryQuery', { count: total, q })
        : category
          ? t('list.summaryCategory', { count: total, category: categoryName })
          : t('list.summaryAll', { count: total });

  return (
    <section aria-labelledby={headingId} className="min-w-0">
      <h2
        id={headingId}
        ref={headingRef}
        tabIndex={-1}
        className="scroll-mt-20 text-2xl font-bold text-slate-900"
      >
        {isFiltered ? t('list.results') : t('list.allArticles')}
      </h2>
      <p role="status" className="mt-1 mb-4 min-h-6 text-slate-700">
        {articles.isFetching && articles.isPlaceholderData ? t('list.loading') : summary}
      </p>
      {articles.isPending ? (
        <ArticleListSkeleton count={4} />
      ) : articles.isError ? (
        <LoadError error={articles.error} onRetry={() => void articles.refetch()} />
      ) : articles.data.items.length === 0 ? (
        <div className="rounded-xl border-2 border-dashed border-slate-300 p-6">
          <p className="text-lg font-semibold text-slate-900">
            {total > 0
              ? t('list.pageEmpty')
              : q && category
                ? t('list.emptyBoth', { q, category: categoryName })
                : q
                  ? t('list.emptyQuery', { q })
                  : t('list.emptyCategory', { category: categoryName })}
          </p>
          <p className="mt-2 text-slate-700">{t('list.emptyHint')}</p>
          <LinkButton to="/education" variant="secondary" className="mt-4">
            {t('list.showAll')}
          </LinkButton>
        </div>
      ) : (
        <div aria-busy={articles.isPlaceholderData || undefined}>
          <ArticleCardList articles={articles.data.items} categoryNames={categoryNames} />
          <Pagination
            page={page}
            pageSize={ARTICLES_PAGE_SIZE}
            total={total}
            onPageChange={onPageChange}
            label={t('list.pagination')}
            isLoading={articles.isFetching}
          />
        </div>
      )}
    </section>
  );
}
