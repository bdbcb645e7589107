import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { CONTENT_SLUG_PATTERN } from '@bdms/shared';

/** Articles per page of results: four rows of two cards beside "Most read" on a wide screen. */
export const ARTICLES_PAGE_SIZE = 8;
/** The server refuses longer searches. */
export const SEARCH_MAX_LENGTH = 200;

export interface EducationSearch {
  /** Trimmed; '' when none. */
  q: string;
  /** A category slug, or '' for every category. */
  category: string;
  /** 1-based. */
  page: number;
}

/** Reads `?q=&category=&page=`, ignoring what the server would refuse (a bad page is page 1). */
export function parseEducationSearch(params: URLSearchParams): EducationSearch {
  const q = (params.get('q') ?? '').trim().slice(0, SEARCH_MAX_LENGTH);
  const rawCategory = (params.get('category') ?? '').trim();
  const category = CONTENT_SLUG_PATTERN.test(rawCategory) ? rawCategory : '';
  const page = Number(params.get('page'));
  return { q, category, page: Number.isInteger(page) && page > 1 ? page : 1 };
}

/** The query string of a search: empty values and page 1 are left out, so URLs stay short. */
export function educationSearchString({ q, category, page }: Partial<EducationSearch>): string {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (category) params.set('category', category);
  if (page && page > 1) params.set('page', String(page));
  const search = params.toString();
  return search ? `?${search}` : '';
}

/**
 * The education page's search lives in the URL, so results can be shared and Back returns to
 * the previous search. Every change is a new history entry.
 */
export function useEducationSearch() {
  const [params, setParams] = useSearchParams();
  const search = useMemo(() => parseEducationSearch(params), [params]);
  const update = useCallback(
    (next: Partial<EducationSearch>) => {
      // A new search or category starts again at page 1.
      const merged = { ...search, page: 1, ...next };
      const nextSearch = educationSearchString(merged);
      // Searching again for the same thing adds no history entry.
      if (nextSearch === educationSearchString(search)) return;
      setParams(new URLSearchParams(nextSearch));
    },
    [search, setParams],
  );
  return { ...search, isFiltered: Boolean(search.q || search.category), update };
}
