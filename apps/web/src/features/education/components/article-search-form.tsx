import { useId, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button';
import { Input } from '../../../components/field';
import { SEARCH_MAX_LENGTH } from '../lib/search-params';

/**
 * The education page's search box. It searches when submitted (Enter or the button), not on
 * every key: each search is a URL, and a slow phone should not fetch half-typed words.
 */
export function ArticleSearchForm({
  query,
  onSearch,
}: {
  /** The search in the URL; the box shows it again after Back. */
  query: string;
  onSearch: (query: string) => void;
}) {
  const { t } = useTranslation('education');
  const inputId = useId();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = new FormData(event.currentTarget).get('q');
    onSearch(typeof value === 'string' ? value.trim() : '');
  };
  return (
    <form role="search" onSubmit={submit} className="flex max-w-2xl flex-col gap-1.5">
      <label htmlFor={inputId} className="font-semibold text-slate-900">
        {t('list.searchLabel')}
      </label>
      <div className="flex gap-2">
        {/* Keyed by the URL's query: Back and the topic links reset what the box shows. */}
        <Input
          key={query}
          id={inputId}
          name="q"
          type="search"
          enterKeyHint="search"
          autoComplete="off"
          maxLength={SEARCH_MAX_LENGTH}
          defaultValue={query}
          placeholder={t('list.searchPlaceholder')}
          className="min-w-0 flex-1"
        />
        <Button type="submit" className="shrink-0">
          {t('list.searchButton')}
        </Button>
      </div>
    </form>
  );
}
