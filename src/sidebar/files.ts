/** Saving a file the background produced: a download through an object URL (both browsers). */
export function saveFile(filename: string, parts: BlobPart[], type: string): void {
  const url = URL.createObjectURL(new Blob(parts, { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once it starts; free the blob after the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
