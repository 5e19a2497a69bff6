// Saving a blob as a file: the viewer's downloads (screenshots, the original GLB, exports).

/** Saves `blob` as `fileName` through a temporary `<a download>`; the object URL is revoked. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // Revoked on the next task: some browsers start the download after click() returns.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
