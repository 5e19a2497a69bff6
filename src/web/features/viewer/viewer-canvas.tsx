// The viewer's react-three-fiber canvas: the renderer on a canvas of its final size (or the one the
// entry script warmed up), the camera, and the stage, inside a boundary that reports load and WebGL
// errors to the viewer's lifecycle.
import { Component, type ReactNode, type RefObject } from 'react';
import { Canvas } from '@react-three/fiber';
import { WebGLRenderer, type WebGLRendererParameters } from 'three';
import type { CameraLink } from './camera-link.ts';
import { Stage } from './scene.tsx';
import type { ViewerSettings } from './settings.ts';
import type { ViewerLifecycle } from './use-viewer-lifecycle.ts';
import { CAMERA, DPR, GL_OPTIONS, pixelRatio } from './stage.ts';
import type { ViewHandle } from './view-handle.ts';
import { takeWarmCanvas } from './webgl-warmup.ts';

/**
 * The renderer. On a canvas that already has its final size: react-three-fiber would start WebGL
 * on a 300 × 150 canvas and resize it at once, which allocates the drawing buffer a second time
 * (about 0.4 s on a software renderer). And, for the first viewer on /viewer opened by address,
 * on the canvas whose context the entry script started (webgl-warmup.ts), put in the place of
 * react-three-fiber's own: r3f sizes the renderer's canvas and listens on its parent elements.
 * (r3f tears its root down when an effect finds its canvas out of the page, which happens only
 * when the viewer unmounts; or in development, where StrictMode replays effects: there is no
 * warm-up there, see preload.ts.)
 */
function createRenderer({
  canvas: given,
  ...defaults
}: Omit<WebGLRendererParameters, 'canvas'> & { canvas: EventTarget }): WebGLRenderer {
  if (!(given instanceof HTMLCanvasElement) || !given.parentElement)
    return new WebGLRenderer({ ...defaults, ...GL_OPTIONS, canvas: given as HTMLCanvasElement });
  let canvas = given;
  const warm = takeWarmCanvas();
  // r3f sizes the canvas to its parent, at the pixel ratio below (three floors the product).
  const { width, height } = given.parentElement.getBoundingClientRect();
  if (warm) {
    warm.style.cssText = given.style.cssText;
    given.replaceWith(warm);
    canvas = warm;
  }
  const ratio = pixelRatio();
  canvas.width = Math.max(1, Math.floor(width * ratio));
  canvas.height = Math.max(1, Math.floor(height * ratio));
  return new WebGLRenderer({ ...defaults, ...GL_OPTIONS, canvas });
}

interface BoundaryProps {
  children: ReactNode;
  onError: (error: Error) => void;
}

/** Catches load and WebGL errors; the viewer shows them (it reads them through `onError`). */
class ViewerErrorBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    this.props.onError(error instanceof Error ? error : new Error(String(error)));
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}

/** The canvas showing `source` as `settings` say, reporting to `lifecycle`; restarted per attempt. */
export function ViewerCanvas({
  source,
  settings,
  lifecycle,
  handleRef,
  cameraLink,
}: {
  source: string;
  settings: ViewerSettings;
  lifecycle: ViewerLifecycle;
  handleRef: RefObject<ViewHandle | null>;
  cameraLink: CameraLink | undefined;
}) {
  return (
    <ViewerErrorBoundary key={lifecycle.attempt} onError={lifecycle.onError}>
      <Canvas
        aria-hidden="true"
        className="model-viewer__canvas"
        frameloop="demand"
        dpr={DPR}
        flat={false}
        linear={false}
        gl={createRenderer}
        camera={CAMERA}
        onCreated={lifecycle.onCreated}
      >
        <Stage
          url={source}
          settings={settings}
          onProgress={lifecycle.onProgress}
          onReady={lifecycle.onReady}
          onError={lifecycle.onError}
          onLoaded={lifecycle.onLoaded}
          onFirstFrame={lifecycle.onFirstFrame}
          handleRef={handleRef}
          cameraLink={cameraLink}
        />
      </Canvas>
    </ViewerErrorBoundary>
  );
}
