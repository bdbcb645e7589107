import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import {
  RegistrationStatus,
  useHospitalHold,
} from '../../features/hospitals/components/registration-status';
import { StockUpdate } from '../../features/hospitals/components/stock-update';

/** /hospital/stock (hospital accounts of a blood centre): update the stock at the desk. */
export default function HospitalStockPage() {
  const { t } = useTranslation('pages');
  const hold = useHospitalHold();
  if (hold) {
    return (
      <Page title={t('hospitalStock.title')} description={t('hospitalStock.description')}>
        <RegistrationStatus {...hold} />
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
