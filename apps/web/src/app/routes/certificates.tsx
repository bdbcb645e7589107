import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { CertificateList } from '../../features/donors/components/certificates/certificate-list';
import { DonorOnly } from './donor-only';

/** /donor/certificates: a certificate for each verified donation. */
export default function CertificatesPage() {
  const { t } = useTranslation(['pages', 'donors']);
  return (
    <Page
      title={t('pages:donorCertificates.title')}
      description={t('donors:pages.certificates.description')}
      lead={t('donors:pages.certificates.intro')}
    >
      <div className="mt-8">
        <DonorOnly>{(user) => <CertificateList userId={user.id} />}</DonorOnly>
      </div>
    </Page>
  );
}
