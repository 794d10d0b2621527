import { createExternalStore, useExternalStore } from './external-store';
import { storage } from './storage';

/**
 * The session store of SPEC §3: preferences kept across reloads (itemsPerPage, the selected
 * phone and Facebook comment, the Facebook page's name). The Facebook access token is the one
 * exception: it lives in memory only — never written to browser storage, and one found there
 * (an older build) is dropped — so a script that reads localStorage cannot take it.
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

/** Preferences that never reach browser storage. */
const memoryOnly: ReadonlyArray<keyof SessionPreferences> = ['facebookAccessToken'];

function persisted(preferences: SessionPreferences): Partial<SessionPreferences> {
  const out: Partial<SessionPreferences> = { ...preferences };
  for (const key of memoryOnly) delete out[key];
  return out;
}

function load(): SessionPreferences {
  const stored = storage.getJSON<Partial<SessionPreferences>>(STORAGE_KEY);
  const kept = stored && typeof stored === 'object' ? { ...stored } : {};
  if (memoryOnly.some((key) => key in kept)) {
    for (const key of memoryOnly) delete kept[key];
    storage.setJSON(STORAGE_KEY, kept);
  }
  return { ...defaultPreferences, ...kept };
}

export const preferencesStore = createExternalStore<SessionPreferences>(load());

export function setPreference<K extends keyof SessionPreferences>(key: K, value: SessionPreferences[K]): void {
  preferencesStore.set((prev) => {
    const next = { ...prev, [key]: value };
    storage.setJSON(STORAGE_KEY, persisted(next));
    return next;
  });
}

export function usePreferences(): SessionPreferences {
  return useExternalStore(preferencesStore);
}
