import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { HOUR } from '@bdms/shared';
import { renderWithApp } from '../../../test/render';
import { MapPopupContent } from './map-popup';

const POINT = {
  id: 'bb-2250',
  name: 'Asian Blood Bank',
  latitude: 17.4,
  longitude: 78.5,
  href: '/blood-banks/bb-2250',
  detail: '7.8 km away',
};

describe('MapPopupContent', () => {
  it('shows the centre, its distance, and the units of the group asked with their age', async () => {
    renderWithApp(
      <MapPopupContent
        point={{
          ...POINT,
          stock: {
            bloodType: 'O-',
            component: 'prbc',
            units: 3,
            updatedAt: new Date(Date.now() - 2 * HOUR).toISOString(),
          },
        }}
      />,
    );
    expect(await screen.findByRole('link', { name: 'Asian Blood Bank' })).toHaveAttribute(
      'href',
      '/blood-banks/bb-2250',
    );
    expect(screen.getByText('7.8 km away')).toBeVisible();
    expect(screen.getByText('O- Packed red cells: 3 units')).toBeVisible();
    expect(screen.getByText('Updated 2 hours ago')).toBeVisible();
    expect(screen.queryByText('Stale')).not.toBeInTheDocument();
  });

  it('marks a figure older than 24 hours as stale', async () => {
    renderWithApp(
      <MapPopupContent
        point={{
          ...POINT,
          stock: {
            bloodType: 'B+',
            component: 'platelets',
            units: 1,
            updatedAt: new Date(Date.now() - 30 * HOUR).toISOString(),
          },
        }}
      />,
    );
    expect(await screen.findByText('B+ Platelets: 1 unit')).toBeVisible();
    expect(screen.getByText('Updated yesterday')).toBeVisible();
    expect(screen.getByText('Stale')).toBeVisible();
  });

  it('shows no stock line outside the stock filter', async () => {
    renderWithApp(<MapPopupContent point={POINT} />);
    expect(await screen.findByRole('link', { name: 'Asian Blood Bank' })).toBeVisible();
    expect(screen.queryByText(/Updated/)).not.toBeInTheDocument();
  });
});
