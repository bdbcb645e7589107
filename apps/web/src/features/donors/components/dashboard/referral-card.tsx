import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MyReferrals } from '@bdms/shared';
import { Button } from '../../../../components/button';
import { LoadError, LoadingState } from '../../../../components/query-state';
import { api } from '../../../../lib/api-client';
import { useFormatDate } from '../../../../lib/dates';
import { donorKeys } from '../../api/keys';

/** `GET /referrals/me` in the interface language (the share text is written in it). */
function useMyReferrals(userId: string, language: string) {
  return useQuery({
    queryKey: [...donorKeys.all(userId), 'referrals', language] as const,
    queryFn: ({ signal }) =>
      api.get<MyReferrals>('/referrals/me', { query: { lang: language }, signal }),
  });
}

/**
 * Invite friends (flag `referralSystem`): the donor's link and code, a WhatsApp share with a
 * ready text (the link only, nothing personal), how many joined and donated, the badges, and
 * the first names of those who agreed to be named.
 */
export function ReferralCard({ userId }: { userId: string }) {
  const { t, i18n } = useTranslation('donors');
  const formatDate = useFormatDate();
  const query = useMyReferrals(userId, i18n.language);
  const headingId = useId();
  const [copied, setCopied] = useState(false);
  const data = query.data;
  const copy = (text: string) => {
    void navigator.clipboard?.writeText(text).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {t('cards.referrals.title')}
      </h2>
      {query.isError && <LoadError error={query.error} onRetry={() => void query.refetch()} />}
      {query.isPending && <LoadingState />}
      {data && (
        <>
          <p className="text-slate-700">{t('cards.referrals.intro')}</p>
          <p className="text-slate-800">
            {t('cards.referrals.code')}{' '}
            <span className="font-mono text-lg font-bold tracking-widest text-slate-900">
              {data.code}
            </span>
          </p>
          <p className="break-all text-sm text-slate-700">{data.link}</p>
          <div className="flex flex-wrap items-center gap-3">
            <a
              href={data.whatsappUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex min-h-11 items-center rounded-lg bg-success-700 px-4 font-semibold text-white no-underline hover:bg-success-800"
            >
              {t('cards.referrals.whatsapp')}
              <span className="sr-only"> {t('cards.referrals.newTab')}</span>
            </a>
            <Button type="button" variant="secondary" onClick={() => copy(data.link)}>
              {t('cards.referrals.copy')}
            </Button>
            <span aria-live="polite" className="text-sm text-success-800">
              {copied ? t('cards.referrals.copied') : ''}
            </span>
          </div>
          <p className="text-slate-900">
            {t('cards.referrals.counts', { joined: data.joined, donated: data.donated })}
          </p>
          <ul aria-label={t('cards.referrals.badges')} className="flex flex-wrap gap-2">
            {data.milestones.map((milestone) => (
              <li
                key={milestone.joined}
                className={
                  milestone.reached
                    ? 'rounded-full bg-primary-50 px-3 py-1 text-sm font-semibold text-primary-800 ring-1 ring-primary-200'
                    : 'rounded-full bg-slate-50 px-3 py-1 text-sm text-slate-600 ring-1 ring-slate-200'
                }
              >
                {t(milestone.reached ? 'cards.referrals.badge' : 'cards.referrals.badgeLocked', {
                  count: milestone.joined,
                })}
              </li>
            ))}
          </ul>
          {data.friends.length > 0 && (
            <ul className="flex flex-col gap-1 text-sm text-slate-800">
              {data.friends.map((friend) => (
                <li key={`${friend.firstName}-${friend.joinedAt}`}>
                  {t(friend.donated ? 'cards.referrals.friendDonated' : 'cards.referrals.friend', {
                    name: friend.firstName,
                    date: formatDate(friend.joinedAt, 'long'),
                  })}
                </li>
              ))}
            </ul>
          )}
          <p className="text-sm text-slate-600">{t('cards.referrals.privacy')}</p>
        </>
      )}
    </section>
  );
}
