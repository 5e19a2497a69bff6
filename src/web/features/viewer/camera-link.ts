// Linked cameras for side-by-side comparison: each viewer publishes its camera pose when the
// user moves it, and the others take it. Every viewer shows its model centred and scaled to the
// same unit footprint, so one pose frames both models the same way.

export interface CameraPose {
  position: [number, number, number];
  target: [number, number, number];
}

type Listener = (pose: CameraPose) => void;

export class CameraLink {
  #listeners = new Map<symbol, Listener>();
  #last: CameraPose | null = null;
  #enabled = true;

  get enabled(): boolean {
    return this.#enabled;
  }

  /** Off: viewers move on their own (and catch up with the last pose when it is on again). */
  setEnabled(on: boolean): void {
    this.#enabled = on;
  }

  /** Joins the link; returns the function that leaves it. */
  join(id: symbol, listener: Listener): () => void {
    this.#listeners.set(id, listener);
    return () => this.#listeners.delete(id);
  }

  /** Sends a pose to every other viewer (when the link is on). */
  publish(from: symbol, pose: CameraPose): void {
    this.#last = pose;
    if (!this.#enabled) return;
    for (const [id, listener] of this.#listeners) if (id !== from) listener(pose);
  }

  /** The last pose published, for a viewer that joins (or is switched on) later. */
  get last(): CameraPose | null {
    return this.#last;
  }

  get size(): number {
    return this.#listeners.size;
  }
}
