import { useMemo, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { Page } from '../../components/page';
import { LoadError, LoadingState } from '../../components/query-state';
import { useFaqs } from '../../features/education/api/education';
import { FaqGroups } from '../../features/education/components/faq-list';
import { FaqSearchBox } from '../../features/education/components/faq-search-box';
import { StillNeedHelp } from '../../features/education/components/still-need-help';
import { filterFaqs } from '../../features/education/lib/faq-search';

/**
 * /help: every FAQ (one call, a few dozen), filtered on the device as the visitor types (`?q=`
 * keeps the search in the address without adding history entries), grouped by category.
 */
export default function HelpPage() {
  const { t } = useTranslation(['pages', 'education']);
  const [params, setParams] = useSearchParams();
  const { hash } = useLocation();
  const [query, setQuery] = useState(() => params.get('q') ?? '');
  const faqs = useFaqs();
  const matches = useMemo(() => filterFaqs(faqs.data?.items ?? [], query), [faqs.data, query]);
  const isSearching = query.trim() !== '';

  const search = (value: string) => {
    setQuery(value);
    setParams(value.trim() ? { q: value } : {}, { replace: true, preventScrollReset: true });
  };

  return (
    <Page
      title={t('pages:help.title')}
      description={t('pages:help.description')}
      lead={t('pages:help.intro')}
    >
      <div className="mt-8">
        <FaqSearchBox value={query} onChange={search} />
      </div>
      <p role="status" className="mt-4 min-h-6 text-slate-700">
        {faqs.isSuccess && isSearching
          ? t('education:help.matches', { count: matches.length, q: query.trim() })
          : ''}
      </p>
      <div className="mt-4 max-w-3xl">
        {faqs.isPending ? (
          // The answers fill more than a screen: their place is kept, so their arrival moves
          // nothing the reader sees.
          <div className="min-h-dvh">
            <LoadingState label={t('education:help.loading')} />
          </div>
        ) : faqs.isError ? (
          <LoadError error={faqs.error} onRetry={() => void faqs.refetch()} />
        ) : matches.length === 0 ? (
          <div className="rounded-xl border-2 border-dashed border-slate-300 p-6">
            <p className="text-lg font-semibold text-slate-900">
              {t('education:help.empty', { q: query.trim() })}
            </p>
            <p className="mt-2 text-slate-700">{t('education:help.emptyHint')}</p>
            <Button variant="secondary" className="mt-4" onClick={() => search('')}>
              {t('education:help.clearSearch')}
            </Button>
          </div>
        ) : (
          <FaqGroups faqs={matches} openId={hash.startsWith('#faq-') ? hash.slice(5) : undefined} />
        )}
        <StillNeedHelp />
      </div>
    </Page>
  );
}
