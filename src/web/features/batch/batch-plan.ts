// What a batch will be before anything is sent: its items (photos or prompts), the models that
// fit them, its price against the known balance, and why Generate waits when it does. Pure.
import { LIMITS, type InputKind } from '../../../contract/index.ts';
import { formatNumber } from '../../lib/entry-format.ts';

/** The most items one batch takes. */
export const MAX_BATCH = 20;

/** What a batch is made of: one photo per task, or one prompt per task. */
export type BatchKind = 'photos' | 'prompts';

/** The model input a batch of each kind needs: single-image models for photos, text for prompts. */
const INPUT_OF: Readonly<Record<BatchKind, InputKind>> = {
  photos: 'image',
  prompts: 'text',
};

/** The models a batch of `kind` can use. */
export function modelsFor<M extends { input: InputKind }>(
  kind: BatchKind,
  models: readonly M[],
): M[] {
  return models.filter((m) => m.input === INPUT_OF[kind]);
}

export interface PromptList {
  /** The prompts, trimmed, empty lines skipped, in order. */
  prompts: string[];
  /** What stops the list from being sent, one sentence each (empty when it can go). */
  problems: string[];
}

/** The page's one number format. */
const count = (n: number) => formatNumber(n);

/** A pasted list, one prompt a line: trimmed, empty lines skipped, at most 20, each ≤ the API's limit. */
export function parsePromptList(text: string): PromptList {
  const prompts: string[] = [];
  const long: number[] = [];
  text.split(/\r\n|\r|\n/).forEach((line, i) => {
    const prompt = line.trim();
    if (prompt === '') return;
    prompts.push(prompt);
    if (prompt.length > LIMITS.maxPromptLength) long.push(i + 1);
  });
  const problems: string[] = [];
  if (prompts.length > MAX_BATCH)
    problems.push(
      `A batch takes at most ${MAX_BATCH} prompts; there are ${prompts.length}. Remove ${prompts.length - MAX_BATCH}.`,
    );
  if (long.length > 0)
    problems.push(
      `${long.length === 1 ? `Line ${long[0]} is` : `Lines ${long.join(', ')} are`} longer than ${count(LIMITS.maxPromptLength)} characters, the most a prompt may be.`,
    );
  return { prompts, problems };
}

type PriceVerdict =
  /** The balance covers it. */
  | 'covered'
  /** The known balance does not cover it: refused before anything is sent. */
  | 'short'
  /** No balance known yet (no task has told it): the API will refuse what it cannot cover. */
  | 'balance-unknown'
  /** The model's price is not known (the model listing failed). */
  | 'price-unknown';

export interface PriceCheck {
  verdict: PriceVerdict;
  /** Credits for the whole batch, when the model's price is known. */
  total: number | null;
  /** The balance left after it, when both are known. */
  after: number | null;
  /** What to say under the total. */
  message: string;
}

/** The batch's price against the last known balance. */
export function checkPrice(input: {
  items: number;
  creditsPerItem: number | null;
  balance: number | null;
  /** Whether another model of the kind costs less. */
  cheaper?: boolean;
}): PriceCheck {
  const { items, creditsPerItem, balance } = input;
  if (creditsPerItem === null)
    return {
      verdict: 'price-unknown',
      total: null,
      after: null,
      message:
        'The model’s price is not known, so the total cannot be worked out; the API refuses what your balance cannot cover.',
    };
  const total = items * creditsPerItem;
  if (balance === null)
    return {
      verdict: 'balance-unknown',
      total,
      after: null,
      message:
        'Your balance is not known yet (Kiln learns it from your tasks); a task your balance cannot cover is refused, and the rest of the batch is not sent.',
    };
  if (total > balance) {
    const affordable = Math.floor(balance / creditsPerItem);
    const remedy =
      affordable === 0
        ? `It does not cover one task at ${count(creditsPerItem)} credits${input.cheaper ? '; pick a cheaper model' : ''}.`
        : `It covers ${affordable} of the ${items}: remove ${items - affordable}${input.cheaper ? ' or pick a cheaper model' : ''}.`;
    return {
      verdict: 'short',
      total,
      after: balance - total,
      message: `This batch costs ${count(total)} credits and your balance is ${count(balance)}: ${count(total - balance)} short. ${remedy}`,
    };
  }
  return {
    verdict: 'covered',
    total,
    after: balance - total,
    message: `Your balance of ${count(balance)} covers it: ${count(balance - total)} left after.`,
  };
}

/** Why Generate cannot start this batch yet, or null when it can. */
export function blockedReason(plan: {
  kind: BatchKind;
  items: number;
  /** Items still being checked, and sentences about items that cannot go. */
  checking: number;
  problems: readonly string[];
  model: string | null;
  price: PriceCheck | null;
  /** Sends of a batch already under way. */
  busy: boolean;
}): string | null {
  if (plan.busy) return 'The current batch is still being sent.';
  if (plan.items === 0)
    return plan.kind === 'photos' ? 'Add photos first.' : 'Write one prompt a line first.';
  if (plan.checking > 0) return 'Checking the photos…';
  if (plan.problems.length > 0) return plan.problems[0]!;
  if (plan.items > MAX_BATCH) return `A batch takes at most ${MAX_BATCH} items.`;
  if (!plan.model) return 'Pick a model.';
  if (plan.price?.verdict === 'short') return plan.price.message;
  return null;
}
