import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { loadSubject } from './subject.ts';

describe('thin objects', () => {
  async function subjectOf(svgBody: string) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512">
      <rect width="512" height="512" fill="#e8e8e8"/>${svgBody}</svg>`;
    const png = new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
    return loadSubject(png, { gridLongSide: 160, thinGridFactor: 2 });
  }

  it('are looked at again on a grid twice as fine', async () => {
    // A wading bird's legs and neck: lines 5 px wide, mostly outline at 160 samples.
    const { mask } = await subjectOf(`<g stroke="#c0392b" stroke-width="5" fill="none">
      <path d="M 200 460 L 230 300 L 260 460"/><path d="M 230 300 Q 300 200 250 60"/></g>
      <ellipse cx="235" cy="290" rx="40" ry="18" fill="#c0392b"/>`);
    expect(mask.width).toBe(320);
  });

  it('a solid object is not', async () => {
    const { mask } = await subjectOf(
      '<rect x="140" y="120" width="230" height="300" fill="#2c3e50"/>',
    );
    expect(mask.width).toBe(160);
  });
});
