import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DonorDocument, OnboardingStatus, Questionnaire } from '@bdms/shared';
import type { User } from '../../features/auth';
import { fail, mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { makeUser, seedSession } from '../../test/session';
import { routes } from '../router';

const DAY = 86_400_000;

function pendingDonor(overrides: Partial<User> = {}): User {
  return makeUser({
    status: 'pending',
    isApproved: false,
    verification: { isVerified: false },
    onboardingCompleted: false,
    questionnaireCompleted: false,
    gender: 'female',
    ...overrides,
  });
}

function status(overrides: Partial<OnboardingStatus> = {}): OnboardingStatus {
  return {
    status: 'pending',
    documentsUploaded: false,
    questionnaireCompleted: false,
    onboardingCompleted: false,
    steps: [
      { key: 'documents', done: false },
      { key: 'questionnaire', done: false },
      { key: 'review', done: false },
    ],
    idProofRequired: true,
    rejectionReason: null,
    ...overrides,
  };
}

function idProof(overrides: Partial<DonorDocument> = {}): DonorDocument {
  return {
    id: 'doc-1',
    type: 'id_proof',
    fileName: 'voter-id.pdf',
    mimeType: 'application/pdf',
    size: 120_000,
    verified: false,
    rejectionReason: null,
    status: 'pending',
    uploadedAt: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}

function questionnaire(overrides: Partial<Questionnaire> = {}): Questionnaire {
  return {
    answers: { weightKg: 58, firstTimeDonor: true, feelsWell: true, conditions: [] },
    submittedAt: '2026-11-01T10:00:00.000Z',
    eligible: true,
    nextEligibleAt: null,
    deferrals: [],
    maxVolumeMl: 450,
    ...overrides,
  };
}

async function renderOnboarding({
  user = pendingDonor(),
  server = {},
  onboarding = status(),
  documents = [],
  answers = null,
  path = '/onboarding',
}: {
  user?: User;
  server?: Record<string, MockRoute>;
  onboarding?: OnboardingStatus;
  documents?: DonorDocument[];
  answers?: Questionnaire | null;
  path?: string;
} = {}) {
  await seedSession(user);
  const api = mockApi({
    'GET /auth/me': ok({ user }),
    'GET /users/u-1/onboarding-status': ok(onboarding),
    'GET /documents/list': ok({ documents }),
    'GET /users/u-1/questionnaire': ok({ questionnaire: answers }),
    ...server,
  });
  const rendered = renderRoutes(routes, { path });
  await screen.findByRole('navigation', { name: 'Registration steps' });
  return { ...rendered, api, user: userEvent.setup({ applyAccept: false }) };
}

const longDate = (date: Date | string) =>
  new Intl.DateTimeFormat('en-IN', { dateStyle: 'long', timeZone: 'Asia/Kolkata' }).format(
    new Date(date),
  );

describe('onboarding stepper', () => {
  it('starts at the documents step, titled for the route', async () => {
    await renderOnboarding({ path: '/donor/onboarding' });
    expect(
      screen.getByRole('heading', { level: 1, name: 'Complete Your Registration' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Your documents' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Documents, current step/ })).toHaveAttribute(
      'aria-current',
      'step',
    );
  });

  it('resumes at the step saved on this device after a reload', async () => {
    window.localStorage.setItem('bdms-onboarding-step:u-1', 'questionnaire');
    await renderOnboarding();
    expect(screen.getByText('Step 2 of 3')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Health questions' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Health questions, current step/ })).toHaveAttribute(
      'aria-current',
      'step',
    );
  });

  it('remembers the step the donor moves to', async () => {
    const { user } = await renderOnboarding({ onboarding: status({ idProofRequired: false }) });
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Health questions' }),
    ).toHaveFocus();
    expect(window.localStorage.getItem('bdms-onboarding-step:u-1')).toBe('questionnaire');
  });
});

describe('onboarding documents', () => {
  it('requires an ID proof while the documentUpload flag is on (idProofRequired)', async () => {
    const { user } = await renderOnboarding({ onboarding: status({ idProofRequired: true }) });
    const card = screen.getByRole('heading', { name: 'ID proof' }).closest('li')!;
    expect(within(card).getByText('Required')).toBeInTheDocument();
    expect(within(card).getByText('Not uploaded yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Upload your ID proof to continue.');
    expect(screen.getByLabelText('Upload ID proof')).toHaveFocus();
    expect(screen.getByRole('heading', { level: 2, name: 'Your documents' })).toBeInTheDocument();
  });

  it('makes every document optional while the flag is off', async () => {
    const { user } = await renderOnboarding({ onboarding: status({ idProofRequired: false }) });
    const card = screen.getByRole('heading', { name: 'ID proof' }).closest('li')!;
    expect(within(card).getByText('Optional')).toBeInTheDocument();
    expect(screen.queryByText('Required')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Health questions' }),
    ).toBeInTheDocument();
  });

  it('refuses a 6 MB file before sending it', async () => {
    const { user, api } = await renderOnboarding();
    const file = new File([new Uint8Array(6 * 1024 * 1024)], 'scan.pdf', {
      type: 'application/pdf',
    });
    await user.upload(screen.getByLabelText('Upload ID proof'), file);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This file is 6 MB. Choose a file of 5 MB or less.',
    );
    expect(screen.getByLabelText('Upload ID proof')).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST /documents')).toHaveLength(0);
  });

  it('refuses a file type that is not PDF, JPEG, PNG or WebP before sending it', async () => {
    const { user, api } = await renderOnboarding();
    await user.upload(
      screen.getByLabelText('Upload Photo'),
      new File(['GIF89a'], 'me.gif', { type: 'image/gif' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "This file type isn't accepted. Choose a PDF, JPEG, PNG or WebP file.",
    );
    expect(api.callsTo('POST /documents')).toHaveLength(0);
  });

  it('says so when the server finds the content is not an accepted type (415)', async () => {
    const { user, api } = await renderOnboarding({
      server: { 'POST /documents': fail(415, 'UNSUPPORTED_MEDIA_TYPE') },
    });
    await user.upload(
      screen.getByLabelText('Upload ID proof'),
      new File(['not really a pdf'], 'id.pdf', { type: 'application/pdf' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "This file isn't a real PDF, JPEG, PNG or WebP file, whatever its name says. Choose another file.",
    );
    expect(api.callsTo('POST /documents')).toHaveLength(1);
  });

  it('says what to do when the server could not draw the file again, by its reason (#32 item 16)', async () => {
    const { user } = await renderOnboarding({
      server: {
        'POST /documents': fail(415, 'UNSUPPORTED_MEDIA_TYPE', {
          details: { reason: 'too_many_pages', maxPages: 10 },
        }),
      },
    });
    await user.upload(
      screen.getByLabelText('Upload ID proof'),
      new File(['%PDF-1.7 twelve pages'], 'id.pdf', { type: 'application/pdf' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'A document may have at most 10 pages. Upload only the pages that are needed.',
    );
  });

  it('says so when the server finds the file too large (413)', async () => {
    const { user } = await renderOnboarding({
      server: { 'POST /documents': fail(413, 'PAYLOAD_TOO_LARGE') },
    });
    await user.upload(
      screen.getByLabelText('Upload ID proof'),
      new File(['%PDF-1.7'], 'id.pdf', { type: 'application/pdf' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This file is larger than 5 MB. Choose a smaller file.',
    );
  });

  it('uploads through the API client (type, file, headers, token) and shows the new status', async () => {
    let documents: DonorDocument[] = [];
    const { user, api } = await renderOnboarding({
      server: {
        'POST /documents': () => {
          documents = [idProof()];
          return ok({ document: documents[0] }, 201);
        },
        'GET /documents/list': () => ok({ documents }),
      },
    });
    await user.upload(
      screen.getByLabelText('Upload ID proof'),
      new File(['%PDF-1.7'], 'voter-id.pdf', { type: 'application/pdf' }),
    );
    expect(await screen.findByText('ID proof uploaded. Our team will check it.')).toBeVisible();
    const [call] = api.callsTo('POST /documents');
    expect((call!.body as FormData).get('type')).toBe('id_proof');
    expect(((call!.body as FormData).get('file') as File).name).toBe('voter-id.pdf');
    expect(call!.headers.get('Authorization')).toBe('Bearer access-1');
    expect(call!.headers.get('X-Client-Name')).toBe('Blood Donation Management System');
    expect(call!.headers.get('X-Request-ID')).toMatch(/^[0-9a-f-]{36}$/);
    const card = screen.getByRole('heading', { name: 'ID proof' }).closest('li')!;
    expect(await within(card).findByText('Uploaded, waiting for verification')).toBeVisible();
    expect(within(card).getByLabelText('Replace ID proof')).toBeInTheDocument();
  });

  it('stays on the documents step after an upload completes the step', async () => {
    let documents: DonorDocument[] = [];
    let onboarding = status();
    const { user } = await renderOnboarding({
      server: {
        'POST /documents': () => {
          documents = [idProof()];
          onboarding = status({
            documentsUploaded: true,
            steps: [
              { key: 'documents', done: true },
              { key: 'questionnaire', done: false },
              { key: 'review', done: false },
            ],
          });
          return ok({ document: documents[0] }, 201);
        },
        'GET /documents/list': () => ok({ documents }),
        'GET /users/u-1/onboarding-status': () => ok(onboarding),
      },
    });
    await user.upload(
      screen.getByLabelText('Upload ID proof'),
      new File(['%PDF-1.7'], 'voter-id.pdf', { type: 'application/pdf' }),
    );
    expect(await screen.findByText('Uploaded, waiting for verification')).toBeVisible();
    await screen.findByRole('button', { name: /Documents, current step/ });
    expect(screen.getByRole('heading', { level: 2, name: 'Your documents' })).toBeInTheDocument();
  });

  it('shows why a document was rejected and lets the donor replace it', async () => {
    await renderOnboarding({
      documents: [idProof({ status: 'rejected', rejectionReason: 'The photo is blurred.' })],
    });
    const card = screen.getByRole('heading', { name: 'ID proof' }).closest('li')!;
    expect(within(card).getByText('Not accepted')).toBeInTheDocument();
    expect(within(card).getByText('Reason: The photo is blurred.')).toBeInTheDocument();
    expect(within(card).getByLabelText('Replace ID proof')).toBeEnabled();
  });

  it('does not offer to replace a verified document', async () => {
    await renderOnboarding({ documents: [idProof({ status: 'verified', verified: true })] });
    const card = screen.getByRole('heading', { name: 'ID proof' }).closest('li')!;
    expect(within(card).getByText('Verified')).toBeInTheDocument();
    expect(within(card).queryByLabelText(/ID proof$/)).not.toBeInTheDocument();
  });
});

describe('health questionnaire', () => {
  async function openQuestionnaire(options: Parameters<typeof renderOnboarding>[0] = {}) {
    window.localStorage.setItem('bdms-onboarding-step:u-1', 'questionnaire');
    const rendered = await renderOnboarding(options);
    const { user } = rendered;
    await user.type(screen.getByLabelText(/^Weight \(kg\)/), '60');
    const firstTime = screen.getByRole('radiogroup', { name: /first time giving blood/ });
    await user.click(within(firstTime).getByRole('radio', { name: 'Yes' }));
    const feelsWell = screen.getByRole('radiogroup', { name: /feeling well today/ });
    await user.click(within(feelsWell).getByRole('radio', { name: 'Yes' }));
    return rendered;
  }

  it('never asks for an Aadhaar number', async () => {
    window.localStorage.setItem('bdms-onboarding-step:u-1', 'questionnaire');
    await renderOnboarding();
    expect(screen.queryByLabelText(/aadhaar/i)).not.toBeInTheDocument();
  });

  it('previews that the donor can give blood once the basics are answered', async () => {
    await openQuestionnaire();
    expect(await screen.findByRole('heading', { name: 'You can give blood' })).toBeVisible();
    expect(screen.getByText('You can give up to 450 ml.')).toBeVisible();
  });

  it('explains a tattoo deferral kindly, with the date it ends', async () => {
    const { user } = await openQuestionnaire();
    await user.click(screen.getByRole('checkbox', { name: 'A tattoo, piercing or acupuncture' }));
    const tattooDate = new Date(Date.now() - 60 * DAY).toISOString().slice(0, 10);
    await user.type(
      screen.getByLabelText(/^Date of the tattoo, piercing or acupuncture/),
      tattooDate,
    );
    const ends = new Date(`${tattooDate}T00:00:00Z`);
    ends.setUTCMonth(ends.getUTCMonth() + 12);
    expect(
      await screen.findByRole('heading', {
        name: `Not right now: you can give blood from ${longDate(ends)}`,
      }),
    ).toBeVisible();
    expect(
      screen.getByText(/After a tattoo, piercing or acupuncture, the wait is 12 months\./),
    ).toBeVisible();
    expect(screen.getByText(`You can give blood again from ${longDate(ends)}.`)).toBeVisible();
    expect(screen.getByText(/It's not a judgement/)).toBeVisible();
  });

  it('says a permanent deferral kindly, without blame', async () => {
    const { user } = await openQuestionnaire();
    await user.click(screen.getByRole('checkbox', { name: 'Heart disease' }));
    expect(
      await screen.findByRole('heading', { name: 'Thank you for wanting to help' }),
    ).toBeVisible();
    expect(screen.getByText(/that's nothing you did wrong/)).toBeVisible();
    expect(screen.getByText("With heart disease, giving blood isn't safe for you.")).toBeVisible();
  });

  it('asks for the date of a timed condition, and not a future one', async () => {
    const { user, api } = await openQuestionnaire({
      server: { 'PUT /users/u-1/questionnaire': ok({ questionnaire: questionnaire() }) },
    });
    await user.click(screen.getByRole('checkbox', { name: 'Malaria' }));
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    const date = screen.getByLabelText(/^Date you fully recovered from malaria/);
    await waitFor(() => expect(date).toHaveAccessibleDescription('Enter the date.'));
    expect(date).toHaveFocus();
    expect(screen.getByRole('alert')).toHaveTextContent('Please check the answers marked below.');
    const tomorrow = new Date(Date.now() + 2 * DAY).toISOString().slice(0, 10);
    await user.type(date, tomorrow);
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() =>
      expect(date).toHaveAccessibleDescription("The date can't be in the future."),
    );
    expect(api.callsTo('PUT /users/u-1/questionnaire')).toHaveLength(0);
  });

  it('hides pregnancy questions from men', async () => {
    window.localStorage.setItem('bdms-onboarding-step:u-1', 'questionnaire');
    await renderOnboarding({ user: pendingDonor({ gender: 'male' }) });
    expect(screen.queryByRole('checkbox', { name: "I'm pregnant" })).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Heart disease' })).toBeInTheDocument();
  });

  it('saves only what eligibility needs and moves to the review', async () => {
    const saved = questionnaire({
      answers: {
        weightKg: 60,
        firstTimeDonor: true,
        feelsWell: true,
        conditions: ['antibiotics'],
        conditionDates: { antibiotics: '2026-01-02' },
      },
    });
    const { user, api } = await openQuestionnaire({
      server: { 'PUT /users/u-1/questionnaire': ok({ questionnaire: saved }) },
    });
    await user.click(screen.getByRole('checkbox', { name: 'Antibiotics' }));
    await user.type(screen.getByLabelText(/^Date of your last dose/), '2026-01-02');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Review and submit' }),
    ).toBeInTheDocument();
    expect(api.callsTo('PUT /users/u-1/questionnaire')[0]!.body).toEqual({
      answers: {
        weightKg: 60,
        firstTimeDonor: true,
        feelsWell: true,
        conditions: ['antibiotics'],
        conditionDates: { antibiotics: '2026-01-02' },
      },
    });
  });
});

describe('review and submit', () => {
  it('shows what is missing instead of submitting an incomplete registration', async () => {
    window.localStorage.setItem('bdms-onboarding-step:u-1', 'review');
    const { user } = await renderOnboarding();
    expect(screen.getByText("You haven't answered the health questions yet.")).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Submit for review' }));
    const missing = await screen.findByRole('alert');
    expect(missing).toHaveTextContent('Something is missing');
    expect(missing).toHaveTextContent('Upload your ID proof.');
    expect(missing).toHaveTextContent('Answer the health questions.');
  });

  it('completes the registration and shows that it is pending review', async () => {
    window.localStorage.setItem('bdms-onboarding-step:u-1', 'review');
    const complete = status({
      documentsUploaded: true,
      questionnaireCompleted: true,
      onboardingCompleted: true,
      steps: [
        { key: 'documents', done: true },
        { key: 'questionnaire', done: true },
        { key: 'review', done: true },
      ],
    });
    const { user } = await renderOnboarding({
      onboarding: complete,
      documents: [idProof()],
      answers: questionnaire(),
    });
    expect(screen.getByText('58 kg')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Submit for review' }));
    expect(
      await screen.findByText('Thank you! Your registration has been sent for review.'),
    ).toBeVisible();
    expect(
      screen.getByRole('heading', { name: 'Your registration is being reviewed' }),
    ).toBeVisible();
    expect(
      screen.queryByRole('navigation', { name: 'Registration steps' }),
    ).not.toBeInTheDocument();
    expect(window.localStorage.getItem('bdms-onboarding-step:u-1')).toBeNull();
  });

  it('lets a rejected donor see the reason and fix the registration', async () => {
    await renderOnboarding({
      user: pendingDonor({ status: 'rejected', onboardingCompleted: true }),
      onboarding: status({
        status: 'rejected',
        onboardingCompleted: true,
        rejectionReason: 'Your ID proof does not show your name.',
      }),
      documents: [idProof({ status: 'rejected', rejectionReason: 'Name not readable.' })],
      answers: questionnaire(),
    });
    expect(
      screen.getByRole('heading', { name: 'Your registration was not approved' }),
    ).toBeVisible();
    expect(screen.getByText('Reason: Your ID proof does not show your name.')).toBeVisible();
    expect(screen.getByText('Reason: Name not readable.')).toBeVisible();
    expect(screen.getByLabelText('Replace ID proof')).toBeInTheDocument();
  });
});
