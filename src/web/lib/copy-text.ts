// Copying a link or a snippet from a read-only field: the share dialogs (a model's, a
// collection's).

/** Copies text: the Clipboard API, else the field's selection (plain http on a LAN address). */
export async function copyText(
  text: string,
  field: HTMLInputElement | HTMLTextAreaElement | null,
): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    field?.focus();
    field?.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  }
}
