import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { ELIGIBILITY_RULES, FACILITY_DATA } from '@bdms/shared';
import { mockApi } from '../../test/api';
import { renderRoutes, type RenderOptions } from '../../test/render';
import { routes } from '../router';

function renderAbout(options: RenderOptions = {}) {
  mockApi({});
  return renderRoutes(routes, { ...options, path: '/about' });
}

describe('/about', () => {
  it('says what the service is, for whom, and that it is free', async () => {
    renderAbout();
    expect(await screen.findByRole('heading', { level: 1, name: 'About Us' })).toBeVisible();
    const what = screen.getByRole('region', { name: 'What this service is' });
    for (const audience of ['Blood donors', 'People who need blood', 'Hospitals', 'Everyone']) {
      expect(within(what).getByText(audience)).toBeVisible();
    }
    expect(screen.getByRole('region', { name: 'Free for everyone' })).toHaveTextContent(
      'Nobody pays to use this service',
    );
  });

  it('explains privacy with the donation intervals of the eligibility rules', async () => {
    renderAbout();
    const privacy = await screen.findByRole('region', { name: 'How your privacy is protected' });
    expect(privacy).toHaveTextContent('Contacts are never shown to strangers.');
    expect(privacy).toHaveTextContent('Requests are checked first.');
    expect(privacy).toHaveTextContent(
      `${ELIGIBILITY_RULES.donationIntervalDays.male} days for men and ${ELIGIBILITY_RULES.donationIntervalDays.female} days for women`,
    );
    expect(privacy).toHaveTextContent('90 days for men and 120 days for women');
    expect(within(privacy).getByRole('link', { name: 'Read the privacy policy' })).toHaveAttribute(
      'href',
      '/privacy',
    );
  });

  it('names the source of the blood bank data, its date and its licence', async () => {
    renderAbout();
    const data = await screen.findByRole('region', {
      name: 'Where the blood bank data comes from',
    });
    expect(within(data).getByRole('link', { name: FACILITY_DATA.sourceName })).toHaveAttribute(
      'href',
      FACILITY_DATA.sourceUrl,
    );
    expect(within(data).getByRole('link', { name: FACILITY_DATA.licence })).toHaveAttribute(
      'href',
      FACILITY_DATA.licenceUrl,
    );
    expect(data).toHaveTextContent('as published in April 2018');
    expect(data).toHaveTextContent('Please call to confirm before you go.');
    // The directory link follows its flag, like the header's.
    expect(
      within(data).queryByRole('link', { name: 'Open the blood bank directory' }),
    ).not.toBeInTheDocument();
  });

  it('links to the directory and the emergency request when their flags are on', async () => {
    renderAbout({ flags: { bloodBankDirectory: true, emergencyServices: true } });
    expect(
      await screen.findByRole('link', { name: 'Open the blood bank directory' }),
    ).toHaveAttribute('href', '/blood-banks');
    expect(screen.getByRole('link', { name: 'Request blood now' })).toHaveAttribute(
      'href',
      '/emergency',
    );
  });

  it('says how to reach the team', async () => {
    renderAbout();
    const reach = await screen.findByRole('region', { name: 'How to reach us' });
    expect(within(reach).getByRole('link', { name: 'Help centre' })).toHaveAttribute(
      'href',
      '/help',
    );
    expect(within(reach).getByRole('link', { name: 'Contact us' })).toHaveAttribute(
      'href',
      '/contact',
    );
  });
});
