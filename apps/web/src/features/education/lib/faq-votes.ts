import { APP_SLUG } from '@bdms/shared';
import { storage } from '../../../lib/storage';

/**
 * The answers this device already voted on ("Was this helpful?"), so a reload does not offer a
 * second vote. Only FAQ ids and the vote are kept; the server keeps counts, never who voted.
 */
export const FAQ_VOTES_STORAGE_KEY = `${APP_SLUG}-faq-feedback`;

export type FaqVote = 'helpful' | 'notHelpful';

function readVotes(): Record<string, FaqVote> {
  try {
    const parsed: unknown = JSON.parse(storage.get(FAQ_VOTES_STORAGE_KEY) ?? '{}');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter(
        (entry): entry is [string, FaqVote] => entry[1] === 'helpful' || entry[1] === 'notHelpful',
      ),
    );
  } catch {
    return {};
  }
}

export function readFaqVote(id: string): FaqVote | undefined {
  const votes = readVotes();
  return Object.hasOwn(votes, id) ? votes[id] : undefined;
}

export function saveFaqVote(id: string, vote: FaqVote): void {
  storage.set(FAQ_VOTES_STORAGE_KEY, JSON.stringify({ ...readVotes(), [id]: vote }));
}
