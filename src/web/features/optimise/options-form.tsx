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

/** What every field of the form is given: the form, a setter, its ids, and the error at a field. */
interface FieldsProps {
  form: OptimiseForm;
  set: <K extends keyof OptimiseForm>(key: K, value: OptimiseForm[K]) => void;
  /** The element id of a field, by its request name. */
  id: (param: string) => string;
  errorAt: (param: string) => FieldError | null;
}

const { min: MIN_TRIANGLES, max: MAX_TRIANGLES } = OPTIMISE_LIMITS.triangles;

function TrianglesInput({
  form,
  set,
  id,
  errorAt,
  label,
  hint,
}: FieldsProps & { label: string; hint: string }) {
  return (
    <Field id={id('triangles')} label={label} hint={hint} error={errorAt('triangles')}>
      {(props) => (
        <input
          {...props}
          type="number"
          inputMode="numeric"
          min={MIN_TRIANGLES}
          max={MAX_TRIANGLES}
          step={100}
          value={form.triangles}
          onChange={(e) => set('triangles', e.target.value)}
        />
      )}
    </Field>
  );
}

/** The textures' size; `keep` offers to leave it as it is. */
function TextureSizeSelect({
  form,
  set,
  id,
  errorAt,
  label,
  keep,
}: FieldsProps & { label: string; keep: boolean }) {
  return (
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
}

/** A height in decimal units (`field` of the form, `param` of the request), within `limits`. */
function HeightInput({
  form,
  set,
  id,
  errorAt,
  param,
  field,
  label,
  hint,
  limits,
}: FieldsProps & {
  param: 'height_mm' | 'height_m';
  field: 'heightMm' | 'heightM';
  label: string;
  hint: string;
  limits: { min: number; max: number };
}) {
  return (
    <Field id={id(param)} label={label} hint={hint} error={errorAt(param)}>
      {(props) => (
        <input
          {...props}
          type="number"
          inputMode="decimal"
          min={limits.min}
          max={limits.max}
          step="any"
          value={form[field]}
          onChange={(e) => set(field, e.target.value)}
        />
      )}
    </Field>
  );
}

/** One of a fixed list of `options` (`field` of the form, `param` of the request), with their labels. */
function ChoiceSelect<K extends 'textureFormat' | 'compression' | 'pivot'>({
  form,
  set,
  id,
  errorAt,
  param,
  field,
  label,
  options,
  labels,
}: FieldsProps & {
  param: string;
  field: K;
  label: string;
  options: readonly OptimiseForm[K][];
  labels: Record<OptimiseForm[K], string>;
}) {
  return (
    <Field id={id(param)} label={label} error={errorAt(param)}>
      {(props) => (
        <select
          {...props}
          value={form[field]}
          onChange={(e) => set(field, e.target.value as OptimiseForm[K])}
        >
          {options.map((value) => (
            <option key={value} value={value}>
              {labels[value]}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The options the chosen preset leaves open (none for Web / AR). */
function PresetFields(fields: FieldsProps) {
  const { preset } = fields.form;
  if (preset === 'game')
    return (
      <>
        <TrianglesInput
          {...fields}
          label="Triangle budget"
          hint={`At most this many triangles (${formatCount(MIN_TRIANGLES)} to ${formatCount(MAX_TRIANGLES)}).`}
        />
        <TextureSizeSelect {...fields} label="Texture size" keep={false} />
      </>
    );
  if (preset === 'print')
    return (
      <>
        <HeightInput
          {...fields}
          param="height_mm"
          field="heightMm"
          label="Height (mm)"
          hint="The printed model's height; width and depth follow."
          limits={OPTIMISE_LIMITS.heightMm}
        />
        <TrianglesInput
          {...fields}
          label="Triangle budget (optional)"
          hint="Leave empty to keep every triangle."
        />
      </>
    );
  if (preset !== 'custom') return null;
  return (
    <>
      <TrianglesInput
        {...fields}
        label="Triangle target"
        hint="Leave empty to keep every triangle."
      />
      <TextureSizeSelect {...fields} label="Texture max size" keep />
      <ChoiceSelect
        {...fields}
        param="texture_format"
        field="textureFormat"
        label="Texture format"
        options={TEXTURE_FORMATS}
        labels={FORMAT_LABELS}
      />
      <ChoiceSelect
        {...fields}
        param="compression"
        field="compression"
        label="Geometry compression"
        options={GEOMETRY_COMPRESSIONS}
        labels={COMPRESSION_LABELS}
      />
      <ChoiceSelect
        {...fields}
        param="pivot"
        field="pivot"
        label="Pivot"
        options={PIVOTS}
        labels={PIVOT_LABELS}
      />
      <HeightInput
        {...fields}
        param="height_m"
        field="heightM"
        label="Real height (m)"
        hint="Scale the model to this height; empty keeps its size."
        limits={OPTIMISE_LIMITS.heightM}
      />
    </>
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
          <PresetFields form={form} set={set} id={id} errorAt={errorAt} />
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
