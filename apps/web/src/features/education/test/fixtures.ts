import type {
  ContentPage,
  EducationCategory,
  EducationContent,
  EducationContentItem,
  Faq,
} from '@bdms/shared';

/** Test data shaped like the server's replies (API.md "Public: facilities and education"). */

export const EDUCATION = '/api/public/education';

export function articleItem(overrides: Partial<EducationContentItem> = {}): EducationContentItem {
  return {
    id: 'a-1',
    slug: 'who-can-donate-blood-in-india',
    title: 'Who can donate blood in India',
    summary: 'The age, weight and health rules for blood donors in India.',
    category: 'eligibility',
    readingMinutes: 5,
    publishedAt: '2026-11-01',
    featured: true,
    views: 10,
    downloads: 2,
    language: 'en',
    ...overrides,
  };
}

export const ARTICLES: EducationContentItem[] = [
  articleItem(),
  articleItem({
    id: 'a-2',
    slug: 'platelets-plasma-and-apheresis',
    title: 'Platelets, plasma and apheresis',
    summary: 'How one donation becomes three components.',
    category: 'components',
    featured: false,
  }),
  articleItem({
    id: 'a-3',
    slug: 'temporary-and-permanent-deferrals',
    title: 'Temporary and permanent deferrals',
    summary: 'When you have to wait before donating, and why.',
    category: 'eligibility',
    featured: false,
  }),
];

export const CATEGORIES: EducationCategory[] = [
  { slug: 'eligibility', name: 'Who can donate', description: 'The rules.', count: 2 },
  { slug: 'components', name: 'Platelets, plasma and components', description: 'Parts.', count: 1 },
];

export function articlePage(items: EducationContentItem[], total = items.length, page = 1) {
  return { items, total, page, pageSize: 8 };
}

export function article(overrides: Partial<EducationContent> = {}): EducationContent {
  return {
    ...articleItem(),
    body: [
      'Most healthy adults can give blood. This article explains the rules that blood centres in India follow.',
      '',
      '## Age and weight',
      '',
      '- You must be 18 to 65 years old.',
      '- You must weigh at least 45 kg.',
      '',
      'Read our [privacy policy](/privacy) to see what we store.',
      '',
      '## Sources',
      '',
      '- [National Blood Transfusion Council](https://nbtc.naco.gov.in/)',
    ].join('\n'),
    sources: [{ title: 'National Blood Transfusion Council', url: 'https://nbtc.naco.gov.in/' }],
    ...overrides,
  };
}

export function faq(overrides: Partial<Faq> = {}): Faq {
  return {
    id: 'how-to-register',
    category: 'account',
    question: 'How do I register as a donor?',
    answer: 'Go to the [registration page](/register) and fill in your details.',
    helpfulCount: 4,
    notHelpfulCount: 1,
    language: 'en',
    ...overrides,
  };
}

export const FAQS: Faq[] = [
  faq(),
  faq({
    id: 'forgot-password',
    question: 'I forgot my password. What should I do?',
    answer: 'Use the "Forgot password" link on the sign-in page.',
  }),
  faq({
    id: 'how-often',
    category: 'eligibility',
    question: 'How often can I donate blood?',
    answer: 'Men may give whole blood every 90 days and women every 120 days.',
  }),
  faq({
    id: 'tattoo-wait',
    category: 'eligibility',
    question: 'Can I donate after getting a TATTOO?',
    answer: 'Wait 12 months after a tattoo or piercing.',
  }),
  faq({
    id: 'who-sees-phone',
    category: 'privacy',
    question: 'Who can see my phone number?',
    answer: 'Nobody but you and the requester you accept to help.',
  }),
];

export function policy(overrides: Partial<ContentPage> = {}): ContentPage {
  return {
    slug: 'privacy',
    title: 'Privacy policy',
    summary: 'What personal data we collect, why, and your rights.',
    version: '2026-11-01',
    updated: '2026-11-01',
    body: '## The short version\n\nYour phone number is never shown to strangers. Write to support@example.org.',
    language: 'en',
    ...overrides,
  };
}
