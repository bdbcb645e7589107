import { Fragment, type ReactNode } from 'react';

/**
 * Renders `<name>text</name>` markers of a translated sentence with the given elements, so a
 * translator can move a link within the sentence. (react-i18next's Trans does this too, but
 * would put its parser on every page's first load.)
 */
export function TaggedText({
  text,
  tags,
}: {
  text: string;
  tags: Record<string, (children: string) => ReactNode>;
}) {
  const parts: ReactNode[] = [];
  const pattern = /<(\w+)>(.*?)<\/\1>/g;
  let last = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const [whole, name = '', inner = ''] = match;
    parts.push(text.slice(last, match.index));
    const render = tags[name];
    parts.push(<Fragment key={match.index}>{render ? render(inner) : inner}</Fragment>);
    last = match.index + whole.length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}
