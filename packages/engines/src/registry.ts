import type { EngineError } from './errors.ts';

/**
 * The named engines of one kind (speech, recognition, voice conversion): those that run, preferred
 * first, and those configured that failed to start. Each kind adds its own listing and says, in its
 * own words, what is missing.
 */
export interface Registry<E, P = never> {
  has(id: string): boolean;
  /** By id (a family name picks the family's first engine), the preferred one without an id. */
  get(id?: string): E;
  /** Engines that were configured but failed to start, for the start-up log. */
  readonly problems: readonly P[];
  close(): Promise<void>;
}

export interface RegistryRules<E> {
  /** The family an engine belongs to ('sherpa-onnx' for 'sherpa-onnx:<model>'), when ids have one. */
  familyOf?: (engine: E) => string;
  /** No default: a call without an id finds nothing (speech is always asked for by its voice's engine). */
  noDefault?: boolean;
  /** The error for an id nothing answers to (or for no id when there is no default). */
  missing: (id: string | undefined) => EngineError;
}

export function createRegistry<E extends { id: string; close?(): Promise<void> }, P = never>(
  engines: readonly E[],
  problems: readonly P[],
  rules: RegistryRules<E>,
): Registry<E, P> {
  const { familyOf, noDefault, missing } = rules;
  const find = (id: string | undefined) =>
    id === undefined
      ? noDefault
        ? undefined
        : engines[0]
      : (engines.find((e) => e.id === id) ?? (familyOf && engines.find((e) => familyOf(e) === id)));
  return {
    has: (id) => engines.some((e) => e.id === id),
    get(id) {
      const found = find(id);
      if (found) return found;
      throw missing(id);
    },
    problems,
    close: async () => {
      await Promise.all(engines.map((e) => e.close?.()));
    },
  };
}
