import { describe, expect, it } from 'vitest';
import { optimisePlanOf } from '../../../contract/index.ts';
import { INITIAL_FORM, checkForm, formOfPlan, requestOf, withPreset } from './form-state.ts';

describe('optimise form', () => {
  it('Web / AR sends only its name', () => {
    expect(requestOf(INITIAL_FORM)).toEqual({ preset: 'web' });
    expect(checkForm(INITIAL_FORM)).toEqual({ ok: true, request: { preset: 'web' } });
  });

  it('Game engine sends its budget and texture size, defaults filled in', () => {
    const form = withPreset(INITIAL_FORM, 'game');
    expect(requestOf(form)).toEqual({ preset: 'game', triangles: 20_000, texture_size: 2048 });
    expect(requestOf({ ...form, triangles: '12,500', textureSize: '512' })).toEqual({
      preset: 'game',
      triangles: 12_500,
      texture_size: 512,
    });
  });

  it('3D print needs a height in millimetres; a budget is optional', () => {
    const form = withPreset(INITIAL_FORM, 'print');
    expect(requestOf(form)).toEqual({ preset: 'print', height_mm: 100 });
    expect(checkForm({ ...form, heightMm: '' })).toMatchObject({ ok: false, field: 'height_mm' });
    expect(checkForm({ ...form, heightMm: 'tall' })).toMatchObject({
      ok: false,
      field: 'height_mm',
    });
    expect(requestOf({ ...form, triangles: '5000' })).toEqual({
      preset: 'print',
      height_mm: 100,
      triangles: 5000,
    });
  });

  it('custom sends every option, blanks as none', () => {
    const form = withPreset(INITIAL_FORM, 'custom');
    expect(requestOf(form)).toEqual({
      preset: 'custom',
      triangles: null,
      texture_size: null,
      texture_format: 'keep',
      compression: 'none',
      pivot: 'keep',
      height_m: null,
    });
    expect(checkForm(form).ok).toBe(true);
    const full = {
      ...form,
      triangles: '8000',
      textureSize: '1024',
      textureFormat: 'ktx2' as const,
      compression: 'draco' as const,
      pivot: 'bottom' as const,
      heightM: '1.8',
    };
    expect(checkForm(full)).toMatchObject({
      ok: true,
      request: { height_m: 1.8, triangles: 8000 },
    });
  });

  it('names the field at fault', () => {
    const custom = withPreset(INITIAL_FORM, 'custom');
    expect(checkForm({ ...custom, triangles: '50' })).toEqual({
      ok: false,
      field: 'triangles',
      message: 'triangles must be at least 100.',
    });
    expect(checkForm({ ...custom, triangles: '1e3.5' })).toMatchObject({ field: 'triangles' });
    expect(checkForm({ ...custom, heightM: '0' })).toMatchObject({ field: 'height_m' });
    expect(checkForm({ ...withPreset(INITIAL_FORM, 'game'), textureSize: '1000' })).toMatchObject({
      field: 'texture_size',
    });
  });
});

describe('the form of a job’s plan (Run it again after a reload)', () => {
  it('asks for the same plan again, for every preset', () => {
    const requests = [
      { preset: 'web' },
      { preset: 'game', triangles: 12_500, texture_size: 512 },
      { preset: 'print', height_mm: 123.4 },
      { preset: 'print', height_mm: 12.3, triangles: 5000 },
      {
        preset: 'custom',
        triangles: 800,
        texture_size: 256,
        texture_format: 'ktx2',
        compression: 'draco',
        pivot: 'center',
        height_m: 1.75,
      },
      { preset: 'custom', texture_format: 'webp' },
    ] as const;
    for (const request of requests) {
      const plan = optimisePlanOf(request);
      const form = formOfPlan(plan);
      expect(form.preset).toBe(plan.preset);
      const checked = checkForm(form);
      expect(checked.ok, JSON.stringify(checked)).toBe(true);
      if (checked.ok) expect(optimisePlanOf(checked.request)).toEqual(plan);
    }
    expect(formOfPlan(optimisePlanOf({ preset: 'print', height_mm: 123.4 })).heightMm).toBe(
      '123.4',
    );
  });
});
