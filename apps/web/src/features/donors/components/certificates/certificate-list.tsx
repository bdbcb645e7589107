import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Pagination } from '../../../../components/pagination';
import { LoadError, LoadingState } from '../../../../components/query-state';
import { useFormatDate } from '../../../../lib/dates';
import { useDonations } from '../../api/donations';
import { DownloadCertificateButton } from './download-certificate-button';

/** Donations per request: a donor gives at most a few times a year, so one page covers years. */
export const CERTIFICATE_PAGE_SIZE = 100;

/** Where anyone can check a certificate (the address printed on it). */
export function verificationUrl(certificateNumber: string): string {
  return `${window.location.origin}/api/v1/certificates/${encodeURIComponent(certificateNumber)}`;
}

/** Verified donations, each with its certificate to download and its verification link. */
export function CertificateList({ userId }: { userId: string }) {
  const { t } = useTranslation('donors');
  const formatDate = useFormatDate();
  const [page, setPage] = useState(1);
  const query = useDonations(userId, page, CERTIFICATE_PAGE_SIZE);

  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data) return <LoadingState />;
  const certified = query.data.items.filter((donation) => donation.certificateAvailable);
  const selfReported = query.data.items.length - certified.length;

  return (
    <div className="flex flex-col gap-4">
      {certified.length === 0 ? (
        <p className="rounded-lg bg-slate-50 p-4 text-slate-700">{t('certificates.empty')}</p>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {certified.map((donation) => (
            <li
              key={donation.id}
              className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
            >
              <div>
                <h2 className="text-lg font-semibold text-slate-900">
                  {formatDate(donation.donatedAt, 'long')}
                </h2>
                <p className="text-slate-700">{donation.place}</p>
              </div>
              {donation.certificateNumber && (
                <dl className="flex flex-col gap-2">
                  <div>
                    <dt className="text-sm font-semibold text-slate-700">
                      {t('certificates.number')}
                    </dt>
                    <dd className="font-mono text-slate-900">{donation.certificateNumber}</dd>
                  </div>
                  <div>
                    <dt className="text-sm font-semibold text-slate-700">
                      {t('certificates.verifyLink')}
                    </dt>
                    <dd>
                      <a
                        href={verificationUrl(donation.certificateNumber)}
                        className="inline-flex min-h-11 items-center font-medium break-all text-primary-700 underline"
                      >
                        {verificationUrl(donation.certificateNumber)}
                      </a>
                      <p className="text-sm text-slate-600">{t('certificates.verifyHint')}</p>
                    </dd>
                  </div>
                </dl>
              )}
              <div>
                <DownloadCertificateButton donation={donation} />
              </div>
            </li>
          ))}
        </ul>
      )}
      {selfReported > 0 && <p className="text-slate-700">{t('certificates.selfReportedNote')}</p>}
      <Pagination
        page={page}
        pageSize={CERTIFICATE_PAGE_SIZE}
        total={query.data.total}
        onPageChange={setPage}
        label={t('certificates.pagesLabel')}
        isLoading={query.isFetching}
      />
    </div>
  );
}
