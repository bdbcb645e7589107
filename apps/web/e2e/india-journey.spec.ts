import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { adminToken, apiPost, newDonor } from './support/api';
import { pdfText } from './support/pdf';

/**
 * Issue #15 in the browser: a donor registers, answers the health questions, reads an article
 * and downloads a certificate entirely in Hindi, again in Tamil, and in English beside them. Every label is looked up
 * from the app's own translation files by its English text, so the journey reads what a Hindi
 * or Tamil speaker reads, not English.
 */
test.use({ timezoneId: 'Asia/Kolkata' });

const LOCALES = path.join(import.meta.dirname, '../src/i18n/locales');
type Tree = { [key: string]: string | Tree };
const files = new Map<string, Tree>();
const load = (lang: string, ns: string): Tree => {
  const key = `${lang}/${ns}`;
  if (!files.has(key)) {
    files.set(key, JSON.parse(readFileSync(path.join(LOCALES, lang, `${ns}.json`), 'utf8')));
  }
  return files.get(key)!;
};

/** The translation in `lang` of the English text `english` of namespace `ns`. */
function tr(lang: string, ns: string, english: string): string {
  const find = (en: Tree, other: Tree): string | undefined => {
    for (const [key, value] of Object.entries(en)) {
      const theirs = other[key];
      if (typeof value === 'string' && value === english && typeof theirs === 'string') {
        return theirs;
      }
      if (typeof value === 'object' && typeof theirs === 'object') {
        const found = find(value, theirs);
        if (found) return found;
      }
    }
    return undefined;
  };
  const found = find(load('en', ns), load(lang, ns));
  if (!found) throw new Error(`No ${lang} text for "${english}" in ${ns}.json`);
  return found;
}

/** A pattern of a translated text with `{{param}}` placeholders matching anything. */
const pattern = (text: string) =>
  new RegExp(
    text
      .split(/\{\{\w+\}\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*'),
  );

const JOURNEYS = [
  {
    lang: 'en',
    fullName: 'Rajesh Kumar',
    articleTitle: 'Who can donate blood in India',
    articleLang: 'en',
  },
  {
    lang: 'hi',
    fullName: 'राजेश कुमार',
    // The article is translated into Hindi.
    articleTitle: 'भारत में कौन रक्तदान कर सकता है',
    articleLang: 'hi',
  },
  {
    lang: 'ta',
    fullName: 'முருகன் செல்வம்',
    // No Tamil translation of the article yet: English, marked as such.
    articleTitle: 'Who can donate blood in India',
    articleLang: 'en',
  },
] as const;

for (const journey of JOURNEYS) {
  test(`a donor registers, onboards, reads an article and downloads a certificate in ${journey.lang}`, async ({
    page,
    request,
  }) => {
    const { lang } = journey;
    const t = (ns: string, english: string) => tr(lang, ns, english);
    await page.addInitScript((value) => localStorage.setItem('preferred-language', value), lang);
    const donor = newDonor({ fullName: journey.fullName, gender: 'male' });

    // Registration, in the reader's language.
    await page.goto('/register');
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await page.getByLabel(t('auth', 'Full name')).fill(donor.fullName);
    await page.getByLabel(t('auth', 'E-mail address')).fill(donor.email);
    await page.getByLabel(t('auth', 'Mobile number')).fill(donor.phone);
    await page.getByLabel(t('auth', 'Password'), { exact: true }).fill(donor.password);
    await page.getByRole('radio', { name: 'O-' }).check();
    await page.getByLabel(t('auth', 'Date of birth')).fill(donor.dateOfBirth);
    await page.getByRole('radio', { name: t('auth', 'Male'), exact: true }).check();
    await page.getByLabel(t('auth', 'City or town')).fill(donor.city);
    await page
      .getByLabel(t('auth', 'State or union territory'))
      .selectOption({ value: 'Telangana' });
    await page.getByRole('checkbox').last().check();
    await page.getByRole('button', { name: t('auth', 'Create my donor account') }).click();
    await expect(page).toHaveURL(/\/donor\/onboarding$/);

    // The health questions.
    await expect(
      page.getByRole('heading', { name: t('onboarding', 'Health questions') }).first(),
    ).toBeVisible();
    await page.getByLabel(t('onboarding', 'Weight (kg)')).fill('64');
    const yes = t('onboarding', 'Yes');
    await page
      .getByRole('radiogroup', { name: t('onboarding', 'Is this your first time giving blood?') })
      .getByRole('radio', { name: yes, exact: true })
      .check();
    await page
      .getByRole('radiogroup', { name: t('onboarding', 'Are you feeling well today?') })
      .getByRole('radio', { name: yes, exact: true })
      .check();
    // Issue #32 item 5: the whole questionnaire, new questions included, on a phone and a desk.
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      await page.screenshot({
        path: test.info().outputPath(`questionnaire-${lang}-${width}.png`),
        fullPage: true,
      });
    }
    await page.getByRole('button', { name: t('onboarding', 'Save and continue') }).click();
    await page.getByRole('button', { name: t('onboarding', 'Submit for review') }).click();
    await expect(
      page.getByText(t('onboarding', 'Thank you! Your registration has been sent for review.')),
    ).toBeVisible();

    // An administrator approves the donor and a hospital-verified donation is recorded.
    const admin = await adminToken(request);
    const list = await request.get(`/api/v1/admin/donors?q=${encodeURIComponent(donor.email)}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const donorId = ((await list.json()) as { data: { items: { id: string }[] } }).data.items[0]!
      .id;
    await apiPost(request, `/api/v1/admin/donors/${donorId}/approve`, {}, admin);
    await apiPost(
      request,
      '/api/v1/donations',
      {
        donorId,
        donatedAt: new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10),
        units: 1,
        place: 'Gandhi Hospital Blood Centre, Hyderabad',
      },
      admin,
    );

    // An article, in the reader's language where it is translated, else English marked as such.
    await page.goto('/articles/who-can-donate-blood-in-india');
    const title = page.getByRole('heading', { level: 1, name: journey.articleTitle });
    await expect(title).toBeVisible();
    await expect(title).toHaveAttribute('lang', journey.articleLang);

    // The certificate: in the donor's language, the name in its own script.
    await page.goto('/donor/certificates');
    const download = page.waitForEvent('download');
    await page
      .getByRole('button', {
        name: pattern(t('donors', 'Download certificate for the donation of {{date}}')),
      })
      .first()
      .click();
    const pdf = readFileSync(await (await download).path());
    expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
    expect(pdfText(pdf)).toContain(journey.fullName);
    await page.screenshot({
      path: test.info().outputPath(`journey-${lang}.png`),
      fullPage: true,
    });
  });
}
