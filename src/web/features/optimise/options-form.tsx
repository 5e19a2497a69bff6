import { useEffect, useId, type FormEvent, type ReactNode } from 'react';
import {
  GEOMETRY_COMPRESSIONS,
  OPTIMISE_LIMITS,
  PIVOTS,
  TEXTURE_FORMATS,
  TEXTURE_SIZES,
  WEB_PRESET,
  type OptimisePreset,
} from '../../../contract/index.ts';
import { formatCount } from './format.ts';
import { withPreset, type OptimiseForm } from './form-state.ts';

const PRESETS: { id: OptimisePreset; title: string; summary: string }[] = [
  {
    id: 'web',
    title: 'Web / AR',
    summary: `≤ ${formatCount(WEB_PRESET.triangles)} triangles, textures ≤ ${WEB_PRESET.texture_size} px as WebP, Meshopt geometry, standing on its origin.`,
  },
  {
    id: 'game',
    title: 'Game engine',
    summary:
      'Your triangle budget and texture size; plain glTF that every engine imports, standing on its origin.',
  },
  {
    id: 'print',
    title: '3D print',
    summary: 'A watertight binary STL in millimetres, Z up, at the height you give.',
  },
  { id: 'custom', title: 'Custom', summary: 'Choose every option yourself.' },
];

const FORMAT_LABELS: Record<(typeof TEXTURE_FORMATS)[number], string> = {
  keep: 'Keep as they are',
  webp: 'WebP',
  png: 'PNG',
  jpeg: 'JPEG',
  ktx2: 'KTX2 (Basis Universal, GPU)',
};
const COMPRESSION_LABELS: Record<(typeof GEOMETRY_COMPRESSIONS)[number], string> = {
  none: 'None',
  draco: 'Draco (smallest geometry)',
  meshopt: 'Meshopt (fast to decode)',
};
const PIVOT_LABELS: Record<(typeof PIVOTS)[number], string> = {
  keep: 'Keep',
  bottom: 'Bottom centre',
  center: 'Centre',
};

/** The fields the form shows (by their request name); an error elsewhere is said under the form. */
const FIELDS = [
  'triangles',
  'texture_size',
  'texture_format',
  'compression',
  'pivot',
  'height_m',
  'height_mm',
];

export interface FieldError {
  field: string;
  message: string;
}

/** One labelled control with its hint and, when it is at fault, the message (described by it). */
function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error: FieldError | null;
  children: (props: {
    id: string;
    'aria-invalid': boolean | undefined;
    'aria-describedby': string | undefined;
  }) => ReactNode;
}) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className="opt-field">
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': described || undefined,
      })}
      {hint && (
        <p id={hintId} className="muted small">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="error small">
          {error.message}
        </p>
      )}
    </div>
  );
}

/** The target: a preset, and the options it leaves open. */
export function OptionsForm({
  form,
  onChange,
  onSubmit,
  error,
  busy,
}: {
  form: OptimiseForm;
  onChange: (form: OptimiseForm) => void;
  onSubmit: () => void;
  /** The field at fault (its `param`), or `form` for the whole. */
  error: FieldError | null;
  busy: boolean;
}) {
  const base = useId();
  const id = (param: string) => `${base}-${param}`;
  const errorAt = (param: string) => (error?.field === param ? error : null);
  // A field at fault takes focus, so its message is read and it can be corrected at once.
  useEffect(() => {
    if (error) document.getElementById(`${base}-${error.field}`)?.focus();
  }, [error, base]);
  const set = <K extends keyof OptimiseForm>(key: K, value: OptimiseForm[K]) =>
    onChange({ ...form, [key]: value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  const { min, max } = OPTIMISE_LIMITS.triangles;
  const trianglesInput = (label: string, hint: string) => (
    <Field id={id('triangles')} label={label} hint={hint} error={errorAt('triangles')}>
      {(props) => (
        <input
          {...props}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={100}
          value={form.triangles}
          onChange={(e) => set('triangles', e.target.value)}
        />
      )}
    </Field>
  );
  const sizeSelect = (label: string, keep: boolean) => (
    <Field id={id('texture_size')} label={label} error={errorAt('texture_size')}>
      {(props) => (
        <select
          {...props}
          value={form.textureSize}
          onChange={(e) => set('textureSize', e.target.value)}
        >
          {keep && <option value="">Keep their size</option>}
          {TEXTURE_SIZES.map((s) => (
            <option key={s} value={String(s)}>
              {s} px
            </option>
          ))}
        </select>
      )}
    </Field>
  );

  return (
    <form className="opt-form card" onSubmit={submit} noValidate aria-labelledby={id('title')}>
      <h2 id={id('title')}>Optimise for</h2>
      <fieldset className="opt-presets">
        <legend className="visually-hidden">Target</legend>
        {PRESETS.map((p) => (
          <label key={p.id} className="opt-preset" data-checked={form.preset === p.id || undefined}>
            <input
              type="radio"
              name="preset"
              value={p.id}
              checked={form.preset === p.id}
              onChange={() => onChange(withPreset(form, p.id))}
            />
            <span>
              <strong>{p.title}</strong>
              <span className="muted small">{p.summary}</span>
            </span>
          </label>
        ))}
      </fieldset>

      {form.preset !== 'web' && (
        <div className="opt-fields">
          {form.preset === 'game' && (
            <>
              {trianglesInput(
                'Triangle budget',
                `At most this many triangles (${formatCount(min)} to ${formatCount(max)}).`,
              )}
              {sizeSelect('Texture size', false)}
            </>
          )}
          {form.preset === 'print' && (
            <>
              <Field
                id={id('height_mm')}
                label="Height (mm)"
                hint="The printed model's height; width and depth follow."
                error={errorAt('height_mm')}
              >
                {(props) => (
                  <input
                    {...props}
                    type="number"
                    inputMode="decimal"
                    min={OPTIMISE_LIMITS.heightMm.min}
                    max={OPTIMISE_LIMITS.heightMm.max}
                    step="any"
                    value={form.heightMm}
                    onChange={(e) => set('heightMm', e.target.value)}
                  />
                )}
              </Field>
              {trianglesInput('Triangle budget (optional)', 'Leave empty to keep every triangle.')}
            </>
          )}
          {form.preset === 'custom' && (
            <>
              {trianglesInput('Triangle target', 'Leave empty to keep every triangle.')}
              {sizeSelect('Texture max size', true)}
              <Field
                id={id('texture_format')}
                label="Texture format"
                error={errorAt('texture_format')}
              >
                {(props) => (
                  <select
                    {...props}
                    value={form.textureFormat}
                    onChange={(e) =>
                      set('textureFormat', e.target.value as OptimiseForm['textureFormat'])
                    }
                  >
                    {TEXTURE_FORMATS.map((f) => (
                      <option key={f} value={f}>
                        {FORMAT_LABELS[f]}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field
                id={id('compression')}
                label="Geometry compression"
                error={errorAt('compression')}
              >
                {(props) => (
                  <select
                    {...props}
                    value={form.compression}
                    onChange={(e) =>
                      set('compression', e.target.value as OptimiseForm['compression'])
                    }
                  >
                    {GEOMETRY_COMPRESSIONS.map((c) => (
                      <option key={c} value={c}>
                        {COMPRESSION_LABELS[c]}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field id={id('pivot')} label="Pivot" error={errorAt('pivot')}>
                {(props) => (
                  <select
                    {...props}
                    value={form.pivot}
                    onChange={(e) => set('pivot', e.target.value as OptimiseForm['pivot'])}
                  >
                    {PIVOTS.map((p) => (
                      <option key={p} value={p}>
                        {PIVOT_LABELS[p]}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field
                id={id('height_m')}
                label="Real height (m)"
                hint="Scale the model to this height; empty keeps its size."
                error={errorAt('height_m')}
              >
                {(props) => (
                  <input
                    {...props}
                    type="number"
                    inputMode="decimal"
                    min={OPTIMISE_LIMITS.heightM.min}
                    max={OPTIMISE_LIMITS.heightM.max}
                    step="any"
                    value={form.heightM}
                    onChange={(e) => set('heightM', e.target.value)}
                  />
                )}
              </Field>
            </>
          )}
        </div>
      )}
      {error && !FIELDS.includes(error.field) && (
        <p className="error" role="alert">
          {error.message}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Starting…' : 'Optimise'}
      </button>
    </form>
  );
}
