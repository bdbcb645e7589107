import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CONDITION_CODES, type Questionnaire } from '@bdms/shared';
import { i18n } from '../../../../i18n';
import { mockApi, ok } from '../../../../test/api';
import { renderWithApp } from '../../../../test/render';
import { QuestionnaireStep } from './questionnaire-step';

/** Questions NBTC 2017 (and its COVID-19 advisories) defers for, asked since issue #14. */
const NEW_QUESTIONS: Record<string, string> = {
  covid_infection: 'COVID-19',
  covid_contact: 'Close contact with someone who had COVID-19',
  covid_vaccine: 'A COVID-19 vaccine dose',
  malaria_travel: 'Travel to an area with malaria',
  zika_travel: 'Travel to an area with Zika virus',
  dental_work: 'Dental treatment, such as a filling, cleaning or tooth extraction',
  alcohol: 'Alcohol in the last 24 hours',
  hepatitis_b_immunoglobulin: 'A hepatitis B immunoglobulin injection',
  high_risk_behaviour:
    'Sex work, injecting drugs, or sex with many partners (or a partner who does these)',
  kidney_disease: 'A long-term kidney disease',
  liver_disease: 'A long-term liver disease',
  lung_disease: 'A long-term lung disease',
  asthma_steroids: 'Asthma treated with steroids',
  mental_illness: 'A serious mental illness, such as schizophrenia or bipolar disorder',
  leprosy: 'Leprosy',
  sexually_transmitted_infection:
    'A sexually transmitted infection, such as syphilis or gonorrhoea',
  endocrine_disorder: 'A hormone (endocrine) disorder, such as an overactive thyroid',
  cjd_risk:
    'Risk of Creutzfeldt-Jakob disease (a family history, or growth hormone or brain-covering grafts)',
};

const saved: Questionnaire = {
  answers: { weightKg: 60, firstTimeDonor: true, feelsWell: true, conditions: [] },
  submittedAt: '2026-06-15T19:00:00.000Z',
  eligible: true,
  nextEligibleAt: null,
  deferrals: [],
  maxVolumeMl: 450,
};

function renderStep(onSaved = vi.fn(), gender = 'female') {
  const api = mockApi({ 'PUT /users/u-1/questionnaire': ok({ questionnaire: saved }) });
  const rendered = renderWithApp(
    <QuestionnaireStep
      userId="u-1"
      questionnaire={null}
      dateOfBirth="1990-04-12"
      gender={gender}
      lastDonationAt={null}
      onSaved={onSaved}
      onBack={vi.fn()}
    />,
  );
  return { ...rendered, api, user: userEvent.setup(), onSaved };
}

async function answerBasics(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText(/^Weight \(kg\)/), '60');
  const firstTime = screen.getByRole('radiogroup', { name: /first time giving blood/ });
  await user.click(within(firstTime).getByRole('radio', { name: 'Yes' }));
  const feelsWell = screen.getByRole('radiogroup', { name: /feeling well today/ });
  await user.click(within(feelsWell).getByRole('radio', { name: 'Yes' }));
}

afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('QuestionnaireStep: the NBTC questions', () => {
  it('asks every new question, the timed ones under "Recent travel, treatment and contact"', () => {
    renderStep();
    for (const [code, label] of Object.entries(NEW_QUESTIONS)) {
      expect(screen.getByRole('checkbox', { name: label }), code).toHaveAttribute('value', code);
    }
    const recent = screen.getByRole('group', { name: 'Recent travel, treatment and contact' });
    for (const label of ['A COVID-19 vaccine dose', 'Alcohol in the last 24 hours']) {
      expect(within(recent).getByRole('checkbox', { name: label })).toBeInTheDocument();
    }
    // Every condition the rules know is asked (women see them all).
    const asked = screen.getAllByRole('checkbox').map((box) => box.getAttribute('value'));
    expect(asked.sort()).toEqual([...CONDITION_CODES].sort());
  });

  it('asks the questions of issue #32 item 5: recovery from surgery, harvests, release, period, polycythaemia, hazardous work', async () => {
    const { user, api, onSaved } = renderStep();
    await answerBasics(user);
    const events = screen.getByRole('group', { name: /In the past 12 months/ });
    for (const label of [
      'Donated bone marrow',
      'Donated stem cells from your blood (apheresis)',
      'Released from prison, jail or other confinement',
    ]) {
      expect(within(events).getByRole('checkbox', { name: label })).toBeInTheDocument();
    }
    const now = screen.getByRole('group', { name: 'Right now' });
    expect(within(now).getByRole('checkbox', { name: "I'm having my period" })).toBeInTheDocument();
    const longTerm = screen.getByRole('group', { name: 'Long-term health conditions' });
    expect(
      within(longTerm).getByRole('checkbox', { name: 'Polycythaemia (too many red blood cells)' }),
    ).toBeInTheDocument();

    // Surgery: the date asked is the recovery, and the wait says so.
    await user.click(screen.getByRole('checkbox', { name: 'Major surgery' }));
    const recovered = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    await user.type(screen.getByLabelText(/^Date you fully recovered from the surgery/), recovered);
    expect(
      await screen.findByText(/After major surgery, the wait is 12 months from full recovery\./),
    ).toBeVisible();

    // A hazardous duty defers nobody: the donor is told, and the answer is saved.
    const work = screen.getByRole('group', { name: 'Your work' });
    expect(screen.queryByText(/do not go on it for the rest of the day/)).toBeNull();
    await user.click(within(work).getByRole('checkbox', { name: /My work is a hazardous duty/ }));
    expect(screen.getByText(/do not go on it for the rest of the day \(24 hours\)/)).toBeVisible();
    await user.click(screen.getByRole('checkbox', { name: "I'm having my period" }));
    expect(await screen.findByText('Please wait until your period is over.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.callsTo('PUT /users/u-1/questionnaire')[0]!.body).toEqual({
      answers: {
        weightKg: 60,
        firstTimeDonor: true,
        feelsWell: true,
        conditions: ['major_surgery', 'menstruating', 'hazardous_occupation'],
        conditionDates: { major_surgery: recovered },
      },
    });
  });

  it('does not ask men about their period', () => {
    renderStep(vi.fn(), 'male');
    expect(screen.queryByRole('checkbox', { name: "I'm having my period" })).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'Donated bone marrow' })).toBeInTheDocument();
  });

  it('asks the date of a new timed question, explains the wait and saves it', async () => {
    const { user, api, onSaved } = renderStep();
    await answerBasics(user);
    await user.click(screen.getByRole('checkbox', { name: 'Travel to an area with Zika virus' }));
    const today = new Date().toISOString().slice(0, 10);
    const returned = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    await user.type(screen.getByLabelText(/^Date you came back/), returned);
    expect(
      await screen.findByText(
        /After travel to an area with Zika virus, the wait is 120 days from your return\./,
      ),
    ).toBeVisible();
    await user.click(screen.getByRole('checkbox', { name: 'Leprosy' }));
    expect(
      await screen.findByRole('heading', { name: 'Thank you for wanting to help' }),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.callsTo('PUT /users/u-1/questionnaire')[0]!.body).toEqual({
      answers: {
        weightKg: 60,
        firstTimeDonor: true,
        feelsWell: true,
        conditions: ['zika_travel', 'leprosy'],
        conditionDates: { zika_travel: returned },
      },
    });
    expect(returned < today).toBe(true);
  });

  it('speaks Hindi', async () => {
    await i18n.changeLanguage('hi');
    renderStep();
    expect(screen.getByRole('checkbox', { name: 'पिछले 24 घंटों में शराब पी है' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'कुष्ठ रोग' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'हाल की यात्रा, इलाज और संपर्क' })).toBeInTheDocument();
  });
});

describe('QuestionnaireStep: Indian dates', () => {
  it("takes today's Indian date at 00:30 IST, when the UTC date is still yesterday's", async () => {
    // 00:30 IST on 16 June 2026 = 19:00 UTC on 15 June.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(new Date('2026-06-15T19:00:00.000Z'));
    const { user, api, onSaved } = renderStep();
    await answerBasics(user);
    await user.click(
      screen.getByRole('checkbox', {
        name: 'Dental treatment, such as a filling, cleaning or tooth extraction',
      }),
    );
    const date = screen.getByLabelText(/^Date of the treatment/);
    expect(date).toHaveAttribute('max', '2026-06-16');

    await user.type(date, '2026-06-17');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() =>
      expect(date).toHaveAccessibleDescription("The date can't be in the future."),
    );
    expect(api.callsTo('PUT /users/u-1/questionnaire')).toHaveLength(0);

    await user.clear(date);
    await user.type(date, '2026-06-16');
    // 72 hours from the end of 16 June: from 20 June.
    expect(
      await screen.findByRole('heading', {
        name: /^Not right now: you can give blood from (June 20, 2026|20 June 2026)$/,
      }),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.callsTo('PUT /users/u-1/questionnaire')[0]!.body).toMatchObject({
      answers: { conditions: ['dental_work'], conditionDates: { dental_work: '2026-06-16' } },
    });
  }, 20_000);
});
