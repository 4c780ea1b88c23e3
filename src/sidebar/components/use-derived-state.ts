import { useState } from 'preact/hooks';

/**
 * State made from `source`, and made afresh whenever `source` changes (settings loaded or saved
 * elsewhere, another tool chosen). The reset happens during render, not in an effect: an effect
 * runs after paint and would wipe what the user typed in between.
 */
export function useDerivedState<S, T>(source: S, derive: (source: S) => T): [T, (next: T) => void] {
  const [state, setState] = useState<T>(() => derive(source));
  const [from, setFrom] = useState(source);
  if (from !== source) {
    const fresh = derive(source);
    setFrom(source);
    setState(fresh);
    return [fresh, setState];
  }
  return [state, setState];
}
