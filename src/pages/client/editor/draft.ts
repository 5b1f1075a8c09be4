/**
 * The person's unpublished text, kept in this browser (localStorage) per kind and remixed work,
 * so a reload (or a closed tab) loses nothing; it is forgotten once published.
 */
export interface Draft {
  load(): string | null;
  save(source: string): void;
  clear(): void;
}

export function draftStore(kind: string, remixOf: string | null): Draft {
  const key = `publish-gateway:draft:${kind}:${remixOf ?? ''}`;
  // Storage can be refused (private modes, a full quota): then there is simply no draft.
  const attempt = <T>(run: () => T, fallback: T): T => {
    try {
      return run();
    } catch {
      return fallback;
    }
  };
  return {
    load: () => attempt(() => localStorage.getItem(key), null),
    save: (source) => attempt(() => localStorage.setItem(key, source), undefined),
    clear: () => attempt(() => localStorage.removeItem(key), undefined),
  };
}
