import { describe, expect, it } from 'vitest';
import type { LibraryEntry } from '../../contract/index.ts';
import { archiveRecheckMs, listRecheckMs } from './library.ts';

type Archive = NonNullable<LibraryEntry['archive']>;
const NOW = 1_000_000;
const entry = (archive: Partial<Archive> & Pick<Archive, 'state'>, status = 'completed') => ({
  status,
  archive: { attempts: 0, error: null, next_attempt_ms: null, ...archive },
});

describe('archiveRecheckMs', () => {
  it('reads a waiting entry again a little after the archive’s next try, within 5 s to a minute', () => {
    const outage = { state: 'pending', outage: 'file_store' } as const;
    expect(archiveRecheckMs(entry({ ...outage, next_attempt_ms: NOW + 15_000 }), NOW)).toBe(17_000);
    expect(archiveRecheckMs(entry({ ...outage, next_attempt_ms: NOW - 3_000 }), NOW)).toBe(5_000);
    expect(
      archiveRecheckMs(
        entry({ state: 'retrying', attempts: 3, next_attempt_ms: NOW + 600_000 }),
        NOW,
      ),
    ).toBe(60_000);
    expect(archiveRecheckMs(entry({ state: 'pending', next_attempt_ms: 0 }), NOW)).toBe(5_000);
  });

  it('leaves alone what waits for nothing', () => {
    expect(archiveRecheckMs(undefined, NOW)).toBe(false);
    expect(archiveRecheckMs(entry({ state: 'archived' }), NOW)).toBe(false);
    expect(archiveRecheckMs(entry({ state: 'failed', attempts: 5 }), NOW)).toBe(false);
    expect(archiveRecheckMs(entry({ state: 'none' }, 'pending'), NOW)).toBe(false);
    expect(archiveRecheckMs({ status: 'completed' }, NOW)).toBe(false);
  });
});

describe('listRecheckMs', () => {
  it('is the soonest of the entries that wait on a first copy or on Kiln’s own store', () => {
    expect(
      listRecheckMs(
        [
          entry({ state: 'archived' }),
          entry({ state: 'pending', outage: 'file_store', next_attempt_ms: NOW + 30_000 }),
          entry({
            state: 'retrying',
            attempts: 1,
            outage: 'file_store',
            next_attempt_ms: NOW + 10_000,
          }),
        ],
        NOW,
      ),
    ).toBe(12_000);
  });

  it('does not poll a list for a plain retry minutes away, nor for nothing', () => {
    expect(
      listRecheckMs([entry({ state: 'retrying', attempts: 1, next_attempt_ms: NOW + 1_000 })], NOW),
    ).toBe(false);
    expect(listRecheckMs([entry({ state: 'archived' }), entry({ state: 'failed' })], NOW)).toBe(
      false,
    );
    expect(listRecheckMs([], NOW)).toBe(false);
  });
});
