import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { educationContent, faqs } from '../../db/schema';
import { useTestApp } from '../../test/test-app';
import { loadContent } from './education.loader';

const subject = useTestApp({ seed: (db) => loadContent(db) });

const db = () => subject.db;
const get = (url: string, headers: Record<string, string> = {}) =>
  subject.app.inject({ method: 'GET', url, headers });
const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  subject.app.inject({ method: 'POST', url, payload: payload as never, headers });
const SLUG = 'who-can-donate-blood-in-india';

describe('the education reply cache', () => {
  it('answers a repeated list from memory: same body and ETag, 304 for a current copy', async () => {
    const first = await get('/api/public/education/popular');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    // Written behind the server's back: the kept reply does not see it (at most 30 s).
    await db().update(educationContent).set({ views: 99 }).where(eq(educationContent.slug, SLUG));
    const second = await get('/api/public/education/popular');
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(
      (await get('/api/public/education/popular', { 'if-none-match': String(first.headers.etag) }))
        .statusCode,
    ).toBe(304);
  });

  it('shows FAQ feedback at once in the list and the single FAQ', async () => {
    const listUrl = '/api/public/education/faqs';
    const find = (body: { data: { items: { id: string; helpfulCount: number }[] } }) =>
      body.data.items.find((item) => item.id === 'who-can-donate');
    const before = await get(listUrl);
    expect(find(before.json())).toMatchObject({ helpfulCount: 0 });
    expect((await get('/api/public/education/faqs/who-can-donate')).json().data.helpfulCount).toBe(
      0,
    );

    const voted = await post('/api/public/education/faqs/who-can-donate/feedback', {
      helpful: true,
    });
    expect(voted.statusCode).toBe(200);

    const after = await get(listUrl);
    expect(find(after.json())).toMatchObject({ helpfulCount: 1 });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await get('/api/public/education/faqs/who-can-donate')).json().data.helpfulCount).toBe(
      1,
    );
    const [row] = await db().select().from(faqs).where(eq(faqs.id, 'who-can-donate'));
    expect(row!.helpfulCount).toBe(1);
  });

  it('shows a download at once in the lists', async () => {
    const downloads = async () =>
      (await get('/api/public/education/content?pageSize=100'))
        .json()
        .data.items.find((item: { slug: string }) => item.slug === SLUG).downloads;
    expect(await downloads()).toBe(0);
    expect((await post(`/api/public/education/content/${SLUG}/download`)).statusCode).toBe(200);
    expect(await downloads()).toBe(1);
  });

  it('serves the article from memory yet shows and stores each counted view', async () => {
    const url = `/api/public/education/content/${SLUG}`;
    expect((await get(url)).json().data.views).toBe(1);
    expect((await get(url)).json().data.views).toBe(1);
    const other = await subject.app.inject({ url, remoteAddress: '203.0.113.9' });
    expect(other.json().data.views).toBe(2);
    expect((await get(url)).json().data.views).toBe(2);
    const [row] = await db()
      .select({ views: educationContent.views })
      .from(educationContent)
      .where(eq(educationContent.slug, SLUG));
    expect(row!.views).toBe(2);
  });
});
