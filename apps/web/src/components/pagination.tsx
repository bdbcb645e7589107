import { useTranslation } from 'react-i18next';
import { Button } from './button';

export interface PaginationProps {
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  /** Names the navigation landmark, e.g. "Donation pages". */
  label: string;
  isLoading?: boolean;
}

/** Previous / "Page 2 of 5" / Next under a paginated list; nothing when it fits one page. */
export function Pagination({
  page,
  pageSize,
  total,
  onPageChange,
  label,
  isLoading = false,
}: PaginationProps) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="mt-6 flex flex-wrap items-center justify-between gap-3">
      <Button
        variant="secondary"
        disabled={page <= 1 || isLoading}
        onClick={() => onPageChange(page - 1)}
      >
        {t('pagination.previous')}
      </Button>
      <p aria-live="polite" className="text-slate-700">
        {t('pagination.pageOf', { page, pages })}
      </p>
      <Button
        variant="secondary"
        disabled={page >= pages || isLoading}
        onClick={() => onPageChange(page + 1)}
      >
        {t('pagination.next')}
      </Button>
    </nav>
  );
}
