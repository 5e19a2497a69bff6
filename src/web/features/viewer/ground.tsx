// What lies under the model: its contact shadow and the grid.
import { ContactShadows } from '@react-three/drei';

/** Side of the contact-shadow square and of the grid, in model footprints. */
const SHADOW_SCALE = 3;
const GRID_SIZE = 4;

/**
 * The contact shadow and the grid under a model `height` tall (centred on the origin), once its
 * size is `known`. The shadow outlives the models (drei's ContactShadows does not free its render
 * targets on unmount), and is redrawn for each one once its size is known.
 */
export function Ground({
  height,
  known,
  shadow,
  grid,
  dark,
}: {
  height: number;
  /** The model's size is known (else the shadow is hidden and the grid absent). */
  known: boolean;
  shadow: boolean;
  grid: boolean;
  /** On a dark background (paler lines, a darker shadow). */
  dark: boolean;
}) {
  return (
    <>
      {/* Models are scaled to a unit footprint, so `scale` (which, changed, makes ContactShadows
          allocate new render targets without freeing the old) stays put. */}
      {/* ContactShadows makes itself visible each time it draws: hide it through a parent. */}
      <group visible={known && shadow}>
        <ContactShadows
          frames={1}
          position={[0, -height / 2 - 0.002, 0]}
          scale={SHADOW_SCALE}
          far={0.6 * height}
          resolution={512}
          blur={2.2}
          opacity={dark ? 0.7 : 0.45}
        />
      </group>
      {grid && known && (
        <gridHelper
          key={dark ? 'dark' : 'light'}
          args={[GRID_SIZE, 40, dark ? 0x8a8580 : 0x6b6560, dark ? 0x4a4642 : 0xc9c4bd]}
          position={[0, -height / 2 - 0.001, 0]}
        />
      )}
    </>
  );
}
