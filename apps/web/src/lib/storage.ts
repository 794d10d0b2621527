/**
 * localStorage behind try/catch: private modes and blocked storage throw on access.
 * SPEC §5: when storage is unreadable, protected routes stay reachable.
 */
export function storageReadable(): boolean {
  try {
    window.localStorage.getItem('__mostrador_probe__');
    return true;
  } catch {
    return false;
  }
}

export const storage = {
  get(key: string): string | null {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      // Storage full or blocked: the session lives in memory only.
    }
  },
  remove(key: string): void {
    try {
      window.localStorage.removeItem(key);
    } catch {
      // Nothing stored, nothing to clear.
    }
  },
  getJSON<T>(key: string): T | null {
    const raw = storage.get(key);
    if (raw === null) return null;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return null;
    }
  },
  setJSON(key: string, value: unknown): void {
    storage.set(key, JSON.stringify(value));
  },
};
