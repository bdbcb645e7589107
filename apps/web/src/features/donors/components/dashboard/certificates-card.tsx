import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../../components/link-button';
import { LoadError, LoadingState } from '../../../../components/query-state';
import { CERTIFICATE_PAGE_SIZE } from '../certificates/certificate-list';
import { useDonations } from '../../api/donations';

/** How many certificates are ready, and the way to them (shares the certificates page's query). */
export function CertificatesCard({ userId }: { userId: string }) {
  const { t } = useTranslation('donors');
  const query = useDonations(userId, 1, CERTIFICATE_PAGE_SIZE);
  const headingId = useId();
  const count = query.data?.items.filter((donation) => donation.certificateAvailable).length ?? 0;
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {t('cards.certificates.title')}
      </h2>
      {query.isError && <LoadError error={query.error} onRetry={() => void query.refetch()} />}
      {query.isPending && <LoadingState />}
      {query.data && (
        <p className="text-slate-700">
          {count > 0 ? t('cards.certificates.count', { count }) : t('cards.certificates.none')}
        </p>
      )}
      <LinkButton to="/donor/certificates" variant="secondary" className="self-start">
        {t('cards.certificates.open')}
      </LinkButton>
    </section>
  );
}
