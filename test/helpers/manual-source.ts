/**
 * A `CatalogSource` whose generations a test publishes by hand, calling subscribers as the store does: the one
 * source double for tests that drive a door or the dashboard without a store.
 */
import type { CatalogChange, CatalogSource, Generation } from '../../src/core/types.js';

export interface ManualSource {
  readonly source: CatalogSource;
  /** Open subscriptions (a door that unsubscribes on close leaves none). */
  readonly listeners: ReadonlySet<(change: CatalogChange) => void>;
  /** Makes `next` current and tells every subscriber, with the change `toChange` describes. */
  publish(next: Generation): void;
}

export function createManualSource(
  first: Generation,
  toChange: (previous: Generation, next: Generation) => CatalogChange,
): ManualSource {
  let current = first;
  const listeners = new Set<(change: CatalogChange) => void>();
  return {
    source: {
      current: () => current,
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    listeners,
    publish(next) {
      const change = toChange(current, next);
      current = next;
      for (const listener of [...listeners]) listener(change);
    },
  };
}
