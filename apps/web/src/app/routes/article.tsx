import { useParams } from 'react-router';
import { CONTENT_SLUG_PATTERN } from '@bdms/shared';
import { useArticle } from '../../features/education/api/education';
import {
  ArticleLoadError,
  ArticleLoading,
  ArticleNotFound,
} from '../../features/education/components/article-states';
import { ArticleView } from '../../features/education/components/article-view';
import { useCategoryNames } from '../../features/education/lib/category-names';
import { isApiError } from '../../lib/api-client';

/** /articles/:slug: one education article, or "Article not found" for a slug nobody published. */
export default function ArticlePage() {
  const { slug = '' } = useParams();
  const categoryNames = useCategoryNames();
  // A slug the server would refuse (400) cannot name an article: no call needed.
  const isValidSlug = CONTENT_SLUG_PATTERN.test(slug);
  const article = useArticle(slug, { enabled: isValidSlug });

  if (!isValidSlug || (isApiError(article.error) && article.error.status === 404)) {
    return <ArticleNotFound />;
  }
  if (article.isError) {
    return <ArticleLoadError error={article.error} onRetry={() => void article.refetch()} />;
  }
  if (article.isPending) return <ArticleLoading />;
  return <ArticleView key={article.data.id} article={article.data} categoryNames={categoryNames} />;
}
