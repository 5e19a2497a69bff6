/**
 * The clock react-three-fiber keeps in its store (`state.clock`), without three's deprecated
 * `THREE.Clock` (r183), whose constructor warns in the console on every <Canvas>. r3f 9 makes
 * `new THREE.Clock()` itself and takes no other; in builds its `three` is Kiln's subset
 * (three-subset.ts), which hands it this class under that name. Same fields and methods, in
 * seconds, as three's.
 */
export class FrameClock {
  autoStart: boolean;
  startTime = 0;
  oldTime = 0;
  elapsedTime = 0;
  running = false;

  constructor(autoStart = true) {
    this.autoStart = autoStart;
  }

  start(): void {
    this.startTime = performance.now();
    this.oldTime = this.startTime;
    this.elapsedTime = 0;
    this.running = true;
  }

  stop(): void {
    this.getElapsedTime();
    this.running = false;
    this.autoStart = false;
  }

  getElapsedTime(): number {
    this.getDelta();
    return this.elapsedTime;
  }

  /** Seconds since the last call (starting the clock first when it is to start itself). */
  getDelta(): number {
    let diff = 0;
    if (this.autoStart && !this.running) {
      this.start();
      return 0;
    }
    if (this.running) {
      const now = performance.now();
      diff = (now - this.oldTime) / 1000;
      this.oldTime = now;
      this.elapsedTime += diff;
    }
    return diff;
  }
}
