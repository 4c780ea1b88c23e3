/**
 * Where to cut a table's string keys into ranges of about the same size, knowing only its first and
 * last key: reading every key first to cut at real keys took Chromium half a second for 100k
 * messages, before any row was read. The characters after the part both keys share are read as the
 * digits of a number, and the cuts spread evenly between the two numbers. Ids made by
 * crypto.randomUUID and the numbered ids of imports spread well enough over such cuts; however the
 * keys spread, the ranges cover every key between the two, each key once.
 */

/** How many characters after the shared part count: 3 digits of base 65,536 stay exact in a double. */
const DIGITS = 3;
const BASE = 0x10000;

const numberAt = (text: string, from: number): number => {
  let value = 0;
  for (let i = 0; i < DIGITS; i++) value = value * BASE + (text.charCodeAt(from + i) || 0);
  return value;
};

const digitsOf = (value: number): string => {
  const codes: number[] = [];
  for (let i = 0; i < DIGITS; i++, value = Math.floor(value / BASE)) codes.unshift(value % BASE);
  return String.fromCharCode(...codes);
};

/**
 * Up to `ranges - 1` keys, in increasing order and strictly between `first` and `last`, that cut
 * the keys from `first` to `last` into `ranges` ranges. Fewer when the two keys are too close.
 */
export function keyCuts(first: string, last: string, ranges: number): string[] {
  if (!(first < last) || ranges < 2) return [];
  let shared = 0;
  while (first[shared] === last[shared]) shared++;
  const low = numberAt(first, shared);
  const high = numberAt(last, shared);
  const prefix = first.slice(0, shared);
  const cuts: string[] = [];
  for (let i = 1; i < ranges; i++) {
    const cut = prefix + digitsOf(Math.floor(low + ((high - low) * i) / ranges));
    if (cut > first && cut < last && cut > (cuts.at(-1) ?? first)) cuts.push(cut);
  }
  return cuts;
}
