/** The page side of secret fields: reads a field's hints from the DOM (see protocol/secret-fields). */
import { secretKind, type SecretAutocomplete } from '../protocol/secret-fields';

/** Which secret a form field holds (password, card number or code, one-time code), if any. */
export function secretOf(element: Element): SecretAutocomplete | undefined {
  if (element.localName !== 'input' && element.localName !== 'textarea') return undefined;
  const field = element as HTMLInputElement;
  return secretKind({
    type: field.type,
    autocomplete: field.getAttribute('autocomplete') ?? undefined,
    inputMode: field.getAttribute('inputmode') ?? undefined,
    name: field.getAttribute('name') ?? undefined,
    id: field.id,
  });
}

/**
 * A field's autocomplete token for DESCRIBE's `autocomplete`: the secret it holds when it holds
 * one (whatever the page declared), otherwise the page's own token, if any.
 */
export function autocompleteOf(element: Element): string | undefined {
  const declared = element.getAttribute('autocomplete')?.trim().toLowerCase().slice(0, 100);
  return secretOf(element) ?? (declared || undefined);
}
