import { useId } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { EducationContent } from '@bdms/shared';
import { ClockIcon } from '../../../components/icons';
import { useFormatDate } from '../../../lib/dates';
import { usePageMeta } from '../../../lib/use-page-meta';
import { useArticles } from '../api/education';
import { useTextLanguage } from '../lib/content-language';
import { educationSearchString } from '../lib/search-params';
import { ArticleCardList } from './article-card';
import { DownloadArticleButton } from './download-article-button';
import { EnglishOnlyNote } from './english-only-note';
import { MarkdownContent } from './markdown';

/** "Learn About Blood Donation › <category>": the way back to the education page. */
export function ArticleBreadcrumb({
  category,
  categoryName,
}: {
  category?: string | undefined;
  categoryName?: string | undefined;
}) {
  const { t } = useTranslation(['education', 'pages']);
  return (
    <nav aria-label={t('education:article.breadcrumb')}>
      <ol className="flex flex-wrap items-center gap-x-2 gap-y-1 text-slate-700">
        <li>
          <Link to="/education" className="font-medium text-primary-700 underline">
            {t('pages:education.title')}
          </Link>
        </li>
        {category && categoryName && (
          <li className="flex items-center gap-2">
            <span aria-hidden="true" className="text-slate-500">
              ›
            </span>
            <Link
              to={{ pathname: '/education', search: educationSearchString({ category }) }}
              className="font-medium text-primary-700 underline"
            >
              {categoryName}
            </Link>
          </li>
        )}
      </ol>
    </nav>
  );
}

/**
 * One article: its heading, reading time and date, the PDF download, the text (with its own
 * Sources section) and more articles of its category. The tab's title is the article's title and
 * the meta description its summary.
 */
export function ArticleView({
  article,
  categoryNames,
}: {
  article: EducationContent;
  categoryNames: ReadonlyMap<string, string>;
}) {
  const { t } = useTranslation('education');
  const formatDate = useFormatDate();
  const headingId = useId();
  usePageMeta(article.title, article.summary);
  const categoryName = categoryNames.get(article.category);
  const textLanguage = useTextLanguage(article.language);

  return (
    <div className="container-page animate-page-in py-8 sm:py-12">
      <ArticleBreadcrumb category={article.category} categoryName={categoryName} />
      <article aria-labelledby={headingId} className="mt-6">
        <header className="max-w-3xl">
          {categoryName && (
            <p className="text-sm font-semibold tracking-wide text-primary-800 uppercase">
              {categoryName}
            </p>
          )}
          <h1
            id={headingId}
            {...textLanguage}
            className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
          >
            {article.title}
          </h1>
          <p {...textLanguage} className="mt-4 text-lg text-slate-700">
            {article.summary}
          </p>
          <p className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-1 text-slate-700">
            <span className="inline-flex items-center gap-1.5">
              <ClockIcon className="size-4" />
              {t('article.readingTime', { count: article.readingMinutes })}
            </span>
            <time dateTime={article.publishedAt}>
              {t('article.published', { date: formatDate(article.publishedAt, 'long') })}
            </time>
          </p>
          <div className="mt-5">
            <DownloadArticleButton id={article.id} slug={article.slug} />
          </div>
          <EnglishOnlyNote textLanguage={article.language} />
        </header>
        <MarkdownContent {...textLanguage} className="mt-8 border-t border-slate-200 pt-8">
          {article.body}
        </MarkdownContent>
      </article>
      <RelatedArticles
        article={article}
        categoryName={categoryName}
        categoryNames={categoryNames}
      />
    </div>
  );
}

const RELATED_COUNT = 3;

/** Up to three other articles of the same category; nothing when it has no others. */
export function RelatedArticles({
  article,
  categoryName,
  categoryNames,
}: {
  article: Pick<EducationContent, 'id' | 'category'>;
  categoryName: string | undefined;
  categoryNames: ReadonlyMap<string, string>;
}) {
  const { t } = useTranslation('education');
  const headingId = useId();
  const related = useArticles({ category: article.category, pageSize: RELATED_COUNT + 1 });
  const others = (related.data?.items ?? [])
    .filter((item) => item.id !== article.id)
    .slice(0, RELATED_COUNT);
  if (others.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="mt-12 border-t border-slate-200 pt-8">
      <h2 id={headingId} className="mb-4 text-2xl font-bold text-slate-900">
        {categoryName ? t('article.moreIn', { category: categoryName }) : t('article.more')}
      </h2>
      <ArticleCardList articles={others} categoryNames={categoryNames} columns={3} />
    </section>
  );
}
