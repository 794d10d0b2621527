import { createExternalStore, useExternalStore } from './external-store';
import { storage } from './storage';

/**
 * The session store of SPEC §3: preferences kept across reloads. Only itemsPerPage is
 * read today; the others are kept for the screens that will use them.
 */
export interface SessionPreferences {
  itemsPerPage: number;
  selectedTelefono: string | null;
  selectedCommentFacebook: string | null;
  facebookAccessToken: string | null;
  facebookName: string | null;
}

const STORAGE_KEY = 'sessionStore';

/** SPEC §9: session store itemsPerPage 30. */
export const defaultPreferences: SessionPreferences = {
  itemsPerPage: 30,
  selectedTelefono: null,
  selectedCommentFacebook: null,
  facebookAccessToken: null,
  facebookName: null,
};

function load(): SessionPreferences {
  const stored = storage.getJSON<Partial<SessionPreferences>>(STORAGE_KEY);
  return { ...defaultPreferences, ...(stored && typeof stored === 'object' ? stored : {}) };
}

export const preferencesStore = createExternalStore<SessionPreferences>(load());

export function setPreference<K extends keyof SessionPreferences>(key: K, value: SessionPreferences[K]): void {
  preferencesStore.set((prev) => {
    const next = { ...prev, [key]: value };
    storage.setJSON(STORAGE_KEY, next);
    return next;
  });
}

export function usePreferences(): SessionPreferences {
  return useExternalStore(preferencesStore);
}
