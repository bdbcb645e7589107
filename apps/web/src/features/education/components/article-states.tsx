import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { Page } from '../../../components/page';
import { LoadError } from '../../../components/query-state';
import { usePageMeta } from '../../../lib/use-page-meta';
import { ArticleBreadcrumb } from './article-view';

/** An unknown (or unpublished) slug: a page that says so, with the way back. */
export function ArticleNotFound() {
  const { t } = useTranslation('education');
  return (
    <Page
      title={t('article.notFound.title')}
      description={t('article.notFound.description')}
      lead={t('article.notFound.message')}
    >
      <LinkButton to="/education" className="mt-6">
        {t('article.notFound.back')}
      </LinkButton>
    </Page>
  );
}

/** The article's shape in grey while it loads, announced as "Loading the article...". */
export function ArticleLoading() {
  const { t } = useTranslation(['education', 'pages']);
  usePageMeta(t('pages:article.title'), t('pages:article.description'));
  return (
    <div className="container-page py-8 sm:py-12">
      <ArticleBreadcrumb />
      <p role="status" className="sr-only">
        {t('education:article.loading')}
      </p>
      <div aria-hidden="true" className="mt-6 flex max-w-3xl animate-pulse flex-col gap-4">
        <span className="h-4 w-40 rounded bg-slate-200" />
        <span className="h-10 w-5/6 rounded bg-slate-200" />
        <span className="h-5 w-full rounded bg-slate-100" />
        <span className="h-5 w-3/4 rounded bg-slate-100" />
        <span className="mt-4 h-11 w-44 rounded-lg bg-slate-200" />
        <span className="mt-8 h-4 w-full rounded bg-slate-100" />
        <span className="h-4 w-full rounded bg-slate-100" />
        <span className="h-4 w-2/3 rounded bg-slate-100" />
      </div>
    </div>
  );
}

/** The article could not be loaded (network, server): what went wrong and Try Again. */
export function ArticleLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation('pages');
  return (
    <Page title={t('article.title')} description={t('article.description')}>
      <div className="mt-6 max-w-xl">
        <LoadError error={error} onRetry={onRetry} />
      </div>
    </Page>
  );
}
