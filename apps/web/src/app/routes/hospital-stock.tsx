import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { StockUpdate } from '../../features/hospitals/components/stock-update';

/** /hospital/stock (hospital accounts of a blood centre): update the stock at the desk. */
export default function HospitalStockPage() {
  const { t } = useTranslation('pages');
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
