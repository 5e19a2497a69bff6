// What is behind the model in a turntable's frames: the viewer's stage as seen (its colour, or
// the page's soft radial gradient under a transparent canvas), one colour, or nothing.

export type Backdrop =
  | { kind: 'none' }
  | { kind: 'colour'; colour: string }
  /** The stage's gradient (viewer.css): `centre` at the middle, `middle` at 70 %, `edge` out. */
  | { kind: 'gradient'; centre: string; middle: string; edge: string };

/**
 * The ellipse of `radial-gradient(ellipse at 50% 38%, …)` (CSS's default size, farthest-corner)
 * on a `width` × `height` frame: its centre and its radii at 100 %.
 */
export function stageEllipse(width: number, height: number) {
  const cx = width / 2;
  const cy = 0.38 * height;
  // The closest-side ellipse's proportions, grown until it passes through the farthest corner.
  const [sx, sy] = [Math.min(cx, width - cx), Math.min(cy, height - cy)];
  const [dx, dy] = [Math.max(cx, width - cx), Math.max(cy, height - cy)];
  const k = Math.hypot(dx / sx, dy / sy);
  return { cx, cy, rx: k * sx, ry: k * sy };
}

/** `a` × (1 − t) + `b` × t of two `#rrggbb` colours. */
export function mixColours(a: string, b: string, t: number): string {
  const channel = (hex: string, i: number) => parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16);
  const out = [0, 1, 2].map((i) =>
    Math.round(channel(a, i) * (1 - t) + channel(b, i) * t)
      .toString(16)
      .padStart(2, '0'),
  );
  return `#${out.join('')}`;
}

/** A CSS colour as `#rrggbb`, as a canvas reads it (opaque colours only; else null). */
function hexOf(context: CanvasRenderingContext2D, css: string): string | null {
  context.fillStyle = '#000000';
  context.fillStyle = css.trim();
  const read = String(context.fillStyle);
  return /^#[0-9a-f]{6}$/i.test(read) ? read : null;
}

/**
 * The stage behind a viewer `element` as it is seen: the scene's own colour when it has one,
 * else the stage's gradient in the page's colours (light or dark).
 */
export function stageBackdrop(element: Element, sceneColour: string | null): Backdrop {
  if (sceneColour) return { kind: 'colour', colour: sceneColour };
  const style = getComputedStyle(element);
  const context = document.createElement('canvas').getContext('2d');
  const surface = context && hexOf(context, style.getPropertyValue('--surface'));
  const surface2 = context && hexOf(context, style.getPropertyValue('--surface-2'));
  if (!surface || !surface2) return { kind: 'colour', colour: surface ?? '#ffffff' };
  return {
    kind: 'gradient',
    centre: surface,
    middle: mixColours(surface, surface2, 0.7),
    edge: surface2,
  };
}

/**
 * The backdrop a turntable's `background` choice asks for: the stage as the viewer `element` shows
 * it (the scene's colour, or white, with no element), the chosen `colour`, or none.
 */
export function chosenBackdrop(
  background: 'stage' | 'colour' | 'transparent',
  element: Element | null,
  sceneColour: string | null,
  colour: string,
): Backdrop {
  if (background === 'colour') return { kind: 'colour', colour };
  if (background === 'transparent') return { kind: 'none' };
  return element
    ? stageBackdrop(element, sceneColour)
    : { kind: 'colour', colour: sceneColour ?? '#ffffff' };
}

/** Paints `backdrop` over the whole of `context`'s canvas (nothing for `none`). */
export function paintBackdrop(context: CanvasRenderingContext2D, backdrop: Backdrop): void {
  const { width, height } = context.canvas;
  context.clearRect(0, 0, width, height);
  if (backdrop.kind === 'none') return;
  if (backdrop.kind === 'colour') {
    context.fillStyle = backdrop.colour;
    context.fillRect(0, 0, width, height);
    return;
  }
  const { cx, cy, rx, ry } = stageEllipse(width, height);
  context.save();
  context.translate(cx, cy);
  context.scale(rx, ry);
  const gradient = context.createRadialGradient(0, 0, 0, 0, 0, 1);
  gradient.addColorStop(0, backdrop.centre);
  gradient.addColorStop(0.7, backdrop.middle);
  gradient.addColorStop(1, backdrop.edge);
  context.fillStyle = gradient;
  context.fillRect(-cx / rx, -cy / ry, width / rx, height / ry);
  context.restore();
}
