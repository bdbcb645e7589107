import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { LoadError } from '../../components/query-state';
import { useCategories } from '../../features/education/api/education';
import { ArticleResults } from '../../features/education/components/article-results';
import { ArticleSearchForm } from '../../features/education/components/article-search-form';
import { CategoryFilter } from '../../features/education/components/category-filter';
import {
  FeaturedArticles,
  PopularArticles,
} from '../../features/education/components/featured-articles';
import { useCategoryNames } from '../../features/education/lib/category-names';
import { useEducationSearch } from '../../features/education/lib/search-params';

/**
 * /education: search and topics (kept in the URL: `?q=&category=&page=`), the featured and most
 * read articles, and every article a page at a time. While a search or topic is chosen the
 * results come first and the featured articles step aside.
 */
export default function EducationPage() {
  const { t } = useTranslation(['pages', 'education']);
  const search = useEducationSearch();
  const categories = useCategories();
  const categoryNames = useCategoryNames();

  return (
    <Page
      title={t('pages:education.title')}
      description={t('pages:education.description')}
      lead={t('pages:education.intro')}
    >
      <div className="mt-8 flex flex-col gap-5">
        <ArticleSearchForm query={search.q} onSearch={(q) => search.update({ q })} />
        {categories.isError ? (
          <LoadError error={categories.error} onRetry={() => void categories.refetch()} />
        ) : categories.isPending ? (
          <div aria-hidden="true" className="flex animate-pulse gap-2 overflow-hidden">
            {Array.from({ length: 5 }, (_, index) => (
              <span key={index} className="h-11 w-32 shrink-0 rounded-full bg-slate-200" />
            ))}
          </div>
        ) : (
          <CategoryFilter
            categories={categories.data}
            names={categoryNames}
            current={search.category}
            query={search.q}
          />
        )}
      </div>

      {!search.isFiltered && <FeaturedArticles categoryNames={categoryNames} />}

      <div className="mt-10 grid gap-10 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <ArticleResults
          search={search}
          categoryNames={categoryNames}
          onPageChange={(page) => search.update({ page })}
        />
        <PopularArticles />
      </div>
    </Page>
  );
}
