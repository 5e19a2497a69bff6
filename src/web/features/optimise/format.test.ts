import { describe, expect, it } from 'vitest';
import { optimisePlanOf } from '../../../contract/index.ts';
import {
  describeExtensions,
  describePlan,
  describeSize,
  describeTextures,
  formatChange,
  largestTexture,
  resultFileName,
} from './format.ts';

describe('optimise page words', () => {
  it('changes as signed percentages', () => {
    expect(formatChange(30_000, 4900)).toBe('−84%');
    expect(formatChange(100, 112)).toBe('+12%');
    expect(formatChange(1000, 1002)).toBe('same');
    expect(formatChange(0, 0)).toBe('same');
  });

  it('textures grouped, in words', () => {
    expect(describeTextures([])).toBe('none');
    expect(
      describeTextures([
        { width: 2048, height: 2048, mime_type: 'image/png' },
        { width: 2048, height: 2048, mime_type: 'image/png' },
        { width: 512, height: 256, mime_type: 'image/webp' },
      ]),
    ).toBe('2 × 2048 × 2048 PNG, 512 × 256 WebP');
    expect(largestTexture([{ width: 512, height: 1024, mime_type: 'image/ktx2' }])).toBe(1024);
  });

  it('the box as width × depth × height', () => {
    expect(describeSize([0.568, 1, 0.3705], 'm')).toBe('0.57 × 0.37 × 1 m');
    expect(describeSize([0.068, 0.12, 0.0444], 'mm')).toBe('68 × 44.4 × 120 mm');
  });

  it('extensions as what a loader needs', () => {
    expect(describeExtensions(['EXT_meshopt_compression', 'KHR_mesh_quantization'])).toBe(
      'Meshopt, quantized',
    );
    expect(describeExtensions([])).toBe('none');
  });

  it('download names say what the file is for', () => {
    const name = 'kiln-alpha-chair-2026-11-24.glb';
    expect(resultFileName(name, optimisePlanOf({ preset: 'web' }))).toBe(
      'kiln-alpha-chair-2026-11-24-web.glb',
    );
    expect(resultFileName(name, optimisePlanOf({ preset: 'print', height_mm: 120 }))).toBe(
      'kiln-alpha-chair-2026-11-24-print-120mm.stl',
    );
    expect(resultFileName(name, optimisePlanOf({ preset: 'custom' }))).toBe(
      'kiln-alpha-chair-2026-11-24-optimised.glb',
    );
  });

  it('plans in one line', () => {
    expect(describePlan(optimisePlanOf({ preset: 'web' }))).toBe(
      'Web / AR: ≤ 50,000 triangles, textures ≤ 1024 px WebP, Meshopt geometry, pivot at the bottom centre.',
    );
    expect(describePlan(optimisePlanOf({ preset: 'print', height_mm: 120 }))).toBe(
      '3D print: binary STL 120 mm tall, Z up, watertight.',
    );
    expect(
      describePlan(optimisePlanOf({ preset: 'custom', texture_format: 'ktx2', height_m: 1.8 })),
    ).toBe('Custom: textures as KTX2, 1.8 m tall.');
    expect(describePlan(optimisePlanOf({ preset: 'custom' }))).toBe('Custom: as it is.');
  });
});
