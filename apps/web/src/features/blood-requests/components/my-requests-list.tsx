import { useId } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useFormatDate } from '../../../lib/dates';
import { forgetRequest, useMyRequests } from '../lib/my-requests';

/** "Your requests on this phone": each opens its tracking page; each can be removed. */
export function MyRequestsList() {
  const { t } = useTranslation('requests');
  const formatDate = useFormatDate();
  const headingId = useId();
  const items = useMyRequests();
  if (items.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-300 p-5">
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {t('mine.title')}
      </h2>
      <ul className="mt-3 flex flex-col gap-2">
        {items.map((item) => (
          <li key={item.code} className="flex flex-wrap items-center justify-between gap-2">
            <Link
              to={`/emergency?track=${item.code}`}
              className="inline-flex min-h-11 flex-col justify-center font-semibold text-primary-700 underline"
            >
              <span className="font-mono text-lg tracking-wider">{item.code}</span>
              <span className="text-sm font-normal text-slate-700 no-underline">
                {[item.bloodType, item.hospitalName, formatDate(new Date(item.savedAt), 'medium')]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            </Link>
            <button
              type="button"
              onClick={() => forgetRequest(item.code)}
              aria-label={t('mine.forgetLabel', { code: item.code })}
              className="min-h-11 rounded-lg px-3 text-sm font-medium text-slate-700 underline hover:bg-slate-100"
            >
              {t('mine.forget')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
