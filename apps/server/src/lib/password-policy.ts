import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import { AppError } from './app-error';

/**
 * zxcvbn's score 3 means "safely unguessable" (about 10^8 guesses or more). Below it are the
 * passwords attackers try first: those of breach lists (`passwords-common`, ~30,000 of them),
 * keyboard walks, repeats, dates, and words with digits tacked on ("Password@123", "india@123").
 * NIST SP 800-63B section 5.1.1.2 asks verifiers to refuse passwords "obtained from previous
 * breach corpuses", "dictionary words" and "repetitive or sequential characters".
 */
export const MIN_PASSWORD_SCORE = 3;
// zxcvbn's cost grows with length; past 100 characters a password is long enough anyway.
const CHECKED_LENGTH = 100;

export const WEAK_PASSWORD_MESSAGE =
  'This password is too common or too easy to guess. Use a longer one, for example a few unrelated words.';

let factory: ZxcvbnFactory | undefined;

function estimator(): ZxcvbnFactory {
  // Built on first use (~30 ms): the dictionaries are only needed when a password is set.
  factory ??= new ZxcvbnFactory({
    dictionary: { ...zxcvbnCommon.dictionary },
    graphs: zxcvbnCommon.adjacencyGraphs,
  });
  return factory;
}

/** True when the password is strong enough; `userInputs` (e-mail, name, phone) count as known. */
export function isPasswordStrongEnough(password: string, userInputs: string[] = []): boolean {
  const inputs = userInputs
    .flatMap((input) => [
      input,
      ...input.split(/[@.\s_+-]+/),
      // An Indian mobile number as people type it (without +91).
      ...(/^\+?\d{10,}$/.test(input) ? [input.slice(-10)] : []),
    ])
    .filter((input) => input.length >= 3);
  return estimator().check(password.slice(0, CHECKED_LENGTH), inputs).score >= MIN_PASSWORD_SCORE;
}

/** 400 WEAK_PASSWORD on `path` (e.g. `body.password`) unless the password is strong enough. */
export function assertPasswordStrongEnough(
  password: string,
  path: string,
  userInputs: string[] = [],
): void {
  if (!isPasswordStrongEnough(password, userInputs)) {
    throw new AppError('WEAK_PASSWORD', WEAK_PASSWORD_MESSAGE, [
      { path, message: WEAK_PASSWORD_MESSAGE },
    ]);
  }
}
