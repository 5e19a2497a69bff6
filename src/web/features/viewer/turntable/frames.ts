// The frames of a turntable, decided before any is drawn: how many, when each is shown and from
// which angle. The same length and frame rate always give the same frames (decision 0088).

export interface FrameSchedule {
  fps: number;
  /** Frames in one full turn: fps × seconds. */
  count: number;
  /** The whole turn, in seconds: count / fps. */
  seconds: number;
}

/** One turn of `seconds` at `fps`. */
export function frameSchedule(seconds: number, fps: number): FrameSchedule {
  if (!(seconds > 0) || !(fps > 0)) throw new RangeError('seconds and fps must be positive');
  const count = Math.round(seconds * fps);
  return { fps, count, seconds: count / fps };
}

/** When frame `i` is shown, in whole microseconds (WebCodecs' unit). */
export function frameTimestampUs(i: number, fps: number): number {
  return Math.round((i * 1e6) / fps);
}

/** The orbit angle of frame `i` of `count`, in radians: 2π·i/count (the last frame is one step short of the first). */
export function frameAngle(i: number, count: number): number {
  return (2 * Math.PI * i) / count;
}

/** Where the animation of frame `i` stands, in seconds: it advances with the frames' own time. */
export function frameTime(i: number, fps: number): number {
  return i / fps;
}

/**
 * Each GIF frame's delay in hundredths of a second (a GIF's unit). 100/fps is rarely whole
 * (15 fps: 6.67), so the delays alternate to keep the running total exact: at 15 fps, 7, 6, 7
 * and every 15 frames make exactly one second.
 */
export function gifDelays(count: number, fps: number): number[] {
  const at = (i: number) => Math.round((i * 100) / fps);
  return Array.from({ length: count }, (_, i) => at(i + 1) - at(i));
}

/** How much room the turning model keeps from the frame's nearest edge. */
const MARGIN = 1.04;

/**
 * The distance from the orbit's centre at which a sphere of `radius` stays inside a frame
 * `aspect` wide seen through `camera`'s lens: never nearer than the view as shown.
 */
export function orbitDistance(
  shown: number,
  radius: number,
  camera: { fov: number; zoom: number },
  aspect: number,
): number {
  const tanV = Math.tan((camera.fov * Math.PI) / 360) / camera.zoom;
  const half = Math.min(Math.atan(tanV), Math.atan(tanV * aspect));
  return Math.max(shown, (radius * MARGIN) / Math.sin(half));
}
