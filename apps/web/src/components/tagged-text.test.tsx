import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { TaggedText } from './tagged-text';

describe('TaggedText', () => {
  it('renders tagged parts with the given elements, wherever the translator put them', () => {
    const { container } = render(
      <TaggedText
        text="मैं <privacy>गोपनीयता नीति</privacy> और <terms>शर्तों</terms> से सहमत हूँ।"
        tags={{
          privacy: (text) => <a href="/privacy">{text}</a>,
          terms: (text) => <a href="/terms">{text}</a>,
        }}
      />,
    );
    expect(screen.getByRole('link', { name: 'गोपनीयता नीति' })).toHaveAttribute('href', '/privacy');
    expect(screen.getByRole('link', { name: 'शर्तों' })).toHaveAttribute('href', '/terms');
    expect(container).toHaveTextContent('मैं गोपनीयता नीति और शर्तों से सहमत हूँ।');
  });

  it('shows the text of unknown tags without markup', () => {
    const { container } = render(<TaggedText text="a <b>bold</b> c" tags={{}} />);
    expect(container.innerHTML).toBe('a bold c');
  });
});
