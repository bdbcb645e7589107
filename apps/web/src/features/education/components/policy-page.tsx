import { useTranslation } from 'react-i18next';
import type { PageSlug } from '@bdms/shared';
import { Page } from '../../../components/page';
import { LoadError, LoadingState } from '../../../components/query-state';
import { useFormatDate } from '../../../lib/dates';
import { useContentPage } from '../api/education';
import { textLanguageProps, useReaderLanguage } from '../lib/content-language';
import { EnglishOnlyNote } from './english-only-note';
import { MarkdownContent } from './markdown';

/**
 * The privacy policy or the terms of service (`GET /api/public/pages/{slug}`): the policy's own
 * title and summary, its version (the one donors consent to) and date, and its text.
 */
export function PolicyPage({ slug }: { slug: PageSlug }) {
  const { t } = useTranslation(['pages', 'education']);
  const formatDate = useFormatDate();
  const policy = useContentPage(slug);
  const readerLanguage = useReaderLanguage();
  const pageName = t(`pages:${slug}.title`);
  const description = t(`pages:${slug}.description`);

  if (!policy.isSuccess) {
    return (
      <Page title={pageName} description={description}>
        <div className="mt-6 max-w-xl">
          {policy.isError ? (
            <LoadError error={policy.error} onRetry={() => void policy.refetch()} />
          ) : (
            // The text is longer than a screen: its place is kept, so its arrival moves nothing
            // the reader sees (the footer waits below the fold).
            <div className="min-h-dvh">
              <LoadingState label={t('education:policy.loading')} />
            </div>
          )}
        </div>
      </Page>
    );
  }

  const { data } = policy;
  const textLanguage = textLanguageProps(data.language, readerLanguage);
  // The policy's own title when it is in the reader's language; else the page's translated name
  // (the note below says the text is in English).
  return (
    <Page
      title={data.language === readerLanguage ? data.title : pageName}
      description={description}
    >
      <p {...textLanguage} className="mt-4 max-w-3xl text-lg text-slate-700">
        {data.summary}
      </p>
      <p className="mt-3 text-slate-700">
        {t('education:policy.version', {
          version: data.version,
          date: formatDate(data.updated, 'long'),
        })}
      </p>
      <EnglishOnlyNote textLanguage={data.language} />
      <MarkdownContent {...textLanguage} className="mt-8 border-t border-slate-200 pt-8">
        {data.body}
      </MarkdownContent>
    </Page>
  );
}
