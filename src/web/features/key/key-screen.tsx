import { useId, useRef, useState, type FormEvent } from 'react';
import { keyProblem, saveKey, type KeyPersistence } from '../../lib/key-store.ts';
import { useInfo, checkKey } from '../../api/account.ts';
import { Link } from '../../ui/link.tsx';

/** Where the key is kept: on this device, or for this session only. */
function PersistenceChoice({
  persistence,
  onChange,
}: {
  persistence: KeyPersistence;
  onChange: (persistence: KeyPersistence) => void;
}) {
  return (
    <fieldset className="radio-row">
      <legend>Keep the key</legend>
      <label>
        <input
          type="radio"
          name="persistence"
          checked={persistence === 'device'}
          onChange={() => onChange('device')}
        />
        Remember on this device
      </label>
      <label>
        <input
          type="radio"
          name="persistence"
          checked={persistence === 'session'}
          onChange={() => onChange('session')}
        />
        This session only
      </label>
    </fieldset>
  );
}

/** Where a key comes from, and where it is kept. */
function WhereToGetAKey() {
  return (
    <details className="where">
      <summary>Where do I get a key?</summary>
      <ol>
        <li>
          Sign in to your account and open <strong>Settings</strong>.
        </li>
        <li>
          Choose <strong>API keys</strong>, then <strong>Create key</strong>.
        </li>
        <li>Give it a name (for example “Kiln”), create it, and copy it. It starts with tr_.</li>
      </ol>
      <p className="muted small">
        The key stays in this browser and is sent only in the Authorization header. Kiln’s server
        never stores it.
      </p>
    </details>
  );
}

/** Mock mode: the built-in mock's demo key, kept as chosen. */
function DemoKey({ demoKey, persistence }: { demoKey: string; persistence: KeyPersistence }) {
  return (
    <div className="demo-box">
      <p>
        <span className="badge">Demo upstream</span> This Kiln runs on its built-in mock:
        generations are made locally and credits are pretend.
      </p>
      <button type="button" onClick={() => saveKey(demoKey, persistence)}>
        Use the demo key
      </button>
    </div>
  );
}

/**
 * First run: what the key is, where to get one, and where it is kept. A key is checked with the
 * API before it is kept: a refused one is said here, at the field.
 */
export function KeyScreen() {
  const info = useInfo();
  const [key, setKey] = useState('');
  const [touched, setTouched] = useState(false);
  // Pressing "Use this key" with the field empty asks for the key instead of doing nothing.
  const [tried, setTried] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const [persistence, setPersistence] = useState<KeyPersistence>('device');
  const inputId = useId();
  const [checking, setChecking] = useState(false);
  // The API's refusal of the key last tried, until the field changes.
  const [refused, setRefused] = useState<string | null>(null);
  const problem = keyProblem(key) ?? refused;
  const showProblem = touched && (key.length > 0 || tried) ? problem : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    setTried(true);
    if (problem || checking) {
      inputRef.current?.focus();
      return;
    }
    const candidate = key.trim();
    setChecking(true);
    const check = await checkKey(candidate);
    setChecking(false);
    if (!check.ok) {
      // The upstream's own words may already say what to check: said once.
      const advice = /\bcheck\b/i.test(check.refused)
        ? ''
        : ' Check that you copied all of it, or create a new key.';
      setRefused(`This key was refused: ${check.refused}${advice}`);
      inputRef.current?.focus();
      return;
    }
    saveKey(candidate, persistence);
  };
  const demoKey = info.data?.mode === 'mock' ? info.data.demoKey : undefined;

  return (
    <main className="key-screen" aria-labelledby="key-title">
      <div className="card key-card">
        <h1 id="key-title">Connect your API key</h1>
        <p className="muted">
          Kiln turns photos and prompts into 3D models through the image-to-3D API. Each generation
          is billed in credits to the account the key belongs to.
        </p>
        <form onSubmit={(e) => void submit(e)} noValidate>
          <label htmlFor={inputId}>API key</label>
          <input
            id={inputId}
            ref={inputRef}
            name="api-key"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder="tr_…"
            value={key}
            onChange={(e) => {
              setKey(e.target.value);
              setTouched(true);
              setRefused(null);
            }}
            aria-invalid={showProblem ? true : undefined}
            aria-describedby={`${inputId}-hint`}
          />
          <p
            id={`${inputId}-hint`}
            className={showProblem ? 'error' : 'muted small'}
            aria-live="polite"
          >
            {showProblem ?? 'Keys start with tr_.'}
          </p>
          <PersistenceChoice persistence={persistence} onChange={setPersistence} />
          <button
            type="submit"
            className="primary"
            disabled={checking || (key.length > 0 && keyProblem(key) !== null)}
            aria-busy={checking || undefined}
          >
            {checking ? 'Checking the key…' : 'Use this key'}
          </button>
        </form>
        <WhereToGetAKey />
        <p className="small">
          A Meshy or fal key too? <Link href="/connections">Connect providers</Link> (Kiln’s own key
          opens the studio; providers’ models join its model list).
        </p>
        {demoKey && <DemoKey demoKey={demoKey} persistence={persistence} />}
      </div>
    </main>
  );
}
