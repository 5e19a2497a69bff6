import { useCallback, useEffect, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { isGlb } from './loaders.ts';

/** A .glb from the user's disk, shown through an object URL. */
export interface LocalFile {
  name: string;
  url: string;
  size: number;
}

/**
 * Local files, dropped on the viewer or opened with the button (or O): checked to be a GLB (else
 * `onNotice` says why not), then given to `onOpenFile`, or shown in place (`local`). The object URL
 * of a file shown in place is this hook's: revoked when replaced or unmounted.
 */
export function useLocalFile({
  onOpenFile,
  openFiles,
  onNotice,
}: {
  onOpenFile: ((file: LocalFile) => void) | undefined;
  openFiles: boolean;
  onNotice: (notice: string | null) => void;
}) {
  const [local, setLocal] = useState<LocalFile | null>(null);

  useEffect(() => {
    if (!local) return;
    return () => URL.revokeObjectURL(local.url);
  }, [local]);

  const openFile = useCallback(
    async (files: File[]) => {
      const file = files[0];
      if (!file) return;
      const head = new Uint8Array(await file.slice(0, 12).arrayBuffer());
      if (!isGlb(head)) {
        onNotice(
          `“${file.name}” is not a GLB file (binary glTF), so it cannot be shown. Drop a .glb file.`,
        );
        return;
      }
      onNotice(null);
      const opened = { name: file.name, url: URL.createObjectURL(file), size: file.size };
      if (onOpenFile) onOpenFile(opened);
      else setLocal(opened);
    },
    [onOpenFile, onNotice],
  );
  const dropzone = useDropzone({
    onDrop: (accepted) => void openFile(accepted),
    multiple: false,
    noClick: true,
    noKeyboard: true,
    disabled: !openFiles,
    noDrag: !openFiles,
  });
  return { local, closeLocal: () => setLocal(null), dropzone };
}
