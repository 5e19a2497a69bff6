// The optimise form's state (text as typed) and the request it makes, checked by the contract's
// schema before it is sent, so a bad value is said at its field at once.
import {
  GAME_DEFAULTS,
  PRINT_DEFAULT_HEIGHT_MM,
  parseOptimiseRequest,
  type GeometryCompression,
  type OptimisePlan,
  type OptimisePreset,
  type OptimiseRequestInput,
  type Pivot,
  type TextureFormat,
} from '../../../contract/index.ts';

export interface OptimiseForm {
  preset: OptimisePreset;
  /** Game engine, 3D print and custom: a triangle count as typed ("" = none, where allowed). */
  triangles: string;
  /** Game engine and custom: pixels, or "" to keep (custom). */
  textureSize: string;
  textureFormat: TextureFormat;
  compression: GeometryCompression;
  pivot: Pivot;
  /** Custom: metres as typed ("" keeps the size). */
  heightM: string;
  /** 3D print: millimetres as typed. */
  heightMm: string;
}

export const INITIAL_FORM: OptimiseForm = {
  preset: 'web',
  triangles: String(GAME_DEFAULTS.triangles),
  textureSize: String(GAME_DEFAULTS.texture_size),
  textureFormat: 'keep',
  compression: 'none',
  pivot: 'keep',
  heightM: '',
  heightMm: String(PRINT_DEFAULT_HEIGHT_MM),
};

/** What each preset starts with in the shared fields, when the user picks it. */
export function withPreset(form: OptimiseForm, preset: OptimisePreset): OptimiseForm {
  if (preset === form.preset) return form;
  if (preset === 'game')
    return {
      ...form,
      preset,
      triangles: form.triangles || String(GAME_DEFAULTS.triangles),
      textureSize: form.textureSize || String(GAME_DEFAULTS.texture_size),
    };
  if (preset === 'print') return { ...form, preset, triangles: '' };
  if (preset === 'custom') return { ...form, preset, triangles: '', textureSize: '' };
  return { ...form, preset };
}

/**
 * The form that asks for `plan` again (a job's, read back after a reload): what "Run it again"
 * sends, and shows. Fields the preset does not use keep the form's defaults.
 */
export function formOfPlan(plan: OptimisePlan): OptimiseForm {
  const text = (n: number | null) => (n === null ? '' : String(n));
  const base = withPreset(INITIAL_FORM, plan.preset);
  switch (plan.preset) {
    case 'web':
      return base;
    case 'game':
      return { ...base, triangles: text(plan.triangles), textureSize: text(plan.texture_size) };
    case 'print':
      return {
        ...base,
        triangles: text(plan.triangles),
        // Metres back to the millimetres typed (rounded off the float's last digits).
        heightMm: text(plan.height_m === null ? null : Math.round(plan.height_m * 1e9) / 1e6),
      };
    case 'custom':
      return {
        ...base,
        triangles: text(plan.triangles),
        textureSize: text(plan.texture_size),
        textureFormat: plan.texture_format,
        compression: plan.compression,
        pivot: plan.pivot,
        heightM: text(plan.height_m),
      };
  }
}

/** A number as typed: "" is none; anything else is Number(text) (NaN is refused by the schema). */
function numberOf(text: string): number | undefined {
  const t = text.trim().replace(/[\s,_]/g, '');
  return t === '' ? undefined : Number(t);
}

/** The request the form describes (not yet checked). */
export function requestOf(form: OptimiseForm): OptimiseRequestInput {
  const triangles = numberOf(form.triangles);
  const textureSize = numberOf(form.textureSize);
  switch (form.preset) {
    case 'web':
      return { preset: 'web' };
    case 'game':
      return {
        preset: 'game',
        ...(triangles !== undefined ? { triangles } : {}),
        ...(textureSize !== undefined ? { texture_size: textureSize } : {}),
      } as OptimiseRequestInput;
    case 'print':
      return {
        preset: 'print',
        height_mm: numberOf(form.heightMm),
        ...(triangles !== undefined ? { triangles } : {}),
      } as OptimiseRequestInput;
    case 'custom': {
      const heightM = numberOf(form.heightM);
      return {
        preset: 'custom',
        triangles: triangles ?? null,
        texture_size: textureSize ?? null,
        texture_format: form.textureFormat,
        compression: form.compression,
        pivot: form.pivot,
        height_m: heightM ?? null,
      } as OptimiseRequestInput;
    }
  }
}

export type Checked =
  { ok: true; request: OptimiseRequestInput } | { ok: false; field: string; message: string };

/** The request, or the first field at fault and what is wrong with it. */
export function checkForm(form: OptimiseForm): Checked {
  const request = requestOf(form);
  const parsed = parseOptimiseRequest(request);
  if (parsed.ok) return { ok: true, request };
  return { ok: false, field: parsed.error.param ?? 'form', message: parsed.error.message };
}
