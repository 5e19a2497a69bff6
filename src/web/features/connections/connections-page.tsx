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
  { state: 'idle' } | { state: 'checking' } | { state: 'ok'; balance: ProviderBalanceRecord };

/** One vendor: paste, test, save or remove its key; the demo key in mock mode. */
function ProviderCard({ info }: { info: ProviderInfo }) {
  const saved = useProviderKeys()[info.name];
  const queryClient = useQueryClient();
  const [key, setKey] = useState('');
  const [touched, setTouched] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const candidate = key.trim();
  const problem = candidate || touched ? (providerKeyProblem(info.name, key) ?? refused) : null;

  // A key tested and refused stays refused until the field changes.
  useEffect(() => setCheck({ state: 'idle' }), [saved]);

  const test = async (toTest: string): Promise<boolean> => {
    setCheck({ state: 'checking' });
    try {
      const balance = await fetchProviderBalance(info.name, toTest);
      setCheck({ state: 'ok', balance });
      return true;
    } catch (err) {
      setCheck({ state: 'idle' });
      // The vendor's own refusal, as Kiln passed it on (it names the vendor).
      setRefused(err instanceof Error ? err.message : String(err));
      inputRef.current?.focus();
      return false;
    }
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (providerKeyProblem(info.name, key)) {
      inputRef.current?.focus();
      return;
    }
    if (!(await test(candidate))) return;
    saveProviderKey(info.name, candidate);
    setKey('');
    setTouched(false);
    void queryClient.invalidateQueries({ queryKey: ['providers', info.name] });
  };

  return (
    <section
      className="card provider-card"
      aria-labelledby={`${inputId}-title`}
      data-provider={info.name}
    >
      <h2 id={`${inputId}-title`}>{info.label}</h2>
      <p className="muted small">
        Reached at <code>{info.host}</code>
        {info.mock_key && (
          <>
            {' '}
            · <span className="badge">Demo</span>
          </>
        )}
      </p>
      {saved ? (
        <div className="provider-card__connected">
          <p>
            Connected with <code>{maskKey(saved)}</code>
          </p>
          <p className="small" aria-live="polite" data-testid={`${info.name}-check`}>
            {check.state === 'ok' ? (
              balanceSentence(check.balance)
            ) : check.state === 'checking' ? (
              'Asking for the balance…'
            ) : refused ? (
              <span className="error">{refused}</span>
            ) : null}
          </p>
          <div className="button-row">
            <button
              type="button"
              onClick={() => void test(saved)}
              disabled={check.state === 'checking'}
            >
              Test
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => {
                removeProviderKey(info.name);
                setRefused(null);
              }}
            >
              Remove {info.label} key
            </button>
          </div>
          <p className="muted small">Removing the key keeps every model it made in your gallery.</p>
        </div>
      ) : (
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
            onChange={(e) => {
              setKey(e.target.value);
              setTouched(true);
              setRefused(null);
              setCheck({ state: 'idle' });
            }}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${inputId}-hint`}
          />
          <p
            id={`${inputId}-hint`}
            className={problem ? 'error' : 'muted small'}
            aria-live="polite"
          >
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
              onClick={() => {
                setTouched(true);
                if (!providerKeyProblem(info.name, key)) void test(candidate);
              }}
            >
              Test
            </button>
            <button type="submit" className="primary" disabled={check.state === 'checking'}>
              Save
            </button>
            {info.mock_key && (
              <button
                type="button"
                onClick={() => {
                  setKey(info.mock_key!);
                  setTouched(true);
                  setRefused(null);
                  setCheck({ state: 'idle' });
                }}
              >
                Use the demo key
              </button>
            )}
          </div>
        </form>
      )}
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
