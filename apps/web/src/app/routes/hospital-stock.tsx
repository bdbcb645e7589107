import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { useAuth } from '../../features/auth';
import { RegistrationStatus } from '../../features/hospitals/components/registration-status';
import { StockUpdate } from '../../features/hospitals/components/stock-update';

/** /hospital/stock (hospital accounts of a blood centre): update the stock at the desk. */
export default function HospitalStockPage() {
  const { t } = useTranslation('pages');
  const hospital = useAuth().user?.hospital;
  const onHold =
    hospital?.verificationStatus === 'pending' || hospital?.verificationStatus === 'rejected'
      ? hospital.verificationStatus
      : null;
  if (onHold) {
    return (
      <Page title={t('hospitalStock.title')} description={t('hospitalStock.description')}>
        <RegistrationStatus
          verificationStatus={onHold}
          rejectionReason={hospital?.rejectionReason}
        />
      </Page>
    );
  }
  return (
    <Page
      title={t('hospitalStock.title')}
      description={t('hospitalStock.description')}
      lead={t('hospitalStock.intro')}
    >
      <StockUpdate />
    </Page>
  );
}
