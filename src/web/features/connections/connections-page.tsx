import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  fetchProviderBalance,
  useProviders,
  type ProviderBalanceRecord,
  type ProviderInfo,
} from '../../api/providers.ts';
import { maskKey } from '../../lib/key-store.ts';
import {
  providerKeyProblem,
  removeProviderKey,
  saveProviderKey,
  useProviderKeys,
} from '../../lib/provider-keys.ts';
import { QueryState } from '../../ui/query-state.tsx';
import { balanceSentence } from './balance-sentence.ts';
import './connections.css';

type Check =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'ok'; balance: ProviderBalanceRecord }
  /** The vendor's own refusal, as Kiln passed it on (it names the vendor). */
  | { state: 'refused'; message: string };

/** "Test": the vendor's balance for a key, or its refusal. */
function useKeyTest(info: ProviderInfo) {
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  const test = async (key: string): Promise<boolean> => {
    setCheck({ state: 'checking' });
    try {
      setCheck({ state: 'ok', balance: await fetchProviderBalance(info.name, key) });
      return true;
    } catch (err) {
      setCheck({ state: 'refused', message: err instanceof Error ? err.message : String(err) });
      return false;
    }
  };
  return { check, test, reset: () => setCheck({ state: 'idle' }) };
}

/** A connected vendor: its key masked, Test, Remove. */
function ConnectedPanel({ info, saved }: { info: ProviderInfo; saved: string }) {
  const { check, test } = useKeyTest(info);
  return (
    <div className="provider-card__connected">
      <p>
        Connected with <code>{maskKey(saved)}</code>
      </p>
      <p
        className={`small${check.state === 'refused' ? ' error' : ''}`}
        aria-live="polite"
        data-testid={`${info.name}-check`}
      >
        {check.state === 'ok'
          ? balanceSentence(check.balance)
          : check.state === 'checking'
            ? 'Asking for the balance…'
            : check.state === 'refused'
              ? check.message
              : null}
      </p>
      <div className="button-row">
        <button
          type="button"
          onClick={() => void test(saved)}
          disabled={check.state === 'checking'}
        >
          Test
        </button>
        <button type="button" className="danger" onClick={() => removeProviderKey(info.name)}>
          Remove {info.label} key
        </button>
      </div>
      <p className="muted small">Removing the key keeps every model it made in your gallery.</p>
    </div>
  );
}

/** A vendor not connected: paste (or the demo key), Test, Save; a wrong key said at the field. */
function KeyForm({ info }: { info: ProviderInfo }) {
  const queryClient = useQueryClient();
  const [key, setKey] = useState('');
  const [touched, setTouched] = useState(false);
  const { check, test, reset } = useKeyTest(info);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const candidate = key.trim();
  const shapeProblem = providerKeyProblem(info.name, key);
  const problem =
    candidate || touched
      ? (shapeProblem ?? (check.state === 'refused' ? check.message : null))
      : null;
  const fill = (next: string) => {
    setKey(next);
    setTouched(true);
    reset();
  };
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (shapeProblem || !(await test(candidate))) {
      inputRef.current?.focus();
      return;
    }
    saveProviderKey(info.name, candidate);
    void queryClient.invalidateQueries({ queryKey: ['providers', info.name] });
  };
  return (
    <form onSubmit={(e) => void save(e)} noValidate>
      <label htmlFor={inputId}>{info.label} key</label>
      <input
        id={inputId}
        ref={inputRef}
        name={`${info.name}-key`}
        type="password"
        autoComplete="off"
        spellCheck={false}
        placeholder={info.key_hint}
        value={key}
        onChange={(e) => fill(e.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${inputId}-hint`}
      />
      <p id={`${inputId}-hint`} className={problem ? 'error' : 'muted small'} aria-live="polite">
        {problem ??
          (check.state === 'ok'
            ? balanceSentence(check.balance)
            : check.state === 'checking'
              ? 'Testing the key…'
              : `Keys look like ${info.key_hint}. Kept in this browser, sent only to ${info.label} through Kiln.`)}
      </p>
      <div className="button-row">
        <button
          type="button"
          disabled={!candidate || check.state === 'checking'}
          onClick={() => (setTouched(true), shapeProblem ? undefined : void test(candidate))}
        >
          Test
        </button>
        <button type="submit" className="primary" disabled={check.state === 'checking'}>
          Save
        </button>
        {info.mock_key && (
          <button type="button" onClick={() => fill(info.mock_key ?? '')}>
            Use the demo key
          </button>
        )}
      </div>
    </form>
  );
}

/** One vendor: where Kiln reaches it, then its key (connected) or the form to add one. */
function ProviderCard({ info }: { info: ProviderInfo }) {
  const saved = useProviderKeys()[info.name];
  const titleId = useId();
  return (
    <section className="card provider-card" aria-labelledby={titleId} data-provider={info.name}>
      <h2 id={titleId}>{info.label}</h2>
      <p className="muted small">
        Reached at <code>{info.host}</code>
        {info.mock_key && (
          <>
            {' '}
            · <span className="badge">Demo</span>
          </>
        )}
      </p>
      {saved ? <ConnectedPanel info={info} saved={saved} /> : <KeyForm info={info} />}
    </section>
  );
}

/** `/connections`: a key per vendor, added, tested and removed; kept only in this browser. */
export default function ConnectionsPage() {
  const providers = useProviders();
  useEffect(() => {
    document.title = 'Connections · Kiln';
  }, []);
  return (
    <main className="page connections-page">
      <h1>Connections</h1>
      <p className="muted">
        Connect your Meshy or fal key to generate with their models here. Keys stay in this browser
        and travel with each of that provider’s requests; Kiln’s server never keeps them. Every
        model lands in one gallery, whichever key made it.
      </p>
      <QueryState
        query={providers}
        loading="Loading the providers…"
        failed="The providers could not be loaded"
        empty={
          providers.data?.length === 0 ? (
            <p className="card">This Kiln reaches no provider besides its own upstream.</p>
          ) : undefined
        }
      >
        {() => (
          <div className="provider-cards">
            {providers.data?.map((info) => (
              <ProviderCard key={info.name} info={info} />
            ))}
          </div>
        )}
      </QueryState>
    </main>
  );
}
