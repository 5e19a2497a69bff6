// Starting WebGL ahead of the viewer's code. Creating a context and enabling the extensions
// three.js asks for blocks the page for up to a second on a software renderer (SwiftShader,
// llvmpipe: browsers without a usable GPU, virtual machines, CI), so /viewer opened by address
// does it from the entry script, while three.js and the model are still downloading (see
// preload.ts). The first viewer's renderer then adopts this canvas (see model-viewer.tsx).
// Kept in the entry: no three.js here.

/**
 * Exactly the attributes three's WebGLRenderer asks for with Kiln's options (alpha, antialias,
 * react-three-fiber's powerPreference): a canvas keeps the context it was first given, so a
 * renderer that adopts this canvas gets these.
 */
const CONTEXT_ATTRIBUTES: WebGLContextAttributes = {
  alpha: true,
  depth: true,
  stencil: false,
  antialias: true,
  premultipliedAlpha: true,
  preserveDrawingBuffer: false,
  powerPreference: 'high-performance',
  failIfMajorPerformanceCaveat: false,
};

/** What three.js enables at start-up or before the first frame (WebGLExtensions and its users). */
const EXTENSIONS = [
  'EXT_color_buffer_float',
  'WEBGL_clip_cull_distance',
  'OES_texture_float_linear',
  'EXT_color_buffer_half_float',
  'WEBGL_multisampled_render_to_texture',
  'WEBGL_render_shared_exponent',
  'EXT_texture_filter_anisotropic',
  'EXT_clip_control',
  'KHR_parallel_shader_compile',
  'WEBGL_debug_renderer_info',
];

/** How long a warm canvas waits for a viewer before its context is given back. */
const KEEP_MS = 60_000;

let warm: HTMLCanvasElement | null = null;

/** Starts a WebGL 2 context on a 1 × 1 canvas, for `takeWarmCanvas`. Idempotent. */
export function warmUpWebGL(): void {
  if (warm || typeof document === 'undefined') return;
  const canvas = document.createElement('canvas');
  canvas.width = 1;
  canvas.height = 1;
  let gl: WebGL2RenderingContext | null = null;
  try {
    gl = canvas.getContext('webgl2', CONTEXT_ATTRIBUTES);
  } catch {
    // No WebGL: the viewer says so when it starts.
  }
  if (!gl) return;
  for (const name of EXTENSIONS) gl.getExtension(name);
  warm = canvas;
  const context = gl;
  setTimeout(() => {
    if (warm !== canvas) return;
    warm = null;
    context.getExtension('WEBGL_lose_context')?.loseContext();
  }, KEEP_MS);
}

/** The warm canvas, once: its context is live and its extensions enabled. Null if there is none. */
export function takeWarmCanvas(): HTMLCanvasElement | null {
  const canvas = warm;
  warm = null;
  return canvas;
}

/** The warm canvas' context while no viewer has taken it yet (for format checks), else null. */
export function warmContext(): WebGL2RenderingContext | null {
  return warm?.getContext('webgl2', CONTEXT_ATTRIBUTES) ?? null;
}
