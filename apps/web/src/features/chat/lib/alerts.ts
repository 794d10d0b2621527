import type { ChatSummary } from '@mostrador/contract';
import { useSyncExternalStore } from 'react';

/**
 * New-message alerts of the chat screen (issue 11, decision 0027): a browser notification and
 * a short sound, each optional and off until the agent turns it on (kept in this browser).
 */
export interface AlertPrefs {
  notify: boolean;
  sound: boolean;
}

const KEY = 'mostrador.chat-alerts';
const listeners = new Set<() => void>();
let cached: AlertPrefs | undefined;

function read(): AlertPrefs {
  if (cached) return cached;
  try {
    const raw = JSON.parse(window.localStorage.getItem(KEY) ?? '{}') as Partial<AlertPrefs>;
    cached = { notify: raw.notify === true, sound: raw.sound === true };
  } catch {
    cached = { notify: false, sound: false };
  }
  return cached;
}

export function setAlertPrefs(next: Partial<AlertPrefs>): void {
  cached = { ...read(), ...next };
  try {
    window.localStorage.setItem(KEY, JSON.stringify(cached));
  } catch {
    // kept for this page only
  }
  for (const l of listeners) l();
}

export function getAlertPrefs(): AlertPrefs {
  return read();
}

export function useAlertPrefs(): AlertPrefs {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      const onStorage = (e: StorageEvent) => {
        if (e.key === KEY || e.key === null) {
          cached = undefined;
          l();
        }
      };
      window.addEventListener('storage', onStorage);
      return () => {
        listeners.delete(l);
        window.removeEventListener('storage', onStorage);
      };
    },
    read,
    read,
  );
}

/** What the browser allows: 'unsupported' where there is no Notification API. */
export function notificationPermission(): NotificationPermission | 'unsupported' {
  return typeof window !== 'undefined' && 'Notification' in window ? window.Notification.permission : 'unsupported';
}

/** Asks the browser for permission (a click of the agent's); true when granted. */
export async function askNotificationPermission(): Promise<boolean> {
  if (notificationPermission() === 'unsupported') return false;
  if (window.Notification.permission === 'granted') return true;
  try {
    return (await window.Notification.requestPermission()) === 'granted';
  } catch {
    return false;
  }
}

let audio: AudioContext | undefined;

/** Two short soft tones (Web Audio: no file to load). Silent where audio is blocked. */
export function playChime(): void {
  try {
    const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    audio ??= new Ctx();
    const now = audio.currentTime;
    for (const [i, freq] of [880, 1320].entries()) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.16);
      gain.gain.exponentialRampToValueAtTime(0.12, now + i * 0.16 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.16 + 0.14);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.16);
      osc.stop(now + i * 0.16 + 0.15);
    }
  } catch {
    // no sound
  }
}

/** Shows a browser notification; a click brings the tab back and runs `onClick`. */
export function showNotification(title: string, body: string, tag: string, onClick: () => void): void {
  if (notificationPermission() !== 'granted') return;
  try {
    const n = new window.Notification(title, { body, tag });
    n.onclick = () => {
      window.focus();
      onClick();
      n.close();
    };
  } catch {
    // some browsers only notify from a service worker: nothing to show
  }
}

/** An agent of the company, with the user it is tied to when the organisation links them. */
export interface AgentLink {
  _id: string;
  userId?: string | null;
}

/**
 * Whether a chat is the current user's for alerts: its lead's agent is tied to the user. A
 * chat with no agent counts for everyone (someone has to pick it up), and so does every chat
 * while the company's agents are not tied to users at all (nothing tells who owns what).
 */
export function isOwnChat(chat: Pick<ChatSummary, 'lead'>, userId: string | undefined, agents: readonly AgentLink[] | undefined): boolean {
  const agenteId = chat.lead?.agenteId;
  if (!agenteId) return true;
  if (!agents?.some((a) => a.userId)) return true;
  return !!userId && agents.some((a) => a._id === agenteId && a.userId === userId);
}
