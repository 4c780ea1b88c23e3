/**
 * Fields whose value is a secret: passwords, card numbers and security codes, one-time codes.
 * Their values never appear in a snapshot, an accessible name or a read page, and reading one with
 * `get value` is a step of its own (the agent asks). Pure, so the page agent and the background
 * judge a field the same way.
 */

/** The autocomplete tokens (HTML spec) that name a secret; the page agent reports the first that applies. */
export const SECRET_AUTOCOMPLETE = ['current-password', 'new-password', 'cc-number', 'cc-csc', 'cc-exp', 'one-time-code'] as const;
export type SecretAutocomplete = (typeof SECRET_AUTOCOMPLETE)[number];

/** What the page says about a field: its type, autocomplete, inputmode, and its name and id attributes. */
export interface FieldHints {
  type?: string;
  autocomplete?: string;
  inputMode?: string;
  name?: string;
  id?: string;
}

/** Names sites give card-number, security-code and one-time-code fields that carry no autocomplete. */
const CARD_LIKE = /card.?(?:number|no|num)|cc.?(?:num|number)|\bpan\b|cvc|cvv|csc|security.?code|card.?code/i;
const ONE_TIME_LIKE = /\botp\b|one.?time|verification.?code|2fa|totp|auth.?code|sms.?code|\bpin\b/i;

/** Which secret the field holds, as its autocomplete token, or undefined when it holds none. */
export function secretKind(field: FieldHints): SecretAutocomplete | undefined {
  const tokens = (field.autocomplete ?? '').toLowerCase().split(/\s+/);
  const declared = SECRET_AUTOCOMPLETE.find((token) => tokens.includes(token));
  if (declared) return declared;
  if ((field.type ?? '').toLowerCase() === 'password') return 'current-password';
  // The common card form without autocomplete: fields named like a card number or security code.
  const names = `${field.name ?? ''} ${field.id ?? ''}`;
  if (CARD_LIKE.test(names)) return /cvc|cvv|csc|security|card.?code/i.test(names) ? 'cc-csc' : 'cc-number';
  // "code" and "pin" name many things: only on a numeric keypad do they mean a one-time code.
  return (field.inputMode ?? '').toLowerCase() === 'numeric' && ONE_TIME_LIKE.test(names) ? 'one-time-code' : undefined;
}

/** A DESCRIBE answer names a secret field: the agent makes reading its value a step of its own. */
export function isSecretTarget(target: { inputType?: string; autocomplete?: string }): boolean {
  return target.inputType === 'password' || SECRET_AUTOCOMPLETE.some((token) => token === target.autocomplete);
}
