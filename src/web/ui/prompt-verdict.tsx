import { useQueries } from '@tanstack/react-query';
import { useInfo } from '../api/account.ts';
import { promptCheckQuery, usePromptCheck, type PromptCheck } from '../api/tasks.ts';

/**
 * What the demo generator made of a prompt, said after the fact (mock mode only, issue 23): an
 * unknown object became an abstract form, a known-but-approximate one was made from a nearby
 * model, words did not shape it or a see-through material was made opaque (issue 32). Nothing
 * is said of a prompt it made entirely as written, or outside mock mode.
 */
export function PromptVerdict({
  prompt,
  made = true,
  compact = false,
}: {
  prompt: string | null;
  /** The model exists (else it is still being made: "will make"). */
  made?: boolean;
  compact?: boolean;
}) {
  const mock = useInfo().data?.mode === 'mock';
  const check = usePromptCheck(prompt?.trim() ?? '', mock && Boolean(prompt?.trim()));
  const said = check.data;
  if (!mock || !said || asWritten(said)) return null;
  return (
    <p
      className={`prompt-verdict${compact ? ' small' : ''}`}
      data-testid="prompt-verdict"
      data-verdict={!said.known ? 'unknown' : said.approximate ? 'approximate' : 'partly'}
    >
      <span aria-hidden="true">⚠ </span>
      {made ? said.made_message || said.message : said.message}
    </p>
  );
}

/** Made entirely as written: a known object, every word used, nothing see-through. */
const asWritten = (c: PromptCheck) =>
  c.known && !c.approximate && c.unused_words.length === 0 && c.opaque_materials.length === 0;

/**
 * The verdict of each prompt of a list, before anything is sent (the batch planner): the lines
 * the demo generator does not know, or makes from a nearby model. Mock mode only.
 */
export function usePromptVerdicts(prompts: readonly string[]) {
  const mock = useInfo().data?.mode === 'mock';
  const results = useQueries({
    queries: prompts.map((p) => ({ ...promptCheckQuery(p), enabled: mock })),
  });
  return prompts
    .map((prompt, i) => ({ prompt, line: i + 1, check: results[i]?.data }))
    .filter((v) => v.check && !asWritten(v.check));
}
