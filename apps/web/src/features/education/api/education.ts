import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ContentLanguage,
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
import { useContentLanguage } from '../lib/content-language';

/**
 * Calls of the public education pages (API.md "Public: facilities and education"). They live
 * under `/api/public/...`, outside `/api/v1`; none needs a session. Every read sends the
 * reader's content language (`?lang=`, lib/content-language.ts) and keeps it in its query key:
 * the server answers each entry in that language when translated, else in English, and says
 * which in each entry's `language`.
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

/** Everything under `['education']`; the reader's language is part of each content key. */
export const educationKeys = {
  all: ['education'] as const,
  articles: (params: ArticleListParams, lang: ContentLanguage) =>
    ['education', 'articles', lang, params] as const,
  article: (slug: string, lang: ContentLanguage) => ['education', 'article', lang, slug] as const,
  featured: (lang: ContentLanguage) => ['education', 'featured', lang] as const,
  popular: (lang: ContentLanguage) => ['education', 'popular', lang] as const,
  categories: ['education', 'categories'] as const,
  /** Every language's FAQ list (a vote changes the counts in all of them). */
  allFaqs: ['education', 'faqs'] as const,
  faqs: (lang: ContentLanguage) => ['education', 'faqs', lang] as const,
  page: (slug: PageSlug, lang: ContentLanguage) => ['education', 'page', lang, slug] as const,
};

/** `GET /content?q=&category=&page=&pageSize=&lang=`: newest first, or by relevance with `q`. */
export function fetchArticles(
  params: ArticleListParams,
  lang: ContentLanguage,
  signal?: AbortSignal,
) {
  return api.get<EducationContentPage>(`${BASE}/content`, {
    query: {
      q: params.q,
      category: params.category,
      page: params.page,
      pageSize: params.pageSize,
      lang,
    },
    signal,
    auth: false,
  });
}

export function useArticles(params: ArticleListParams, options: { enabled?: boolean } = {}) {
  const lang = useContentLanguage();
  return useQuery({
    queryKey: educationKeys.articles(params, lang),
    queryFn: ({ signal }) => fetchArticles(params, lang, signal),
    placeholderData: keepPreviousData,
    staleTime: CONTENT_STALE_MS,
    enabled: options.enabled ?? true,
  });
}

/** `GET /content/{slug}`: the article with its Markdown body (the server counts a view). */
export function useArticle(slug: string, options: { enabled?: boolean } = {}) {
  const lang = useContentLanguage();
  return useQuery({
    enabled: options.enabled ?? true,
    queryKey: educationKeys.article(slug, lang),
    queryFn: ({ signal }) =>
      api.get<EducationContent>(`${BASE}/content/${encodeURIComponent(slug)}`, {
        query: { lang },
        signal,
        auth: false,
      }),
    staleTime: CONTENT_STALE_MS,
  });
}

/** `GET /featured` (3 by default). */
export function useFeaturedArticles() {
  const lang = useContentLanguage();
  return useQuery({
    queryKey: educationKeys.featured(lang),
    queryFn: ({ signal }) =>
      api.get<EducationContentItem[]>(`${BASE}/featured`, {
        query: { lang },
        signal,
        auth: false,
      }),
    staleTime: CONTENT_STALE_MS,
  });
}

/** `GET /popular` (5 by default, most read first). */
export function usePopularArticles() {
  const lang = useContentLanguage();
  return useQuery({
    queryKey: educationKeys.popular(lang),
    queryFn: ({ signal }) =>
      api.get<EducationContentItem[]>(`${BASE}/popular`, {
        query: { lang },
        signal,
        auth: false,
      }),
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

/** `POST /content/{id}/download`: the article as a PDF in `lang` (the server counts a download). */
export function downloadArticle(id: string, lang: ContentLanguage): Promise<Blob> {
  return api.post<Blob>(`${BASE}/content/${encodeURIComponent(id)}/download`, undefined, {
    query: { lang },
    responseType: 'blob',
    auth: false,
  });
}

/** `GET /faqs`: every question (a few dozen), filtered on the device as the visitor types. */
export function useFaqs() {
  const lang = useContentLanguage();
  return useQuery({
    queryKey: educationKeys.faqs(lang),
    queryFn: ({ signal }) =>
      api.get<FaqList>(`${BASE}/faqs`, { query: { lang }, signal, auth: false }),
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
      queryClient.setQueriesData<FaqList>({ queryKey: educationKeys.allFaqs }, (list) =>
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
  const lang = useContentLanguage();
  return useQuery({
    queryKey: educationKeys.page(slug, lang),
    queryFn: ({ signal }) =>
      api.get<ContentPage>(`/api/public/pages/${slug}`, {
        query: { lang },
        signal,
        auth: false,
      }),
    staleTime: CONTENT_STALE_MS,
  });
}
