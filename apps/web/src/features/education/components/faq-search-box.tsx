import { useId, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Input } from '../../../components/field';
import { SEARCH_MAX_LENGTH } from '../lib/search-params';

/** The help centre's search: it filters the questions below as the visitor types. */
export function FaqSearchBox({
  value,
  onChange,
}: {
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation('education');
  const inputId = useId();
  const hintId = useId();
  // Enter has nothing to send: the list is already filtered.
  const submit = (event: FormEvent) => event.preventDefault();
  return (
    <form role="search" onSubmit={submit} className="flex max-w-3xl flex-col gap-1.5">
      <label htmlFor={inputId} className="font-semibold text-slate-900">
        {t('help.searchLabel')}
      </label>
      <p id={hintId} className="text-sm text-slate-600">
        {t('help.searchHint')}
      </p>
      <Input
        id={inputId}
        type="search"
        enterKeyHint="search"
        autoComplete="off"
        maxLength={SEARCH_MAX_LENGTH}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={hintId}
        placeholder={t('help.searchPlaceholder')}
      />
    </form>
  );
}
