import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { EmergencyNumbersText } from './emergency-numbers';

describe('EmergencyNumbersText', () => {
  it('links 108 and 112 and keeps the rest as text', () => {
    const { container } = render(
      <p>
        <EmergencyNumbersText text="Call 108 or 112 first." />
      </p>,
    );
    expect(container).toHaveTextContent('Call 108 or 112 first.');
    const links = screen.getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['tel:108', 'tel:112']);
    expect(links[0]).toHaveAccessibleName('Call 108, ambulance');
    expect(links[1]).toHaveAccessibleName('Call 112, emergency services');
  });

  it('links the numbers written in Devanagari, Bengali or Tamil digits', () => {
    render(<EmergencyNumbersText text="१०८ বা ১১২ அல்லது ௧௦௮" />);
    expect(screen.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      'tel:108',
      'tel:112',
      'tel:108',
    ]);
  });

  it('leaves longer numbers alone', () => {
    render(<EmergencyNumbersText text="Ward 1080, room 21120, 108a" />);
    expect(screen.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      'tel:108',
    ]);
  });
});
