import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { DonationList } from '../../features/donors/components/history/donation-list';
import { ReportDonationForm } from '../../features/donors/components/history/report-donation-form';
import { DonorOnly } from './donor-only';

const REPORT_ID = 'report-donation';

/** /donor/history: every donation, and "Report a donation made elsewhere". */
export default function DonationHistoryPage() {
  const { t } = useTranslation(['pages', 'donors']);
  const { hash } = useLocation();

  // "Report a donation made elsewhere" on the dashboard links straight to the form.
  useEffect(() => {
    if (hash !== `#${REPORT_ID}`) return;
    const form = document.getElementById(REPORT_ID);
    form?.scrollIntoView({ block: 'start' });
    form?.querySelector<HTMLInputElement>('input')?.focus({ preventScroll: true });
  }, [hash]);

  return (
    <Page
      title={t('pages:donorHistory.title')}
      description={t('donors:pages.history.description')}
      lead={t('donors:pages.history.intro')}
    >
      <DonorOnly>
        {(user) => (
          <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,1fr)_24rem] lg:items-start">
            <section aria-labelledby="donation-list-heading" className="flex flex-col gap-4">
              <h2 id="donation-list-heading" className="text-2xl font-bold text-slate-900">
                {t('donors:history.listTitle')}
              </h2>
              <DonationList userId={user.id} />
            </section>
            <ReportDonationForm userId={user.id} id={REPORT_ID} />
          </div>
        )}
      </DonorOnly>
    </Page>
  );
}
