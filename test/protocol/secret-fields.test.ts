import { describe, expect, it } from 'vitest';
import { isSecretTarget, secretKind } from '../../src/protocol/secret-fields';

describe('secretKind', () => {
  it('names passwords, card numbers, security codes and one-time codes by their autocomplete or type', () => {
    expect(secretKind({ type: 'password' })).toBe('current-password');
    expect(secretKind({ type: 'text', autocomplete: 'section-pay billing cc-number' })).toBe('cc-number');
    expect(secretKind({ autocomplete: 'CC-CSC' })).toBe('cc-csc');
    expect(secretKind({ autocomplete: 'one-time-code' })).toBe('one-time-code');
    expect(secretKind({ type: 'text', autocomplete: 'new-password' })).toBe('new-password');
  });

  it('recognises a card form without autocomplete by its field names, and a one-time code by its numeric keypad too', () => {
    expect(secretKind({ inputMode: 'numeric', name: 'cardNumber' })).toBe('cc-number');
    expect(secretKind({ type: 'text', name: 'card_number' })).toBe('cc-number');
    expect(secretKind({ inputMode: 'numeric', id: 'card-cvv' })).toBe('cc-csc');
    expect(secretKind({ inputMode: 'numeric', name: 'otp' })).toBe('one-time-code');
    expect(secretKind({ inputMode: 'numeric', name: 'verification_code' })).toBe('one-time-code');
  });

  it('leaves ordinary fields alone, numeric or not', () => {
    expect(secretKind({ type: 'email', autocomplete: 'email', name: 'email' })).toBeUndefined();
    expect(secretKind({ inputMode: 'numeric', name: 'quantity' })).toBeUndefined();
    expect(secretKind({ inputMode: 'numeric', name: 'postcode' })).toBeUndefined();
    expect(secretKind({ name: 'otp' })).toBeUndefined();
    expect(secretKind({ name: 'discount-code' })).toBeUndefined();
  });
});

describe('isSecretTarget', () => {
  it('tells a secret from what DESCRIBE reports: the input type or the autocomplete token', () => {
    expect(isSecretTarget({ inputType: 'password' })).toBe(true);
    expect(isSecretTarget({ inputType: 'text', autocomplete: 'cc-number' })).toBe(true);
    expect(isSecretTarget({ inputType: 'text', autocomplete: 'email' })).toBe(false);
    expect(isSecretTarget({})).toBe(false);
  });
});
