import { CAPS, clipText } from '../../protocol/caps';
import { DIALOG_CHANNEL, MAX_DIALOGS_LISTED, PageDialog } from '../../protocol/messages';

/**
 * Arms the page-world dialog shim for one action: a box the page shows meanwhile is answered at
 * once (alert OK; confirm and prompt accepted only when `accept`, else cancelled) instead of holding
 * the page. Returns the function that disarms it and gives the boxes shown. What the page reports
 * is the page's to forge, so it is checked and capped like any page text.
 */
export function answerDialogs(accept: boolean): () => PageDialog[] {
  const shown: PageDialog[] = [];
  const onDialog = (event: Event) => {
    let reported: unknown;
    try {
      reported = JSON.parse(String((event as CustomEvent).detail));
    } catch {
      return;
    }
    const dialog = PageDialog.safeParse({ ...(reported as object), message: clipText(String((reported as { message?: unknown } | null)?.message ?? ''), CAPS.dialog) });
    if (dialog.success && shown.length < MAX_DIALOGS_LISTED) shown.push(dialog.data);
  };
  document.addEventListener(`${DIALOG_CHANNEL}:dialog`, onDialog);
  document.dispatchEvent(new Event(`${DIALOG_CHANNEL}:${accept ? 'accept' : 'cancel'}`));
  return () => {
    document.dispatchEvent(new Event(`${DIALOG_CHANNEL}:disarm`));
    document.removeEventListener(`${DIALOG_CHANNEL}:dialog`, onDialog);
    return shown;
  };
}
