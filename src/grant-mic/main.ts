/**
 * The one-time microphone grant. Side panels cannot show the permission prompt, but a tab of the
 * extension can, and the grant then holds for every page of the extension, the sidebar included.
 */
const outcome = document.getElementById('outcome')!;

function explain(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'No microphone was found. Plug one in and try again.';
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return 'The microphone is blocked for Jawad. Open the site permissions (the icon left of the address bar), allow the microphone, and press the button again.';
  }
  return `The microphone could not be opened: ${String((error as Error)?.message ?? error)}`;
}

document.getElementById('allow')!.addEventListener('click', async () => {
  outcome.textContent = 'Waiting for your answer…';
  try {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    for (const track of stream.getTracks()) track.stop();
    outcome.textContent = 'Done — the microphone is allowed. Go back to the Jawad sidebar and press the mic button. This tab closes by itself.';
    setTimeout(() => window.close(), 2500);
  } catch (error) {
    outcome.textContent = explain(error);
  }
});
