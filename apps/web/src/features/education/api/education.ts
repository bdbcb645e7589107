import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ContentPage,
  EducationCategory,
  EducationContent,
  EducationContentItem,
  EducationContentPage,
  FaqFeedbackResult,
  FaqList,
  PageSlug,
} from '@bdms/shared';
import { api } from '../../../lib/api-client';

/**
 * Calls of the public education pages (API.md "Public: facilities and education"). They live
 * under `/api/public/...`, outside `/api/v1`; none needs a session.
 */
const BASE = '/api/public/education';

/** The server caches these for 5 minutes (EDUCATION_CACHE_SECONDS); asking sooner gains nothing. */
const CONTENT_STALE_MS = 5 * 60_000;

export interface ArticleListParams {
  q?: string | undefined;
  category?: string | undefined;
  page?: number;
  pageSize?: number;
}

/** Everything under `['education']`. */
export const educationKeys = {
  all: ['education'] as const,
  articles: (params: ArticleListParams) => ['education', 'articles', params] as const,
  article: (slug: string) => ['education', 'article', slug] as const,
  featured: ['education', 'featured'] as const,
  popular: ['education', 'popular'] as const,
  categories: ['education', 'categories'] as const,
  faqs: ['education', 'faqs'] as const,
  page: (slug: PageSlug) => ['education', 'page', slug] as const,
};

/** `GET /content?q=&category=&page=&pageSize=`: newest first, or by relevance with `q`. */
export function fetchArticles(params: ArticleListParams, signal?: AbortSignal) {
  return api.get<EducationContentPage>(`${BASE}/content`, {
    query: {
      q: params.q,
      category: params.category,
      page: params.page,
      pageSize: params.pageSize,
    },
    signal,
    auth: false,
  });
}

export function useArticles(params: ArticleListParams, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: educationKeys.articles(params),
    queryFn: ({ signal }) => fetchArticles(params, signal),
    placeholderData: keepPreviousData,
    staleTime: CONTENT_STALE_MS,
    enabled: options.enabled ?? true,
  });
}

/** `GET /content/{slug}`: the article with its Markdown body (the server counts a view). */
export function useArticle(slug: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    enabled: options.enabled ?? true,
    queryKey: educationKeys.article(slug),
    queryFn: ({ signal }) =>
      api.get<EducationContent>(`${BASE}/content/${encodeURIComponent(slug)}`, {
        signal,
        auth: false,
      }),
    staleTime: CONTENT_STALE_MS,
  });
}

/** `GET /featured` (3 by default). */
export function useFeaturedArticles() {
  return useQuery({
    queryKey: educationKeys.featured,
    queryFn: ({ signal }) =>
      api.get<EducationContentItem[]>(`${BASE}/featured`, { signal, auth: false }),
    staleTime: CONTENT_STALE_MS,
  });
}

/** `GET /popular` (5 by default, most read first). */
export function usePopularArticles() {
  return useQuery({
    queryKey: educationKeys.popular,
    queryFn: ({ signal }) =>
      api.get<EducationContentItem[]>(`${BASE}/popular`, { signal, auth: false }),
    staleTime: CONTENT_STALE_MS,
  });
}

/** `GET /categories`: in the education page's order, with their article counts. */
export function useCategories() {
  return useQuery({
    queryKey: educationKeys.categories,
    queryFn: ({ signal }) =>
      api.get<EducationCategory[]>(`${BASE}/categories`, { signal, auth: false }),
    staleTime: CONTENT_STALE_MS,
  });
}

/** `POST /content/{id}/download`: the article as a PDF (the server counts a download). */
export function downloadArticle(id: string): Promise<Blob> {
  return api.post<Blob>(`${BASE}/content/${encodeURIComponent(id)}/download`, undefined, {
    responseType: 'blob',
    auth: false,
  });
}

/** `GET /faqs`: every question (a few dozen), filtered on the device as the visitor types. */
export function useFaqs() {
  return useQuery({
    queryKey: educationKeys.faqs,
    queryFn: ({ signal }) => api.get<FaqList>(`${BASE}/faqs`, { signal, auth: false }),
    staleTime: CONTENT_STALE_MS,
  });
}

/** `POST /faqs/{id}/feedback {helpful}`; the new counts replace the cached ones. */
export function useFaqFeedback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, helpful }: { id: string; helpful: boolean }) =>
      api.post<FaqFeedbackResult>(
        `${BASE}/faqs/${encodeURIComponent(id)}/feedback`,
        { helpful },
        { auth: false },
      ),
    onSuccess: (result) => {
      queryClient.setQueryData<FaqList>(educationKeys.faqs, (list) =>
        list
          ? {
              items: list.items.map((faq) =>
                faq.id === result.id
                  ? {
                      ...faq,
                      helpfulCount: result.helpfulCount,
                      notHelpfulCount: result.notHelpfulCount,
                    }
                  : faq,
              ),
            }
          : list,
      );
    },
  });
}

/** `GET /api/public/pages/{privacy|terms}`. */
export function useContentPage(slug: PageSlug) {
  return useQuery({
    queryKey: educationKeys.page(slug),
    queryFn: ({ signal }) =>
      api.get<ContentPage>(`/api/public/pages/${slug}`, { signal, auth: false }),
    staleTime: CONTENT_STALE_MS,
  });
}
