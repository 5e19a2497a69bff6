// Saving a blob as a file: the viewer's downloads (screenshots, the original GLB, exports) and
// the batch's zip.

/** Saves `blob` as `fileName` through a temporary `<a download>`; the object URL is revoked later. */
export function saveBlob(blob: Blob, fileName: string): void {
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
    // A large file may still be read after click() returns: revoked a minute later.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}
